// Package kv holds the rules of the Workers KV binding that every backend
// applies the same way: input validation, expiry resolution, list limits and
// the opaque list cursor. Backends (kvlocal, the central libSQL one) call
// these so that the kvtest conformance suite sees identical behaviour.
//
// Expiry is kept at millisecond precision: a key put with ExpirationTTL 1.5 s
// expires 1.5 s later, not rounded to whole seconds as Cloudflare does. A key
// whose expiry is at or before the current time is expired.
package kv

import "errors"

// Limits of the Workers KV API, as documented on worker.KVNamespace.
const (
	MaxKeyLen      = 512
	MaxValueLen    = 25 << 20
	MaxMetadataLen = 1024
	MaxListLimit   = 1000
)

// Errors for bad list input. Key, value, metadata and expiration errors are
// the worker package's (worker.ErrKVKeyInvalid and friends).
var (
	ErrCursorInvalid = errors.New("kv: list cursor was not issued by List")
	ErrListLimit     = errors.New("kv: list limit must be 0 (default) to 1000")
)
