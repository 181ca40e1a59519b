// Package r2central is the central backend of the R2 binding: a worker.R2Bucket
// over an S3-compatible object store (AWS S3, Cloudflare R2, MinIO,
// versitygw…) through aws-sdk-go-v2.
//
// One S3 bucket holds every R2 bucket of a fleet, each under its own key
// prefix (Config.KeyPrefix, e.g. "r2/uploads/"). Keys, list prefixes, cursors
// and delimited prefixes are all relative to it; nothing outside the prefix
// is ever read or written.
//
// # Mapping
//
//   - HTTP metadata is stored as the object's own Content-Type,
//     Content-Language, Content-Disposition, Content-Encoding, Cache-Control
//     and Expires; custom metadata as x-amz-meta-* headers. Custom metadata
//     whose keys are not lower-case HTTP tokens, or whose values are not
//     printable ASCII, is stored whole as base64url-encoded JSON in one
//     reserved header instead, so that keys keep their case and values
//     their bytes.
//   - Reserved headers under x-amz-meta-dwk- hold what S3 has no field for:
//     the R2 Version (a random id per write), the checksums given at put
//     time, and that no Content-Type was given (stores report a default
//     type then). They never show in CustomMetadata. An object written by
//     another S3 client has no Version of ours; it gets one derived from
//     its ETag and Last-Modified time.
//   - Uploaded is the store's Last-Modified time, whole seconds, in Head,
//     Get and List alike. Put and Complete report the store's Date header of
//     their response (the client's clock when it has none), which can differ
//     from the Last-Modified a later Head reports by about a second.
//   - List uses ListObjectsV2; its cursor wraps S3's continuation token. Listed
//     objects carry Key, Size, ETag and Uploaded only: S3 does not list
//     metadata, so Version, HTTPMetadata, CustomMetadata and Checksums are
//     empty there, as in R2 when a list does not ask to include them.
//
// # Conditions, checksums and consistency
//
// Conditions (OnlyIf) are evaluated by r2.CheckConditional on the object's
// metadata from a HEAD, exactly as the local backend evaluates them. The
// request that follows is pinned to that state with S3's own conditional
// headers: a Get sends If-Match with the ETag it checked, a Put sends
// If-Match with it (If-None-Match: * when there was no object). When the
// object changed in between, the store answers 412 and the operation starts
// over with a fresh HEAD. The pin is an ETag, so a concurrent overwrite with
// the same body is not detected; the conditions then apply to the earlier
// write of that body. Conditional writes need a store that honours
// If-Match and If-None-Match on PutObject (AWS S3 since 2024 and
// versitygw 1.x do); a store that ignores them turns a conditional Put
// into check-then-write, which two racing writers can both pass.
//
// A Put body is spooled first (in memory up to 8 MiB, in a temporary file
// beyond), which gives S3 its Content-Length, lets the SDK retry the upload
// from the start, and checks the MD5 and SHA-256 given in the options
// before anything is sent: on a mismatch nothing is stored and Put returns
// worker.ErrChecksumMismatch. The body's MD5 travels as Content-MD5, so the
// store rejects anything damaged in transit, and is recorded in the
// object's metadata.
//
// A Get of a whole object of up to Config.VerifiedReadMax bytes (1 MiB)
// reads the body before it returns and checks it against that MD5: a store
// whose GET is not atomic can pair one write's body with another write's
// ETag or metadata while the object is overwritten (versitygw's posix
// backend reads the ETag before it opens the file). A mismatched body is
// fetched again (ErrTornRead when that keeps happening); a verified body on
// a store whose ETags are body MD5s gets the ETag of its MD5. Larger
// bodies, ranges and multipart objects stream unchecked.
//
// # Failures
//
// Every call runs under a deadline (Config.Timeout, default 30 s; for Get,
// until the response headers arrive — reading the body is bounded by the
// caller's context). Requests are retried by the SDK's standard retryer
// (Config.MaxAttempts, default 3) where a repeat is harmless: HEAD, GET,
// LIST, DELETE, part uploads and puts, whose bodies are seekable. A
// retried conditional Put that finds its own write already stored (its
// Version) reports success rather than a failed precondition. A retried
// CreateMultipartUpload may leave an unused upload behind, which a bucket
// lifecycle rule for incomplete uploads removes. CompleteMultipartUpload
// is never retried: on a store that does not complete idempotently, a
// retry after a lost response would report a missing upload for an upload
// that succeeded. An unreachable, failing (5xx) or slow store yields an
// error that matches ErrUnavailable with errors.Is and names the operation
// and key.
package r2central
