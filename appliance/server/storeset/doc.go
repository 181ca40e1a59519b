// Package storeset opens the stores a worker's bindings name (D1 databases,
// R2 buckets, KV namespaces, the queue broker) for one storage mode, by
// store name: Local under a local-mode data directory, Central on a
// fleet's libSQL server and S3 bucket. dwk serve assembles its workers
// over them, and the commands that work on the stores directly (dwk d1,
// kv, r2, queues) open them here too, so what a command writes is what a
// worker reads.
//
// Stores open lazily, on first use of a name, and a name always returns
// the same store. Close closes what was opened, in reverse order.
package storeset
