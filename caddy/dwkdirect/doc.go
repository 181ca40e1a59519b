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
//     handler opens a stream to the member (over the peer link: one
//     session per member carries every tunnel, package peermux, stream.go;
//     without the dwk transport, a TCP connection), relays the handshake
//     and, after 101, copies bytes between the client's connection and the
//     stream (see splice.go). On Linux an idle tunnel runs no goroutine:
//     one poller per process (epoll, poller_linux.go) waits for the client
//     sockets of every idle tunnel (under TLS, the socket beneath), a
//     stream announces its own bytes (Notify), and a relay starts for a
//     side when bytes arrive. On other systems each direction runs a
//     goroutine parked on its source. When the front
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
