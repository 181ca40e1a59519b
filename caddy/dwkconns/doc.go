// Package dwkconns is the Caddy listener wrapper caddy.listeners.dwk_conns:
// it hides the ReadFrom and WriteTo methods of accepted connections.
//
// When reverse_proxy tunnels an upgraded connection (a WebSocket), it
// copies each direction with io.CopyBuffer and a buffer of
// stream_buffer_size bytes. A plain *net.TCPConn implements ReadFrom and
// WriteTo, so io.CopyBuffer hands the copy to them instead; they cannot
// splice to the backend's response body and fall back to io.Copy, which
// allocates 32 KiB per direction for as long as the connection lives.
// Behind this wrapper the copies use reverse_proxy's buffer, so an idle
// tunnel holds two buffers of the configured size.
package dwkconns
