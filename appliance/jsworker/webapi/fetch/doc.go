// Package fetch is the Fetch standard for dwk's JavaScript runtime:
// Headers, Request, Response, the body methods and the global fetch, and
// the conversions between Go's net/http and those objects that the
// runtime's adapter uses for incoming requests and the responses it
// writes.
//
// Bodies stay where they are until read: an incoming request's body and a
// fetch response's body are Go readers that JavaScript reads chunk by
// chunk or whole, and that Go copies straight to a client when JavaScript
// returns them unread (a proxy). A body given as a string or bytes is
// written as it is, with a Content-Length.
//
// # Differences
//
// Stream chunks of a response body may be strings as well as bytes
// (written as UTF-8; Cloudflare requires bytes). request.cf carries only
// httpProtocol. Outgoing fetch follows at most 20 redirects and supports
// http and https URLs only; the cache, mode, credentials and integrity
// options are accepted and ignored.
package fetch
