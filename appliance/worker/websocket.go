package worker

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/gorilla/websocket"
)

// WebSocketMessageHandler is implemented by objects that receive messages on
// the WebSockets they accepted. The host calls it in the object's turn, one
// message at a time, in the order each socket received them.
type WebSocketMessageHandler interface {
	WebSocketMessage(ctx context.Context, ws *WebSocket, messageType int, data []byte)
}

// WebSocketCloseHandler is implemented by objects that want to know when an
// accepted WebSocket ends. The host calls it in the object's turn once per
// socket: with the close code the peer sent (1005 if it sent none, 1006 if
// the connection broke and the object has no WebSocketError), or, when the
// host closes the socket because the object is stopping (drain, lost
// lease, failed commit), with the code it sends (1012) before it does.
type WebSocketCloseHandler interface {
	WebSocketClose(ctx context.Context, ws *WebSocket, code int, reason string)
}

// Message types of Send and WebSocketMessage.
const (
	TextMessage   = websocket.TextMessage
	BinaryMessage = websocket.BinaryMessage
)

// Close codes the host uses.
const (
	// CloseServiceRestart (1012) is sent to every socket when the replica
	// drains: clients should reconnect.
	CloseServiceRestart = websocket.CloseServiceRestart
)

// Limits on WebSocket tags, as in Cloudflare.
const (
	MaxWebSocketTags      = 10
	MaxWebSocketTagLength = 256
)

// WebSocket errors.
var (
	ErrWebSocketClosed = errors.New("websocket: closed")
	ErrWebSocketTags   = errors.New("websocket: at most 10 tags of 1 to 256 bytes")
)

// WebSocketWriteTimeout bounds one Send or Close: a client that does not read
// cannot hold the object's turn longer than this.
const WebSocketWriteTimeout = 10 * time.Second

// closeGrace is how long Close waits for the peer's closing handshake before
// the host drops the connection.
const closeGrace = 5 * time.Second

// WebSocket is a server-side WebSocket accepted by an object. Send and Close
// are safe for concurrent use.
type WebSocket struct {
	conn *websocket.Conn
	tags []string

	mu         sync.Mutex // serialises writes; guards closed and attachments
	closed     bool
	attachment any
	serialized []byte // SerializeAttachment's JSON
	gate       func() error
}

// SetOutputGate is called by the object runtime: Send runs gate first and
// sends nothing when it fails (central mode commits the object's writes
// before a message that may reflect them leaves).
func (ws *WebSocket) SetOutputGate(gate func() error) {
	ws.mu.Lock()
	ws.gate = gate
	ws.mu.Unlock()
}

// NewWebSocket is called by the object runtime to wrap an upgraded
// connection. The runtime keeps reading from conn; the WebSocket only
// writes.
func NewWebSocket(conn *websocket.Conn, tags []string) *WebSocket {
	return &WebSocket{conn: conn, tags: append([]string(nil), tags...)}
}

// CheckWebSocketTags validates tags for AcceptWebSocket.
func CheckWebSocketTags(tags []string) error {
	if len(tags) > MaxWebSocketTags {
		return fmt.Errorf("%w: got %d tags", ErrWebSocketTags, len(tags))
	}
	for _, t := range tags {
		if len(t) == 0 || len(t) > MaxWebSocketTagLength {
			return fmt.Errorf("%w: tag %q", ErrWebSocketTags, t)
		}
	}
	return nil
}

// Tags are the tags given to AcceptWebSocket.
func (ws *WebSocket) Tags() []string { return append([]string(nil), ws.tags...) }

// HasTag reports whether the socket carries tag.
func (ws *WebSocket) HasTag(tag string) bool {
	for _, t := range ws.tags {
		if t == tag {
			return true
		}
	}
	return false
}

// Send writes one message (TextMessage or BinaryMessage). It fails with
// ErrWebSocketClosed after Close.
func (ws *WebSocket) Send(messageType int, data []byte) error {
	ws.mu.Lock()
	gate := ws.gate
	ws.mu.Unlock()
	if gate != nil {
		if err := gate(); err != nil {
			return fmt.Errorf("websocket send: %w", err)
		}
	}
	ws.mu.Lock()
	defer ws.mu.Unlock()
	if ws.closed {
		return ErrWebSocketClosed
	}
	if err := ws.conn.SetWriteDeadline(time.Now().Add(WebSocketWriteTimeout)); err != nil {
		return fmt.Errorf("websocket send: %w", err)
	}
	if err := ws.conn.WriteMessage(messageType, data); err != nil {
		return fmt.Errorf("websocket send: %w", err)
	}
	return nil
}

// AutoRespond writes data as a text message with no output gate: the host
// answers an auto-response request (State.SetWebSocketAutoResponse) with
// it, outside any event, and it reflects no write of the object.
func (ws *WebSocket) AutoRespond(data []byte) error {
	ws.mu.Lock()
	defer ws.mu.Unlock()
	if ws.closed {
		return ErrWebSocketClosed
	}
	if err := ws.conn.SetWriteDeadline(time.Now().Add(WebSocketWriteTimeout)); err != nil {
		return err
	}
	return ws.conn.WriteMessage(websocket.TextMessage, data)
}

// Close starts the closing handshake with code and reason (at most 123
// bytes). The connection ends when the peer answers, or after a few seconds
// if it does not. Closing twice is not an error.
func (ws *WebSocket) Close(code int, reason string) error {
	ws.mu.Lock()
	defer ws.mu.Unlock()
	if ws.closed {
		return nil
	}
	ws.closed = true
	msg := websocket.FormatCloseMessage(code, reason)
	err := ws.conn.WriteControl(websocket.CloseMessage, msg, time.Now().Add(WebSocketWriteTimeout))
	// The host's read loop sees the peer's close frame, or this deadline.
	ws.conn.SetReadDeadline(time.Now().Add(closeGrace))
	if err != nil && !errors.Is(err, websocket.ErrCloseSent) {
		return fmt.Errorf("websocket close: %w", err)
	}
	return nil
}

// Closed reports whether Close was called.
func (ws *WebSocket) Closed() bool {
	ws.mu.Lock()
	defer ws.mu.Unlock()
	return ws.closed
}

// SetAttachment keeps a value with the socket for the object's own use (for
// example the user it belongs to). It lives in the instance's memory: a
// hibernating object loses it (use SerializeAttachment).
func (ws *WebSocket) SetAttachment(v any) {
	ws.mu.Lock()
	defer ws.mu.Unlock()
	ws.attachment = v
}

// Attachment returns the value given to SetAttachment, or nil.
func (ws *WebSocket) Attachment() any {
	ws.mu.Lock()
	defer ws.mu.Unlock()
	return ws.attachment
}

// MarkClosed is called by the host when the connection has ended, so that
// later Sends fail fast with ErrWebSocketClosed.
func (ws *WebSocket) MarkClosed() {
	ws.mu.Lock()
	defer ws.mu.Unlock()
	ws.closed = true
}
