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
//
// # Differences
//
// D1: meta.served_by is "dwk.d1" and every query is served_by_primary (a
// database has one copy), so meta has no served_by_region; rows_read and
// rows_written are the backend's counts (the local backend's are rows
// returned and rows changed); changed_db is true when rows changed or the
// statement is a CREATE, DROP or ALTER. exec() splits its SQL into
// statements at semicolons, where Cloudflare splits it into lines: count is
// the number of statements, and D1_EXEC_ERROR's "line" is the failing
// statement's position. dump() rejects with D1_DUMP_ERROR (Cloudflare
// deprecated it; it only ever worked for alpha databases). Bookmarks are
// dwk's (worker.D1Session): a malformed one fails the session's queries
// with D1_ERROR. BLOB results are arrays of byte values, as Cloudflare's
// are; Durable Object SQL returns ArrayBuffers.
//
// R2: put() takes streams of unknown length (Cloudflare needs a known
// length). storageClass is always "Standard": "InfrequentAccess" is
// accepted and ignored. sha1, sha384 and sha512 are checked as the body is
// stored (a mismatch stores nothing) but not kept: checksums reports md5
// (for every object put whole, from its ETag) and sha256. SSE-C (ssecKey)
// is refused. A Range header with several ranges or another unit reads the
// whole object. Errors are "<operation>: <the backend's error>", without
// R2's numeric codes. list() with include reads each object's metadata
// with a head() on backends whose listing lacks it (S3).
//
// Queues: the limits are worker/queue.go's (1 to 100 messages a batch,
// 128 KiB a message once encoded, delays up to 12 hours); Cloudflare's
// 256 KB per batch is not checked. A "v8" body is internal.serialize's
// structured-clone text, not V8's serialization format: only dwk's
// consumers read it.
package jsbind
