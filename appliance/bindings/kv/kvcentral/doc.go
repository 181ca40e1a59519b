// Package kvcentral is the central-mode backend of Workers KV: every KV
// namespace lives in the fleet's coordination KV (package coord) under the
// keys ("kv", <namespace>, <key>), so all replicas see the same data. It
// applies the shared rules of package kv (validation, list limits,
// cursors) and passes the kvtest conformance suite like kvlocal.
//
// Each key is one coord entry whose value is a record holding the
// metadata and the expiration in front of the value (see record.go), so a
// Get, a Put and a Delete are one round trip each, and a List reads only
// the records' headers.
//
// Expiry: the coordination KV expires the entry by the libSQL server's
// clock, ExpirationTTL after the put (an absolute Expiration is turned
// into a TTL by the replica's clock). The Expiration that List reports is
// the one computed when the key was put, by the replica's clock; start-up
// probes keep the two clocks close.
//
// Limits: values travel base64-encoded in one request, so the libSQL
// server's request limit (dwk libsql: --max-body-size, 10 MiB by default)
// caps values below Workers KV's 25 MiB; a put over it fails with an error
// wrapping worker.ErrKVValueTooLarge.
package kvcentral
