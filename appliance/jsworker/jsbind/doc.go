// Package jsbind gives a JavaScript worker's env its store bindings: D1
// databases, KV namespaces, R2 buckets, queue producers, Durable Object
// namespaces and service bindings, each a JavaScript class over the host's
// Go binding from appliance/worker. The stores behind them are the host's:
// local or central, they are the same to this package.
//
// Every call that waits for a store runs on a goroutine of its own through
// jsrt's Async, inside worker.Await, so that an object's event opens its
// input gate while it waits, as it does for Go apps.
//
// Each binding is a file pair: kind.go (the Go constructor and natives)
// and kind.js (the class apps see).
package jsbind
