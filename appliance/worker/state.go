package worker

import (
	"context"
	"net/http"
)

// State is an object's view of itself: its id, its storage, its WebSockets,
// and a way to hold off other events. The object runtime builds it with
// NewState and passes it to the object class constructor.
type State struct {
	// ID is the object's id. Its Name is set only when the instance was
	// started by a stub made from IDFromName.
	ID ObjectID
	// Storage is the object's durable storage.
	Storage *Storage

	host ObjectHost
}

// ObjectHost is what the object runtime provides behind a State for the
// parts that are not storage.
type ObjectHost interface {
	// AcceptWebSocket upgrades the live request r (received by the object's
	// Fetch) to a WebSocket attached to the object: its messages and close
	// are delivered to the object's handlers in its turn. tags are already
	// validated.
	AcceptWebSocket(w http.ResponseWriter, r *http.Request, tags []string) (*WebSocket, error)
	// WebSockets lists the object's open sockets that carry tag ("" = all).
	WebSockets(tag string) []*WebSocket
	// BlockConcurrencyWhile runs fn with no other event of the object
	// running; see State.BlockConcurrencyWhile.
	BlockConcurrencyWhile(ctx context.Context, fn func(ctx context.Context) error) error
	// SetWebSocketAutoResponse answers request with response on the
	// object's sockets without an event; see State.SetWebSocketAutoResponse.
	SetWebSocketAutoResponse(request, response string)
}

// NewState is called by the object runtime to build an object's State.
func NewState(id ObjectID, storage *Storage, host ObjectHost) *State {
	return &State{ID: id, Storage: storage, host: host}
}

// AcceptWebSocket upgrades the request the object is handling in Fetch to a
// WebSocket and attaches it to the object, with up to 10 tags for
// GetWebSockets. Later messages arrive at WebSocketMessage and the end of the
// socket at WebSocketClose, in the object's turn; Fetch should return soon
// after accepting. The request must have come through Stub.ServeHTTP (Stub.
// Fetch cannot carry an upgrade). Origin is not checked: check
// r.Header.Get("Origin") before accepting if the object needs to.
func (s *State) AcceptWebSocket(w http.ResponseWriter, r *http.Request, tags ...string) (*WebSocket, error) {
	if err := CheckWebSocketTags(tags); err != nil {
		return nil, err
	}
	return s.host.AcceptWebSocket(w, r, tags)
}

// GetWebSockets returns the object's open WebSockets that carry tag, or all
// of them for "".
func (s *State) GetWebSockets(tag string) []*WebSocket { return s.host.WebSockets(tag) }

// BlockConcurrencyWhile runs fn while no other event of the object runs:
// the input gate stays closed until fn returns, even while fn awaits a call
// (see Concurrency). A call back into the object from inside fn fails with
// a call-cycle error rather than waiting forever.
//
// Called from the object class constructor, fn is queued and runs before the
// object's first event (the constructor must not block); if it fails, the
// instance is discarded and the event fails. Called from one of the object's
// handlers (with that handler's ctx), fn simply runs, since the handler
// already holds the object's turn. Called from any other goroutine, it waits
// for the object's turn, runs fn, and returns fn's error.
func (s *State) BlockConcurrencyWhile(ctx context.Context, fn func(ctx context.Context) error) error {
	return s.host.BlockConcurrencyWhile(ctx, fn)
}
