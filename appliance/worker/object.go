package worker

import (
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"net/http"
)

// Object is an instance of an object class. Its events run one at a time,
// except that while an event of a Gated class (the default) awaits a call
// that leaves the object, other events may run: see Concurrency for the
// input and output gates.
type Object interface {
	// Fetch handles a request sent to the object through a Stub. To accept a
	// WebSocket, call State.AcceptWebSocket.
	Fetch(w http.ResponseWriter, r *http.Request)
}

// Disposer is implemented by objects that hold something Go's collector
// cannot free on its own (an instance in a JavaScript isolate, say). The
// host calls Dispose once it has dropped the instance from memory
// (hibernation, idle eviction, a lost lease, a drain), after its last
// event; the instance gets no event afterwards.
type Disposer interface {
	Dispose()
}

// ObjectNamespace is an object namespace binding: one object class, many
// objects addressed by ObjectID.
type ObjectNamespace interface {
	// IDFromName returns the id for name. It is deterministic: the same
	// fleet secret, namespace and name always give the same id.
	IDFromName(name string) ObjectID
	// NewUniqueID returns a random id that no other object has.
	NewUniqueID() ObjectID
	// IDFromString parses the 64-hex-digit form of an id. It fails with
	// ErrInvalidObjectID for malformed input and for ids of another namespace.
	IDFromString(s string) (ObjectID, error)
	// Get returns a stub for the object; it does not start the object.
	Get(id ObjectID) Stub
}

// Stub sends requests to one object, wherever in the fleet it runs.
type Stub interface {
	// ID is the object this stub addresses.
	ID() ObjectID
	// Fetch sends req to the object and returns its response. The caller
	// closes the response body.
	Fetch(ctx context.Context, req *http.Request) (*http.Response, error)
	// ServeHTTP passes a live request to the object, WebSocket upgrades
	// included: the object's response (or WebSocket) goes straight to w.
	ServeHTTP(w http.ResponseWriter, r *http.Request)
}

// ObjectIDSize is the size of an object id in bytes.
const ObjectIDSize = 32

// ErrInvalidObjectID is returned for an id that is malformed or belongs to
// another namespace.
var ErrInvalidObjectID = errors.New("invalid object id")

// ObjectID addresses one object. The zero value is not a valid id.
type ObjectID struct {
	namespace string
	name      string
	raw       [ObjectIDSize]byte
}

// NewObjectID builds an id. Hosts call it; applications get ids from an
// ObjectNamespace. name is empty for ids not made by IDFromName.
func NewObjectID(namespace, name string, raw [ObjectIDSize]byte) ObjectID {
	return ObjectID{namespace: namespace, name: name, raw: raw}
}

// String is the id as 64 lowercase hex digits.
func (id ObjectID) String() string { return hex.EncodeToString(id.raw[:]) }

// ParseObjectID is the id of namespace whose String is hexID, with an
// empty name. It does not check the id's tag (see package objectid).
func ParseObjectID(namespace, hexID string) (ObjectID, error) {
	var raw [ObjectIDSize]byte
	if n, err := hex.Decode(raw[:], []byte(hexID)); err != nil || n != len(raw) || len(hexID) != 2*len(raw) {
		return ObjectID{}, fmt.Errorf("%w: %q is not %d hex digits", ErrInvalidObjectID, hexID, 2*ObjectIDSize)
	}
	return NewObjectID(namespace, "", raw), nil
}

// Namespace is the object namespace (object class binding) the id belongs to.
func (id ObjectID) Namespace() string { return id.namespace }

// Name is the name the id was derived from, or "" if it was not made by
// IDFromName.
func (id ObjectID) Name() string { return id.name }

// Bytes is the raw id.
func (id ObjectID) Bytes() [ObjectIDSize]byte { return id.raw }

// Equal reports whether two ids address the same object.
func (id ObjectID) Equal(o ObjectID) bool { return id.namespace == o.namespace && id.raw == o.raw }

// IsZero reports whether id is the zero value.
func (id ObjectID) IsZero() bool { return id.raw == [ObjectIDSize]byte{} }

type unboundObjects struct{ err error }

var _ ObjectNamespace = unboundObjects{}

func (u unboundObjects) IDFromName(string) ObjectID { return ObjectID{} }
func (u unboundObjects) NewUniqueID() ObjectID      { return ObjectID{} }
func (u unboundObjects) IDFromString(string) (ObjectID, error) {
	return ObjectID{}, u.err
}
func (u unboundObjects) Get(id ObjectID) Stub { return unboundStub{id: id, err: u.err} }

type unboundStub struct {
	id  ObjectID
	err error
}

func (s unboundStub) ID() ObjectID { return s.id }
func (s unboundStub) Fetch(context.Context, *http.Request) (*http.Response, error) {
	return nil, s.err
}
func (s unboundStub) ServeHTTP(w http.ResponseWriter, _ *http.Request) {
	http.Error(w, fmt.Sprint(s.err), http.StatusInternalServerError)
}
