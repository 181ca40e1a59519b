package dwkaffinity

import (
	"errors"
	"fmt"
	"net/http"
	"slices"

	"github.com/caddyserver/caddy/v2"
	"github.com/caddyserver/caddy/v2/caddyconfig/caddyfile"
	"github.com/caddyserver/caddy/v2/modules/caddyhttp/reverseproxy"

	"github.com/dwk/fleet/appliance/fleet/objectid"
	"github.com/dwk/fleet/caddy/internal/affinity"
	"github.com/dwk/fleet/caddy/internal/fleetview"
)

func init() {
	caddy.RegisterModule(new(Policy))
}

// Placeholders Select sets.
const (
	PlaceholderObjectID        = "http.reverse_proxy.dwk.object_id"
	PlaceholderObjectNamespace = "http.reverse_proxy.dwk.object_namespace"
	PlaceholderSelectedBy      = "http.reverse_proxy.dwk.selected_by"
)

// Values of PlaceholderSelectedBy.
const (
	ByLease     = "lease"
	ByPlacement = "placement"
	ByLeastConn = "least_conn"
)

// errConfig wraps every configuration problem.
var errConfig = errors.New("dwk selection policy")

// Rule finds the object a request addresses; see affinity.Rule.
type Rule = affinity.Rule

// Policy is the dwk selection policy. Its exported fields are its JSON
// configuration.
type Policy struct {
	// Secret is the fleet secret (fleet.secret in dwk.json) object ids are
	// derived with; placeholders are expanded, so it is usually
	// "{env.DWK_FLEET_SECRET}". Required.
	Secret string `json:"secret,omitempty"`
	// Rules find the object a request addresses; the first that matches
	// wins. Default: none (every request is balanced by least
	// connections).
	Rules []Rule `json:"rules,omitempty"`

	secret  []byte
	matcher *affinity.Matcher
	ids     *ids
}

var (
	_ caddy.Module          = (*Policy)(nil)
	_ caddy.Provisioner     = (*Policy)(nil)
	_ caddy.Validator       = (*Policy)(nil)
	_ reverseproxy.Selector = (*Policy)(nil)
	_ caddyfile.Unmarshaler = (*Policy)(nil)
)

// CaddyModule returns the Caddy module information.
func (*Policy) CaddyModule() caddy.ModuleInfo {
	return caddy.ModuleInfo{
		ID:  "http.reverse_proxy.selection_policies.dwk",
		New: func() caddy.Module { return new(Policy) },
	}
}

// Provision expands the secret's placeholders and compiles the rules.
func (p *Policy) Provision(caddy.Context) error {
	secret, err := caddy.NewReplacer().ReplaceOrErr(p.Secret, false, true)
	if err != nil {
		return fmt.Errorf("%w: secret: %w", errConfig, err)
	}
	if secret == "" {
		return fmt.Errorf("%w: secret is required (it expanded to nothing)", errConfig)
	}
	p.secret = []byte(secret)
	p.ids = &ids{}
	if p.matcher, err = affinity.Compile(p.Rules); err != nil {
		return fmt.Errorf("%w: %w", errConfig, err)
	}
	return nil
}

// Validate checks the configuration.
func (p *Policy) Validate() error {
	if p.Secret == "" {
		return fmt.Errorf("%w: secret is required", errConfig)
	}
	if _, err := affinity.Compile(p.Rules); err != nil {
		return fmt.Errorf("%w: %w", errConfig, err)
	}
	return nil
}

// Select returns the upstream for r: the object's lease holder or
// placement choice for object requests, the least loaded upstream for the
// rest; nil when no upstream is available.
func (p *Policy) Select(pool reverseproxy.UpstreamPool, r *http.Request, _ http.ResponseWriter) *reverseproxy.Upstream {
	s := stateFor(r)
	t := &s.tried
	target := p.Target(r)
	var (
		up        *reverseproxy.Upstream
		by        string
		objID, ns string
	)
	if target.IsObject() {
		objID, ns = target.IDString(), target.Namespace
		up, by = p.selectObject(pool, r, target.Namespace, target.ID, t)
	}
	if up == nil {
		up, by = leastConn(pool, t), ByLeastConn
	}
	if up != nil {
		t.add(up.Dial)
	}
	if repl, ok := r.Context().Value(caddy.ReplacerCtxKey).(*caddy.Replacer); ok {
		repl.Set(PlaceholderObjectID, objID)
		repl.Set(PlaceholderObjectNamespace, ns)
		repl.Set(PlaceholderSelectedBy, by)
	}
	return up
}

// selectObject returns the lease holder of the object, else its placement
// choice, among the usable upstreams; nil when none is usable.
func (p *Policy) selectObject(pool reverseproxy.UpstreamPool, r *http.Request, ns string, id objectid.ID, t *tried) (*reverseproxy.Upstream, string) {
	view := fleetview.From(r)
	if view != nil && view.Leases != nil {
		if holder, ok := view.Leases.Holder(r.Context(), ns, id); ok && holder != "" {
			if dial, ok := view.Members.DialOf(holder); ok {
				if up := find(pool, dial, t); up != nil {
					return up, ByLease
				}
			}
		}
	}
	if up := place(pool, view, id, t); up != nil {
		return up, ByPlacement
	}
	return nil, ""
}

// place returns the upstream objectid.Pick chooses for id among the usable
// upstreams, ranking each by its member id (its dial address without a
// view).
func place(pool reverseproxy.UpstreamPool, view *fleetview.View, id objectid.ID, t *tried) *reverseproxy.Upstream {
	names := make([]string, 0, len(pool))
	ups := make([]*reverseproxy.Upstream, 0, len(pool))
	for _, skipTried := range []bool{true, false} {
		names, ups = names[:0], ups[:0]
		for _, up := range pool {
			if !usable(up, t, skipTried) {
				continue
			}
			name := up.Dial
			if view != nil {
				var ok bool
				if name, ok = view.Members.IDOf(up.Dial); !ok {
					continue
				}
			}
			names, ups = append(names, name), append(ups, up)
		}
		if len(names) > 0 {
			return ups[slices.Index(names, objectid.Pick(id, names))]
		}
		if t.empty() {
			break
		}
	}
	return nil
}

// find returns the usable upstream dialled at dial, or nil.
func find(pool reverseproxy.UpstreamPool, dial string, t *tried) *reverseproxy.Upstream {
	for _, up := range pool {
		if up.Dial == dial && usable(up, t, true) {
			return up
		}
	}
	return nil
}

// usable reports whether up may be chosen: available and, if skipTried,
// not tried yet for this request.
func usable(up *reverseproxy.Upstream, t *tried, skipTried bool) bool {
	return up != nil && up.Available() && !(skipTried && t.has(up.Dial))
}
