package objects

import (
	"context"
	"errors"
	"fmt"
	"net/http"

	"github.com/gorilla/websocket"

	"github.com/dwk/fleet/appliance/fleet/protocol"
	"github.com/dwk/fleet/appliance/worker"
)

var _ worker.ObjectHost = (*instance)(nil)

var upgrader = websocket.Upgrader{
	// The object decides whom it accepts (see worker.State.AcceptWebSocket).
	CheckOrigin: func(*http.Request) bool { return true },
}

// AcceptWebSocket implements worker.ObjectHost.
func (in *instance) AcceptWebSocket(w http.ResponseWriter, r *http.Request, tags []string) (*worker.WebSocket, error) {
	if !inTurnOf(r.Context(), in) {
		return nil, ErrNotInFetch
	}
	if !websocket.IsWebSocketUpgrade(r) {
		return nil, fmt.Errorf("accept websocket: request is not a WebSocket upgrade")
	}
	rt := in.rt
	rt.mu.Lock()
	draining := rt.state != stateOpen
	rt.mu.Unlock()
	if draining {
		// Nothing was accepted: the front door replays the upgrade on a
		// replica that takes the object over.
		protocol.WriteRetry(w)
		return nil, fmt.Errorf("accept websocket: %w", ErrDraining)
	}
	conn, err := upgrader.Upgrade(w, r, nil)
	if err != nil {
		return nil, fmt.Errorf("accept websocket: %w", err)
	}
	conn.SetReadLimit(rt.cfg.MaxWebSocketMessage)
	s := &socket{in: in, ws: worker.NewWebSocket(conn, tags), conn: conn, done: make(chan struct{})}
	// The gate of the storage open when a message is sent: a hibernated
	// object's storage is closed, and reopened when it wakes.
	s.ws.SetOutputGate(func() error {
		g := in.gate.Load()
		if g == nil {
			return nil
		}
		ctx, cancel := context.WithTimeout(rt.ctx, commitTimeout)
		defer cancel()
		return g.Confirm(ctx)
	})
	rt.mu.Lock()
	if in.gone || rt.state == stateClosed {
		rt.mu.Unlock()
		conn.Close()
		return nil, fmt.Errorf("accept websocket: %w", ErrObjectStopped)
	}
	in.sockets = append(in.sockets, s)
	rt.wg.Add(1)
	rt.mu.Unlock()
	rt.stats.webSocketsAccepted.Add(1)
	go rt.readLoop(s)
	return s.ws, nil
}

// WebSockets implements worker.ObjectHost.
func (in *instance) WebSockets(tag string) []*worker.WebSocket {
	in.rt.mu.Lock()
	defer in.rt.mu.Unlock()
	var out []*worker.WebSocket
	for _, s := range in.sockets {
		if tag == "" || s.ws.HasTag(tag) {
			out = append(out, s.ws)
		}
	}
	return out
}

// BlockConcurrencyWhile implements worker.ObjectHost.
func (in *instance) BlockConcurrencyWhile(ctx context.Context, fn func(context.Context) error) error {
	if in.constructing.Load() {
		in.initFns = append(in.initFns, fn)
		return nil
	}
	if c, _ := ctx.Value(turnKey{}).(*turnChain); c != nil && c.in == in && c.holding() {
		// Inside one of the object's events: it holds the turn, and keeps
		// it (the gate stays closed) until fn returns.
		c.block()
		defer c.unblock()
		return fn(ctx)
	}
	if !in.rt.enterExisting(in) {
		return ErrObjectStopped
	}
	err := in.runEvent(ctx, false, func(ctx context.Context, _ *instance) error { return fn(ctx) })
	if errors.Is(err, errGone) {
		return ErrObjectStopped
	}
	return err
}

// SetWebSocketAutoResponse implements worker.ObjectHost.
func (in *instance) SetWebSocketAutoResponse(request, response string) {
	in.rt.mu.Lock()
	defer in.rt.mu.Unlock()
	in.autoRequest, in.autoResponse = request, response
}

// autoRespond reports the response to a text message data, if the object
// set one for it.
func (in *instance) autoRespond(data []byte) (string, bool) {
	in.rt.mu.Lock()
	defer in.rt.mu.Unlock()
	if in.autoRequest == "" || string(data) != in.autoRequest {
		return "", false
	}
	return in.autoResponse, true
}
