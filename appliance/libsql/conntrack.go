package libsql

import (
	"net"
	"net/http"
	"sync"
)

// newConnTracker remembers connections that have not started a request
// yet. http.Server.Shutdown waits up to five seconds for such connections
// (clients often dial one spare connection they never use), so Close ends
// them at once.
type newConnTracker struct {
	mu       sync.Mutex
	fresh    map[net.Conn]struct{}
	shutting bool
}

// hook is the http.Server ConnState callback.
func (t *newConnTracker) hook(c net.Conn, state http.ConnState) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.fresh == nil {
		t.fresh = map[net.Conn]struct{}{}
	}
	switch state {
	case http.StateNew:
		if t.shutting {
			c.Close()
			return
		}
		t.fresh[c] = struct{}{}
	default:
		delete(t.fresh, c)
	}
}

// closeFresh closes the connections without a request and every new one.
func (t *newConnTracker) closeFresh() {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.shutting = true
	for c := range t.fresh {
		c.Close()
		delete(t.fresh, c)
	}
}
