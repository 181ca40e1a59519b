package libsql

import (
	"context"
	"encoding/json"
	"errors"
	"sync"
	"time"

	"github.com/gorilla/websocket"

	"github.com/dwk/fleet/appliance/libsql/hrana"
)

// Per-connection limits.
const (
	// wsMaxInflight bounds the requests a connection may have outstanding;
	// beyond it the server stops reading, which pushes back on the client.
	wsMaxInflight = 128
	// wsMaxStoredSQLs bounds store_sql texts per connection, as in sqld.
	wsMaxStoredSQLs = 150
	// wsWriteTimeout bounds writing one message to a slow client.
	wsWriteTimeout = 30 * time.Second
)

// wsConn is one Hrana-over-WebSocket connection. The goroutine running
// serve reads messages and owns the session state (who, sqls, streams,
// cursors); each stream has a worker goroutine that runs its requests in
// order; a writer goroutine sends responses.
type wsConn struct {
	srv     *Server
	ws      *websocket.Conn
	ns      *namespace
	version hrana.Version

	ctx    context.Context
	cancel context.CancelFunc
	out    chan wsOut
	wg     sync.WaitGroup // workers and writer

	// inflight holds a token per outstanding request.
	inflight chan struct{}
	// writerDone is closed when the writer has exited.
	writerDone chan struct{}

	// Session state, owned by the reader.
	who     *principal
	sqls    map[int32]string
	streams map[int32]*wsStream
	cursors map[int32]int32 // cursor id -> stream id

	closeOnce sync.Once
}

func newWSConn(s *Server, ws *websocket.Conn, ns *namespace, v hrana.Version) *wsConn {
	ctx, cancel := context.WithCancel(s.ctx)
	return &wsConn{
		srv: s, ws: ws, ns: ns, version: v,
		ctx: ctx, cancel: cancel,
		out:        make(chan wsOut, 64),
		inflight:   make(chan struct{}, wsMaxInflight),
		writerDone: make(chan struct{}),
		sqls:       map[int32]string{},
		streams:    map[int32]*wsStream{},
		cursors:    map[int32]int32{},
	}
}

// serve runs the connection until the client leaves, a protocol error
// occurs or the server shuts down; it then stops every stream (rolling
// back their transactions) and waits for its goroutines.
func (c *wsConn) serve() {
	c.wg.Add(1)
	go c.writer()
	err := c.readLoop()
	var pe *hrana.ProtocolError
	var fe *frameError
	switch {
	case errors.Is(err, errHelloFailed):
		// The writer sends hello_error and then the close frame; further
		// client messages are ignored, as the specification asks.
		select {
		case <-c.writerDone:
		case <-c.ctx.Done():
		}
		c.drain()
	case errors.As(err, &fe):
		c.shutdown(fe.code, truncateReason(fe.reason))
		c.drain()
	case errors.As(err, &pe):
		c.shutdown(websocket.ClosePolicyViolation, truncateReason(pe.Message))
		c.drain()
	}
	c.cancel() // workers close their streams and exit
	c.wg.Wait()
	c.ws.Close()
}

// closeWait bounds the closing handshake: how long the server keeps
// reading for the client's close frame after sending its own.
const closeWait = time.Second

// shutdown starts the closing handshake (once): it sends a close frame,
// stops the connection's work and limits further reading to closeWait. It
// may be called from any goroutine.
func (c *wsConn) shutdown(code int, reason string) {
	c.closeOnce.Do(func() {
		deadline := time.Now().Add(closeWait)
		c.ws.WriteControl(websocket.CloseMessage, websocket.FormatCloseMessage(code, reason), deadline)
		c.ws.SetReadDeadline(deadline)
		c.cancel()
	})
}

// drain discards client messages until the client's close frame arrives
// or the read deadline passes. Closing a socket with unread data would
// reset it, and the client would lose the last messages and close frame.
func (c *wsConn) drain() {
	for {
		if _, _, err := c.ws.NextReader(); err != nil {
			return
		}
	}
}

// frameError is a protocol violation at the frame level, which closes
// the connection with its own code (sqld: 1003 for binary frames, 1007 for
// invalid JSON); other protocol errors close with 1008.
type frameError struct {
	code   int
	reason string
}

func (e *frameError) Error() string { return e.reason }

// truncateReason keeps a close reason within the 123 bytes a frame allows.
func truncateReason(s string) string {
	if len(s) > 120 {
		return s[:120]
	}
	return s
}

// wsOut is a message for the writer; a non-zero closeCode makes the
// writer close the connection after writing data.
type wsOut struct {
	data        []byte
	closeCode   int
	closeReason string
}

// writer sends queued messages until the connection ends.
func (c *wsConn) writer() {
	defer c.wg.Done()
	defer close(c.writerDone)
	for {
		select {
		case <-c.ctx.Done():
			return
		case msg := <-c.out:
			c.ws.SetWriteDeadline(time.Now().Add(wsWriteTimeout))
			if err := c.ws.WriteMessage(websocket.TextMessage, msg.data); err != nil {
				c.cancel()
				c.ws.Close()
				return
			}
			if msg.closeCode != 0 {
				c.shutdown(msg.closeCode, msg.closeReason)
				return
			}
		}
	}
}

// send queues a server message.
func (c *wsConn) send(m hrana.ServerMsg) { c.enqueue(m, 0, "") }

// enqueue queues a server message, optionally closing the connection after
// it is written.
func (c *wsConn) enqueue(m hrana.ServerMsg, closeCode int, closeReason string) {
	data, err := json.Marshal(m)
	if err != nil {
		e := &hrana.Error{Code: hrana.CodeInternal, Message: "Internal Error: encode response: " + err.Error()}
		data, _ = json.Marshal(hrana.ServerMsg{Type: "response_error", RequestID: m.RequestID, Error: e})
	}
	select {
	case c.out <- wsOut{data: data, closeCode: closeCode, closeReason: closeReason}:
	case <-c.ctx.Done():
	}
}

// respond sends the outcome of request id and frees its in-flight token.
func (c *wsConn) respond(id int32, resp *hrana.WSResponse, err error) {
	defer func() { <-c.inflight }()
	if err == nil {
		c.send(hrana.ServerMsg{Type: "response_ok", RequestID: id, Response: resp})
		return
	}
	he := asHranaError(err)
	if he.Code == hrana.CodeInternal {
		c.srv.log.Error("libsql WebSocket request failed", "namespace", c.ns.name, "err", err)
	}
	c.send(hrana.ServerMsg{Type: "response_error", RequestID: id, Error: he})
}

// readLoop reads and dispatches client messages. It returns the protocol
// error that ends the connection, or the read error when the client left.
func (c *wsConn) readLoop() error {
	for {
		typ, data, err := c.ws.ReadMessage()
		if err != nil {
			return err
		}
		if typ != websocket.TextMessage {
			return &frameError{websocket.CloseUnsupportedData, "Received a binary WebSocket message, which is not supported in this encoding"}
		}
		var msg hrana.ClientMsg
		if err := json.Unmarshal(data, &msg); err != nil {
			return &frameError{websocket.CloseInvalidFramePayloadData, "Cannot deserialize client message from JSON: " + err.Error()}
		}
		if err := msg.Validate(c.version); err != nil {
			return err
		}
		if msg.Type == "hello" {
			if err := c.hello(msg.JWT); err != nil {
				return err
			}
			continue
		}
		if c.who == nil {
			return hrana.Protocolf("Received a request before hello message")
		}
		select {
		case c.inflight <- struct{}{}:
		case <-c.ctx.Done():
			return c.ctx.Err()
		}
		if err := c.dispatch(*msg.RequestID, msg.Request); err != nil {
			return err
		}
	}
}

// errHelloFailed ends the read loop after a rejected hello.
var errHelloFailed = errors.New("hello failed")

// hello authenticates the connection. A failed hello answers hello_error,
// after which the writer closes the connection.
func (c *wsConn) hello(jwt *string) error {
	if c.who != nil && c.version < hrana.V2 {
		return hrana.Protocolf("Repeated hello message is only supported in protocol version hrana2 and higher")
	}
	_, keys := c.ns.config()
	who, herr := c.srv.auth.authenticateJWT(jwt, keys)
	if herr != nil {
		// The writer closes the connection once hello_error is out; the read
		// loop then ends with a read error.
		c.enqueue(hrana.ServerMsg{Type: "hello_error", Error: &hrana.Error{Code: herr.Code, Message: "Authentication failed: " + herr.Message}},
			websocket.ClosePolicyViolation, "authentication failed")
		return errHelloFailed
	}
	c.who = who
	c.send(hrana.ServerMsg{Type: "hello_ok"})
	return nil
}
