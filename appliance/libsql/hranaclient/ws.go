package hranaclient

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/gorilla/websocket"

	"github.com/dwk/fleet/appliance/libsql/hrana"
)

// WSLimit bounds how many WSStreams hold a connection (and so a stream on
// the server, which the server counts against its stream limit) at once.
type WSLimit struct{ slots chan struct{} }

// NewWSLimit returns a limit of n connections.
func NewWSLimit(n int) *WSLimit { return &WSLimit{slots: make(chan struct{}, n)} }

// InUse is how many connections hold a slot now.
func (l *WSLimit) InUse() int { return len(l.slots) }

func (l *WSLimit) acquire() bool {
	select {
	case l.slots <- struct{}{}:
		return true
	default:
		return false
	}
}

func (l *WSLimit) release() { <-l.slots }

// wsRetryAfter is how long a WSStream sends over HTTP after it could not
// connect.
const wsRetryAfter = time.Second

// WSStream sends batches to the client's namespace over one Hrana stream
// on a WebSocket connection of its own. A caller that sends batch after
// batch (an object's commits) saves the HTTP exchange each pipeline
// request costs. The connection opens in the background on first use
// (that batch, and any sent before the connection is open, go over HTTP,
// which a pooled connection answers in one round trip) and closes after
// an error or when idle; while it cannot open (the limit is reached, the
// server refuses, a dial fails) batches go over HTTP, with the same
// results and errors. Batches are sent one at a time.
type WSStream struct {
	c     *Client
	idle  time.Duration
	limit *WSLimit

	mu        sync.Mutex
	conn      *wsConn
	nextID    int32
	lastUse   time.Time
	idleTimer *time.Timer // set once, by WSStream
	opening   bool        // a connection is being opened in the background
	httpOnly  bool        // the server does not speak Hrana over WebSocket
	retryAt   time.Time   // no dial before this
	closed    bool
}

// WSStream returns a stream that closes its connection after idle without
// a batch, holding one of limit's connections while open.
func (c *Client) WSStream(idle time.Duration, limit *WSLimit) *WSStream {
	s := &WSStream{c: c, idle: idle, limit: limit}
	s.idleTimer = time.AfterFunc(time.Hour, s.closeIfIdle)
	s.idleTimer.Stop()
	return s
}

// Batch runs steps as Client.Batch does, in one round trip.
func (s *WSStream) Batch(ctx context.Context, steps []hrana.BatchStep) (hrana.BatchResult, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.conn != nil && s.conn.isDead() {
		// The server closed it while it was idle; nothing was sent.
		s.closeLocked()
	}
	if s.conn == nil {
		s.openInBackgroundLocked()
		return s.c.Batch(ctx, steps)
	}
	if s.c.timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, s.c.timeout)
		defer cancel()
	}
	s.nextID++
	id, stream := s.nextID, int32(1)
	msg := hrana.ClientMsg{Type: "request", RequestID: &id, Request: &hrana.WSRequest{
		Type: hrana.TypeBatch, StreamID: &stream, Batch: &hrana.Batch{Steps: nonNilSteps(steps)},
	}}
	s.c.countRoundTrip(ctx)
	resp, sent, err := s.exchangeLocked(ctx, msg, id)
	if err != nil {
		s.closeLocked()
		return hrana.BatchResult{}, &TransportError{Op: "batch", URL: s.url(), Sent: sent, Err: err}
	}
	s.lastUse = time.Now()
	if resp.Error != nil {
		return hrana.BatchResult{}, resultError("batch", resp.Error)
	}
	if resp.Response == nil {
		return hrana.BatchResult{}, errMalformed("batch", "response without a result")
	}
	return batchResult("batch", hrana.StreamResult{Response: &resp.Response.StreamResponse}, len(steps))
}

// Close closes the connection; later batches go over HTTP.
func (s *WSStream) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.closed = true
	s.idleTimer.Stop()
	s.closeLocked()
	return nil
}

// openInBackgroundLocked starts connecting, unless that is under way or
// not to be tried now; the connection serves the batches after it is
// open. The dial, hello and open_stream are bounded by the client's dial
// timeout.
func (s *WSStream) openInBackgroundLocked() {
	if s.opening || s.closed || s.httpOnly || time.Now().Before(s.retryAt) || !s.limit.acquire() {
		return
	}
	s.opening = true
	// hello and open_stream go together: one round trip, counted with the
	// batch that starts it.
	s.c.countRoundTrip(context.Background())
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), s.c.dialTimeout())
		defer cancel()
		conn, status, err := s.open(ctx)
		s.mu.Lock()
		defer s.mu.Unlock()
		s.opening = false
		switch {
		case err != nil:
			s.limit.release()
			if errors.Is(err, websocket.ErrBadHandshake) && status < 500 && status != http.StatusTooManyRequests {
				s.httpOnly = true // refused for good: no WebSocket here, or the request is wrong
			} else {
				s.retryAt = time.Now().Add(wsRetryAfter)
			}
		case s.closed || s.conn != nil:
			conn.close()
			s.limit.release()
		default:
			s.conn, s.nextID = conn, 1
			s.lastUse = time.Now()
			s.idleTimer.Reset(s.idle)
		}
	}()
}

// open connects, says hello and opens stream 1 (request 1). status is
// the server's answer to a refused upgrade.
func (s *WSStream) open(ctx context.Context) (*wsConn, int, error) {
	ws, status, err := s.dial(ctx)
	if err != nil {
		return nil, status, err
	}
	conn := newWSConn(ws)
	hello := hrana.ClientMsg{Type: "hello"}
	if s.c.token != "" {
		hello.JWT = &s.c.token
	}
	id, stream := int32(1), int32(1)
	open := hrana.ClientMsg{Type: "request", RequestID: &id, Request: &hrana.WSRequest{Type: hrana.TypeOpenStream, StreamID: &stream}}
	err = conn.write(ctx, hello)
	if err == nil {
		err = conn.write(ctx, open)
	}
	if err == nil {
		_, err = conn.read(ctx, "hello_ok")
	}
	if err == nil {
		var resp hrana.ServerMsg
		if resp, err = conn.response(ctx, id); err == nil && resp.Error != nil {
			err = resultError("open stream", resp.Error)
		}
	}
	if err != nil {
		conn.close()
		return nil, 0, err
	}
	return conn, 0, nil
}

// dial opens the WebSocket to the client's base URL, naming the namespace
// as HTTP requests do. status is the server's answer to a refused upgrade.
func (s *WSStream) dial(ctx context.Context) (conn *websocket.Conn, status int, err error) {
	d := websocket.Dialer{Subprotocols: []string{"hrana3", "hrana2"}, Proxy: http.ProxyFromEnvironment}
	// A copy: Clone waits for the transport's one-time setup, which
	// changes its TLS settings at its first request, maybe running now
	// (it offers HTTP/2, which a WebSocket dial must not).
	sh := s.c.shared
	sh.wsTransportOnce.Do(func() {
		if t, ok := s.c.hc.Transport.(*http.Transport); ok {
			sh.wsTransport = t.Clone()
			if tc := sh.wsTransport.TLSClientConfig; tc != nil {
				tc.NextProtos = nil
			}
		}
	})
	if t := sh.wsTransport; t != nil {
		d.TLSClientConfig = t.TLSClientConfig
		d.NetDialContext = t.DialContext
	}
	h := http.Header{}
	if s.c.namespace != "" {
		h.Set("x-namespace", s.c.namespace)
	}
	conn, resp, err := d.DialContext(ctx, s.url(), h)
	if resp != nil {
		status = resp.StatusCode
		if resp.Body != nil {
			resp.Body.Close()
		}
	}
	return conn, status, err
}

// url is the WebSocket form of the base URL.
func (s *WSStream) url() string {
	if rest, ok := strings.CutPrefix(s.c.base, "https://"); ok {
		return "wss://" + rest + "/"
	}
	return "ws://" + strings.TrimPrefix(s.c.base, "http://") + "/"
}

// exchangeLocked sends a request on the open connection and reads its
// response; sent reports whether the request may have reached the
// server.
func (s *WSStream) exchangeLocked(ctx context.Context, msg hrana.ClientMsg, id int32) (resp hrana.ServerMsg, sent bool, err error) {
	if err := s.conn.write(ctx, msg); err != nil {
		return resp, true, err
	}
	resp, err = s.conn.response(ctx, id)
	return resp, true, err
}

// response reads the response to request id.
func (c *wsConn) response(ctx context.Context, id int32) (hrana.ServerMsg, error) {
	resp, err := c.read(ctx, "")
	switch {
	case err != nil:
		return resp, err
	case resp.Type != "response_ok" && resp.Type != "response_error":
		return resp, fmt.Errorf("unexpected %q message", resp.Type)
	case resp.RequestID != id:
		return resp, fmt.Errorf("response to request %d, want %d", resp.RequestID, id)
	}
	return resp, nil
}

// write sends one message, within ctx.
func (c *wsConn) write(ctx context.Context, msg hrana.ClientMsg) error {
	nc := c.ws.NetConn()
	deadline, _ := ctx.Deadline()
	nc.SetWriteDeadline(deadline)
	stop := context.AfterFunc(ctx, func() { nc.SetWriteDeadline(time.Unix(1, 0)) })
	defer stop()
	return c.ws.WriteJSON(msg)
}

// read waits for the next server message read by readLoop; want, when set, is the only
// type accepted (hello_error is reported as the error it carries).
func (c *wsConn) read(ctx context.Context, want string) (hrana.ServerMsg, error) {
	var data []byte
	select {
	case data = <-c.msgs:
	case <-c.dead:
		return hrana.ServerMsg{}, c.err
	case <-ctx.Done():
		return hrana.ServerMsg{}, context.Cause(ctx)
	}
	var msg hrana.ServerMsg
	if err := msg.UnmarshalJSON(data); err != nil {
		return msg, fmt.Errorf("malformed message: %w", err)
	}
	if msg.Type == "hello_error" && msg.Error != nil {
		return msg, resultError("hello", msg.Error)
	}
	if want != "" && msg.Type != want {
		return msg, fmt.Errorf("unexpected %q message, want %q", msg.Type, want)
	}
	return msg, nil
}

// closeLocked closes the connection, if open, and gives back its slot.
func (s *WSStream) closeLocked() {
	if s.conn == nil {
		return
	}
	s.conn.close()
	s.conn = nil
	s.limit.release()
}

// wsConn is an open connection and the goroutine reading it, which hands
// on each message and notices at once when the server closes it.
type wsConn struct {
	ws     *websocket.Conn
	msgs   chan []byte
	dead   chan struct{} // closed when reading stops; err says why
	err    error
	closed chan struct{} // closed by close
}

func newWSConn(ws *websocket.Conn) *wsConn {
	c := &wsConn{ws: ws, msgs: make(chan []byte), dead: make(chan struct{}), closed: make(chan struct{})}
	go c.readLoop()
	return c
}

// readLoop reads the connection until it fails or closes.
func (c *wsConn) readLoop() {
	defer close(c.dead)
	for {
		_, data, err := c.ws.ReadMessage()
		if err != nil {
			c.err = fmt.Errorf("connection closed: %w", err)
			return
		}
		select {
		case c.msgs <- data:
		case <-c.closed:
			c.err = errors.New("connection closed")
			return
		}
	}
}

// close closes the connection, which ends the reading goroutine.
func (c *wsConn) close() {
	close(c.closed)
	c.ws.Close()
}

func (c *wsConn) isDead() bool {
	select {
	case <-c.dead:
		return true
	default:
		return false
	}
}

// closeIfIdle closes a connection unused for the idle time, and otherwise
// looks again when it would be.
func (s *WSStream) closeIfIdle() {
	if !s.mu.TryLock() {
		s.idleTimer.Reset(s.idle) // in use
		return
	}
	defer s.mu.Unlock()
	if s.conn == nil {
		return
	}
	if left := s.idle - time.Since(s.lastUse); left > 0 {
		s.idleTimer.Reset(left)
		return
	}
	s.closeLocked()
}
