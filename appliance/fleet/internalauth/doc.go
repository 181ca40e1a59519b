// Package internalauth authenticates every request between the replicas
// of a fleet (the front door proxying to a member's internal listener,
// object forwarding, any other internal endpoint) with a per-request MAC
// keyed by the fleet secret.
//
// The key is HMAC-SHA256(fleet secret, "dwk internal mac v2"): every
// replica derives the same key, the secret itself never travels, and a
// leaked key reveals neither the secret nor the object ids derived from it.
// A signed request carries
//
//	Dwk-Mac: v2 t=<unix ms> n=<nonce, 32 hex> l=<body length or -1> [h=<64 hex>] m=<64 hex>
//
// where m is HMAC-SHA256(key) over the method, the request URI (path and
// raw query, exactly as sent), t, n, l and h. The body is covered in one of
// two ways:
//
//   - l=0: there is no body, and the receiver refuses one;
//   - a body of declared length up to MaxSignedBody (64 KiB): h is its
//     SHA-256; the receiver reads and checks it before the handler runs,
//     so a handler only ever sees the signed bytes;
//   - a larger body, or one of unknown length (l=-1), streams: its MAC
//     arrives in the trailer Dwk-Body-Mac as HMAC-SHA256(key, "body", n,
//     body), and the receiver's body reader fails at the end of the body,
//     instead of returning io.EOF, when the trailer is missing or wrong or
//     the length differs from a declared l. A handler that reads such a
//     body to the end never takes an altered one for complete; one that
//     acts before the end (a JSON decoder stops at the closing brace) may
//     act on altered bytes, which over mTLS only the signer could send.
//
// The receiver accepts t within Window of its own clock (either side) and
// remembers each nonce for twice the window; a nonce seen before is a
// replay. At most MaxNonces nonces are kept: past that, requests are
// refused (fail closed) until old ones age out.
//
// Refusals are 401 with a plain message saying what is wrong: a missing
// signature, a bad MAC, a timestamp out of the window (with both clocks),
// a replayed nonce. The MAC applies on top of mTLS (package internaltls)
// and alone when TLS is off on a private network.
package internalauth
