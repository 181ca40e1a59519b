// Package worker is the Go Worker API of dwk: the contract between
// applications and the host.
//
// Applications are Go packages that register themselves from init(), the way
// Caddy modules do:
//
//	func init() {
//		worker.RegisterWorker("counter", counterWorker{})
//		worker.RegisterObject("Counter", newCounter)
//	}
//
// A worker implements any of Fetcher, Scheduler and QueueConsumer. An object
// class is a constructor that receives the object's State and the worker's
// Env and returns an Object; the object may also implement Alarmer,
// WebSocketMessageHandler and WebSocketCloseHandler. Its events share it
// through Cloudflare's input and output gates unless the class registers
// with WithConcurrency(Strict) (see Concurrency).
//
// Bindings (D1 databases, R2 buckets, KV namespaces, queues, object
// namespaces and plain variables) reach code through Env. Their semantics
// follow Cloudflare's where they make sense in Go; every binding has a local
// backend and a central one, and the same conformance suite runs against both.
package worker
