package objects

import (
	"crypto/rand"
	"fmt"

	"github.com/dwk/fleet/appliance/fleet/objectid"
	"github.com/dwk/fleet/appliance/worker"
)

// namespace is one binding of an object class.
type namespace struct {
	rt      *Runtime
	binding string
	class   string
}

var _ worker.ObjectNamespace = (*namespace)(nil)

// IDFromName implements worker.ObjectNamespace.
func (n *namespace) IDFromName(name string) worker.ObjectID {
	return worker.NewObjectID(n.class, name, objectid.FromName(n.rt.cfg.Secret, n.class, name))
}

// NewUniqueID implements worker.ObjectNamespace.
func (n *namespace) NewUniqueID() worker.ObjectID {
	raw, err := objectid.New(n.rt.cfg.Secret, n.class, rand.Reader)
	if err != nil {
		// crypto/rand does not fail on supported platforms (Go 1.24+).
		panic(fmt.Sprintf("objects: new unique id: %v", err))
	}
	return worker.NewObjectID(n.class, "", raw)
}

// IDFromString implements worker.ObjectNamespace.
func (n *namespace) IDFromString(s string) (worker.ObjectID, error) {
	raw, err := objectid.Parse(n.rt.cfg.Secret, n.class, s)
	if err != nil {
		return worker.ObjectID{}, fmt.Errorf("%w: %w", worker.ErrInvalidObjectID, err)
	}
	return worker.NewObjectID(n.class, "", raw), nil
}

// Get implements worker.ObjectNamespace. A stub for an id that is not of
// this namespace fails every call with worker.ErrInvalidObjectID.
func (n *namespace) Get(id worker.ObjectID) worker.Stub {
	s := &stub{rt: n.rt, id: id}
	if id.Namespace() != n.class || !objectid.Valid(n.rt.cfg.Secret, n.class, id.Bytes()) {
		s.err = fmt.Errorf("binding %q: %w: %s is not an id of class %q", n.binding, worker.ErrInvalidObjectID, id, n.class)
	}
	return s
}
