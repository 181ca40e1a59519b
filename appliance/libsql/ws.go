package libsql

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"sync"
	"time"

	"github.com/gorilla/websocket"

	"github.com/dwk/fleet/appliance/libsql/hrana"
)

func isWebSocketUpgrade(r *http.Request) bool { return websocket.IsWebSocketUpgrade(r) }

// serveWebSocket upgrades a GET / request to Hrana over WebSocket. The
// namespace is chosen from the headers, as for HTTP; authentication comes
// later, with the hello message.
func (s *Server) serveWebSocket(w http.ResponseWriter, r *http.Request) {
	if s.closing.Load() {
		s.writeError(w, r, hrana.Errorf(hrana.CodeShuttingDown, "The server is shutting down"))
		return
	}
	name, herr := namespaceFromRequest(r, s.cfg.DisableNamespaces)
	if herr != nil {
		s.writeError(w, r, herr)
		return
	}
	ns, err := s.lookupNamespace(name)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	offered := websocket.Subprotocols(r)
	if len(offered) > 0 && !slices.ContainsFunc(offered, func(p string) bool { return slices.Contains(hrana.Subprotocols, p) }) {
		s.writeError(w, r, hrana.Protocolf("Only these WebSocket subprotocols are supported: %v", hrana.Subprotocols))
		return
	}
	up := websocket.Upgrader{
		Subprotocols:    hrana.Subprotocols,
		CheckOrigin:     func(*http.Request) bool { return true },
		ReadBufferSize:  16 << 10,
		WriteBufferSize: 16 << 10,
	}
	ws, err := up.Upgrade(w, r, nil)
	if err != nil {
		return // the upgrader has answered the client
	}
	version, _ := hrana.SubprotocolVersion(ws.Subprotocol())
	ws.SetReadLimit(s.cfg.MaxBodySize)
	c := newWSConn(s, ws, ns, version)
	if !s.ws.add(c) {
		ws.WriteControl(websocket.CloseMessage, websocket.FormatCloseMessage(websocket.CloseGoingAway, "server shutting down"), time.Now().Add(time.Second))
		ws.Close()
		return
	}
	defer s.ws.remove(c)
	c.serve()
}

// wsTracker knows the live WebSocket connections so that Close can end
// them and wait for their goroutines.
type wsTracker struct {
	mu     sync.Mutex
	conns  map[*wsConn]struct{}
	closed bool
	wg     sync.WaitGroup
}

func (t *wsTracker) add(c *wsConn) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.closed {
		return false
	}
	if t.conns == nil {
		t.conns = map[*wsConn]struct{}{}
	}
	t.conns[c] = struct{}{}
	t.wg.Add(1)
	return true
}

func (t *wsTracker) remove(c *wsConn) {
	t.mu.Lock()
	delete(t.conns, c)
	t.mu.Unlock()
	t.wg.Done()
}

// closeAll sends every connection a "going away" close frame, ends it, and
// waits (until ctx is done) for its goroutines to finish.
func (t *wsTracker) closeAll(ctx context.Context) error {
	t.mu.Lock()
	t.closed = true
	conns := make([]*wsConn, 0, len(t.conns))
	for c := range t.conns {
		conns = append(conns, c)
	}
	t.mu.Unlock()
	for _, c := range conns {
		c.shutdown(websocket.CloseGoingAway, "server shutting down")
	}
	done := make(chan struct{})
	go func() {
		t.wg.Wait()
		close(done)
	}()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return fmt.Errorf("close %d WebSocket connections: %w", len(conns), ctx.Err())
	}
}
