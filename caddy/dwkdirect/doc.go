// Package dwkdirect is the Caddy module http.handlers.dwk_direct: it wraps
// the front door's reverse_proxy (with the dwk upstream source and the dwk
// selection policy) and serves two kinds of requests without it:
//
//   - Requests for this replica are handed in process to the app's
//     http.Handler (registered with Register): object requests whose lease
//     holder (or placement choice) is this member, and requests that address
//     no object while this member is listed as ready. There is no loopback
//     hop; a retry answer (503 + X-Dwk-Retry: 1) from the app is not sent to
//     the client but replayed through the reverse proxy on another member,
//     with the body (up to replay_body bytes) sent again.
//   - WebSocket upgrades for objects held by another member are spliced: the
//     handler dials the member, relays the handshake and, after 101, copies
//     bytes between the two connections (see splice.go). On Linux, when
//     both are plain TCP sockets, an idle tunnel runs no goroutine and
//     holds no buffer: one poller per process (epoll, poller_linux.go)
//     waits for the sockets of every idle tunnel and starts a relay for a
//     side when bytes arrive. Otherwise (TLS on either side, other systems)
//     each direction runs a goroutine parked on its socket. When the front
//     door stops, each tunnel gets a close frame 1012 (service restart) on
//     the client side, so clients reconnect to another replica.
//
// Everything else, and every case these cannot serve (a failed dial, a
// retry answer from the member), goes to the wrapped reverse_proxy, which
// keeps its retries, passive health checks and request buffering.
//
// JSON:
//
//	{
//		"handler": "dwk_direct",
//		"member": "replica-1",
//		"app": "replica-1",
//		"proxy": {"handler": "reverse_proxy", "dynamic_upstreams": {"source": "dwk", …},
//		          "load_balancing": {"selection_policy": {"policy": "dwk", …}}, …}
//	}
package dwkdirect
