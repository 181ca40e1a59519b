package worker

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
)

// WebSocket hibernation, as in Cloudflare's Hibernation API: an object
// whose only activity is open WebSockets may leave memory while its
// sockets stay open at the replica. The next message (or close, or any
// other event) constructs it again, with its sockets, their tags and their
// serialized attachments where they were. Its storage is durable as ever;
// what it kept only in Go memory is gone, so a class opts in.

// Hibernatable is implemented by object classes that may hibernate: the
// host drops an instance whose only activity is open WebSockets once it
// has been idle for the runtime's idle timeout, and constructs it again
// for its next event. Hibernatable is asked each time.
type Hibernatable interface {
	Object
	Hibernatable() bool
}

// WebSocketErrorHandler is implemented by objects that want to know when
// an accepted WebSocket fails with an error other than a close (a broken
// connection, a message over the size limit). The host calls it in the
// object's turn instead of WebSocketClose.
type WebSocketErrorHandler interface {
	WebSocketError(ctx context.Context, ws *WebSocket, err error)
}

// MaxAttachmentSize caps a serialized attachment, as in Cloudflare.
const MaxAttachmentSize = 2048

// ErrAttachmentTooLarge is returned by SerializeAttachment.
var ErrAttachmentTooLarge = errors.New("websocket: attachment over 2048 bytes")

// SerializeAttachment keeps v, JSON-encoded (at most 2048 bytes), with the
// socket: unlike SetAttachment's value it survives hibernation. nil
// removes it.
func (ws *WebSocket) SerializeAttachment(v any) error {
	if v == nil {
		ws.mu.Lock()
		ws.serialized = nil
		ws.mu.Unlock()
		return nil
	}
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("websocket: serialize attachment: %w", err)
	}
	if len(b) > MaxAttachmentSize {
		return fmt.Errorf("%w: %d bytes", ErrAttachmentTooLarge, len(b))
	}
	ws.mu.Lock()
	ws.serialized = b
	ws.mu.Unlock()
	return nil
}

// DeserializeAttachment decodes the attachment SerializeAttachment kept
// into v. It reports false when there is none.
func (ws *WebSocket) DeserializeAttachment(v any) (bool, error) {
	ws.mu.Lock()
	b := ws.serialized
	ws.mu.Unlock()
	if b == nil {
		return false, nil
	}
	if err := json.Unmarshal(b, v); err != nil {
		return true, fmt.Errorf("websocket: deserialize attachment: %w", err)
	}
	return true, nil
}

// SetWebSocketAutoResponse makes the host answer a text message equal to
// request with response on any of the object's sockets, without an event:
// a hibernated object stays asleep for pings. Empty request turns it off.
func (s *State) SetWebSocketAutoResponse(request, response string) {
	s.host.SetWebSocketAutoResponse(request, response)
}
