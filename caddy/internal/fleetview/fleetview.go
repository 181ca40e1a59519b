// Package fleetview is what the dwk upstream source hands the dwk selection
// policy with every request: the ready members the upstream list was built
// from (so the policy can rank them by member id, exactly as object
// placement does) and the lease lookups.
//
// The two modules never see each other: Caddy gives a selection policy only
// the upstream pool and the request. The upstream source therefore attaches
// a *View to the request (as a request variable) in GetUpstreams, which the
// reverse proxy calls right before every Select, and the policy reads it
// back with From.
package fleetview

import (
	"context"
	"net/http"
	"slices"
	"strings"
	"sync/atomic"

	"github.com/caddyserver/caddy/v2/modules/caddyhttp"

	"github.com/dwk/fleet/appliance/fleet/objectid"
)

// varKey is the request variable holding the *View. Variables show up as
// {http.vars.*} placeholders; this one is not meant to be used that way.
const varKey = "dwk.fleet_view"

// Member is a ready member the proxy may send requests to.
type Member struct {
	// ID is the member id (config fleet.member), the string object
	// placement ranks with objectid.Pick.
	ID string
	// Dial is the upstream address the proxy dials for this member.
	Dial string
}

// Snapshot is the ready members at one moment, sorted by id. It is
// immutable once built.
type Snapshot struct {
	members []Member
	ids     []string
	byDial  map[string]string
	byID    map[string]string
}

// NewSnapshot returns the snapshot of members. Members with an empty id or
// dial address are left out; of two members with the same id the first
// wins.
func NewSnapshot(members []Member) *Snapshot {
	s := &Snapshot{
		members: make([]Member, 0, len(members)),
		byDial:  make(map[string]string, len(members)),
		byID:    make(map[string]string, len(members)),
	}
	for _, m := range members {
		if m.ID == "" || m.Dial == "" {
			continue
		}
		if _, dup := s.byID[m.ID]; dup {
			continue
		}
		s.byID[m.ID] = m.Dial
		s.byDial[m.Dial] = m.ID
		s.members = append(s.members, m)
	}
	slices.SortFunc(s.members, func(a, b Member) int { return strings.Compare(a.ID, b.ID) })
	s.ids = make([]string, len(s.members))
	for i, m := range s.members {
		s.ids[i] = m.ID
	}
	return s
}

// Members returns the members sorted by id. Callers must not modify it.
func (s *Snapshot) Members() []Member { return s.members }

// IDs returns the member ids, sorted. Callers must not modify it.
func (s *Snapshot) IDs() []string { return s.ids }

// Len is the number of members.
func (s *Snapshot) Len() int { return len(s.members) }

// IDOf returns the id of the member dialled at dial.
func (s *Snapshot) IDOf(dial string) (string, bool) {
	id, ok := s.byDial[dial]
	return id, ok
}

// DialOf returns the dial address of member id.
func (s *Snapshot) DialOf(id string) (string, bool) {
	d, ok := s.byID[id]
	return d, ok
}

// Leases tells who holds an object's lease.
type Leases interface {
	// Holder returns the id of the member holding the lease of object id
	// in namespace, or "" when no replica holds it. ok is false when the
	// answer is unknown (the lookup failed or took too long); callers then
	// fall back to placement. Answers come from a short-lived cache; a miss
	// costs at most one round trip, bounded by the implementation's
	// timeout and by ctx.
	Holder(ctx context.Context, namespace string, id objectid.ID) (holder string, ok bool)
}

// Lapses watches the member a request for an object was forwarded to.
type Lapses interface {
	// Watch calls lapsed, once, from another goroutine, when member
	// stops holding the object, or will never take it (see
	// appliance/fleet/lapse). Watching ends when ctx ends.
	Watch(ctx context.Context, namespace string, id objectid.ID, member string, lapsed func())
}

// View is the fleet as one request sees it.
type View struct {
	// Members is the snapshot the request's upstream list was built from.
	Members *Snapshot
	// Leases looks up lease holders; nil when the source has none.
	Leases Leases
	// Lapses watches forwards; nil when the source has none.
	Lapses Lapses
}

// Attach makes v the view of r. It does nothing when r was not prepared by
// Caddy's HTTP server (no request variables).
//
// Caddy's request variables are a plain map that the proxy's transport
// reads from its dialing goroutines, which may still run while a retry asks
// for upstreams again. So the variable is set once per request, to a holder
// whose view is replaced atomically on later attempts.
func Attach(r *http.Request, v *View) {
	if h, ok := caddyhttp.GetVar(r.Context(), varKey).(*viewHolder); ok {
		h.v.Store(v)
		return
	}
	h := &viewHolder{}
	h.v.Store(v)
	caddyhttp.SetVar(r.Context(), varKey, h)
}

// viewHolder is the request variable Attach sets.
type viewHolder struct{ v atomic.Pointer[View] }

// From returns the view attached to r, or nil.
func From(r *http.Request) *View {
	h, _ := caddyhttp.GetVar(r.Context(), varKey).(*viewHolder)
	if h == nil {
		return nil
	}
	return h.v.Load()
}
