package dwkaffinity

import (
	"context"
	"net/http"

	"github.com/caddyserver/caddy/v2/modules/caddyhttp"

	"github.com/dwk/fleet/appliance/fleet/objectid"
	"github.com/dwk/fleet/caddy/internal/fleetview"
)

// stateVar is the request variable holding the policy's per-request state:
// the object the request addresses (resolved once) and the upstreams
// tried so far.
const stateVar = "dwk.affinity"

// Target is the object a request addresses, as the policy's rules find it.
type Target struct {
	// Namespace is the object class; "" when the request addresses no
	// object.
	Namespace string
	// ID is the object's id (objectid.FromName with the fleet secret).
	ID objectid.ID

	entry *idEntry // the policy's cache entry of ID; nil in a Target built by hand
}

// IsObject reports whether the request addresses an object.
func (t Target) IsObject() bool { return t.Namespace != "" }

// IDString is ID as text (objectid.ID.String), computed once per object
// the policy remembers.
func (t Target) IDString() string {
	if t.entry != nil {
		return t.entry.text
	}
	return t.ID.String()
}

// reqState is the policy's state for one request. The reverse proxy and
// the dwk_direct handler call into it from the request's goroutine only.
type reqState struct {
	resolved bool
	target   Target
	tried    tried
}

// stateFor returns r's state, creating it on first use. A request that
// Caddy did not prepare (no request variables) gets a fresh state every
// time.
func stateFor(r *http.Request) *reqState {
	if s, ok := caddyhttp.GetVar(r.Context(), stateVar).(*reqState); ok {
		return s
	}
	s := &reqState{}
	caddyhttp.SetVar(r.Context(), stateVar, s)
	return s
}

// Target returns the object r addresses; it is computed once per request,
// whoever asks first, and object ids are cached.
func (p *Policy) Target(r *http.Request) Target {
	if _, prepared := r.Context().Value(caddyhttp.VarsCtxKey).(map[string]any); !prepared {
		return p.resolve(r)
	}
	s := stateFor(r)
	if !s.resolved {
		s.resolved = true
		s.target = p.resolve(r)
	}
	return s.target
}

// resolve finds the object r addresses.
func (p *Policy) resolve(r *http.Request) Target {
	if obj, ok := p.matcher.Match(r); ok {
		e := p.ids.get(p.secret, obj.Namespace, obj.Name)
		return Target{Namespace: obj.Namespace, ID: e.id, entry: e}
	}
	return Target{}
}

// MemberFor returns the member id requests for the object go to: the
// lease holder when view lists it as ready, else the placement choice
// (objectid.Pick over the ready members' ids, remembered per member
// snapshot); "" when view lists no member. It ignores passive health and
// tried upstreams: the caller falls back to the reverse proxy when that
// member cannot be reached.
func MemberFor(ctx context.Context, view *fleetview.View, t Target) (member, by string) {
	if view == nil || view.Members.Len() == 0 {
		return "", ""
	}
	if view.Leases != nil {
		if holder, ok := view.Leases.Holder(ctx, t.Namespace, t.ID); ok && holder != "" {
			if _, listed := view.Members.DialOf(holder); listed {
				return holder, ByLease
			}
		}
	}
	if t.entry != nil {
		return t.entry.pick(view.Members), ByPlacement
	}
	return objectid.Pick(t.ID, view.Members.IDs()), ByPlacement
}

// MarkTried records that the upstream dialled at dial was tried for r, so
// that the policy picks another one for r's next attempt.
func MarkTried(r *http.Request, dial string) { stateFor(r).tried.add(dial) }
