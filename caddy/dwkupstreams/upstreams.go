package dwkupstreams

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/caddyserver/caddy/v2"
	"github.com/caddyserver/caddy/v2/caddyconfig/caddyfile"
	"github.com/caddyserver/caddy/v2/modules/caddyhttp/reverseproxy"

	"github.com/dwk/fleet/appliance/fleet/membership"
	"github.com/dwk/fleet/appliance/fleet/namespaces"
	"github.com/dwk/fleet/caddy/internal/fleetview"
	"github.com/dwk/fleet/caddy/internal/leasecache"
)

func init() {
	caddy.RegisterModule(new(Upstreams))
}

// Defaults.
const (
	DefaultRefresh       = 500 * time.Millisecond
	DefaultTimeout       = 2 * time.Second
	DefaultLeaseCacheTTL = leasecache.DefaultTTL
	DefaultLeaseTimeout  = leasecache.DefaultTimeout
	// MinRefresh is the shortest refresh interval Validate accepts.
	MinRefresh = 10 * time.Millisecond
	// cleanupTimeout bounds Cleanup.
	cleanupTimeout = 10 * time.Second
)

// Address choices.
const (
	AddressInternal = "internal"
	AddressPublic   = "public"
)

// Errors.
var (
	// ErrNoListing: no listing of the members has succeeded yet.
	ErrNoListing = errors.New("dwk upstreams: no member listing yet")
	// errConfig wraps every configuration problem.
	errConfig = errors.New("dwk upstreams")
)

// Upstreams is the dwk upstream source. Its exported fields are its JSON
// configuration; placeholders (such as {env.DWK_LIBSQL_TOKEN}) are
// expanded in url, auth_token, fleet and namespace.
type Upstreams struct {
	// URL of the libSQL server (Hrana over HTTP) that holds the fleet's
	// coordination database: http(s)://, ws(s):// or libsql://. Required.
	URL string `json:"url,omitempty"`
	// AuthToken is the JWT sent to URL, usually a placeholder like
	// "{env.DWK_LIBSQL_TOKEN}". Default: none.
	AuthToken string `json:"auth_token,omitempty"`
	// CAFile is a PEM CA that an https:// or wss:// URL's certificate
	// must chain to (storage.libsql.ca_file). Default: the system's roots.
	CAFile string `json:"ca_file,omitempty"`
	// Fleet is the fleet's name, which names its coordination database.
	// Required unless namespace is set.
	Fleet string `json:"fleet,omitempty"`
	// Namespace is the coordination database (sqld namespace). Default:
	// the fleet's conventional one, "dwk-coord-<fleet>".
	Namespace string `json:"namespace,omitempty"`
	// Address is the member address the proxy dials: "internal" (the app
	// server, listen.advertise) or "public" (the member's own front door).
	// Default: "internal".
	Address string `json:"address,omitempty"`
	// Refresh is the interval between listings of the members, at least
	// 10ms. A member that starts draining leaves rotation within Refresh
	// plus one round trip. Default: 500ms.
	Refresh caddy.Duration `json:"refresh,omitempty"`
	// Timeout bounds each round trip to libSQL. Default: 2s.
	Timeout caddy.Duration `json:"timeout,omitempty"`
	// LeaseCacheTTL is how long a lease holder looked up for the dwk
	// selection policy is used before it is re-read (in the background,
	// batched): the lifetime of the lease-holder cache, not of a lease.
	// Formerly lease_ttl. Default: 1s.
	LeaseCacheTTL caddy.Duration `json:"lease_cache_ttl,omitempty"`
	// LeaseTimeout bounds the lookup of a lease that is not cached, which
	// the request waits for; past it the request is routed by placement.
	// Default: 250ms.
	LeaseTimeout caddy.Duration `json:"lease_timeout,omitempty"`

	log     *slog.Logger
	closers []func(context.Context) error // run by Cleanup, in reverse
	members *membership.View
	leases  *leasecache.Cache
	lapses  fleetview.Lapses // nil when the lease lookup cannot read uncached
	built   atomic.Pointer[built]
	kick    chan struct{}
	cancel  context.CancelFunc // ends the refresh loop
	wg      sync.WaitGroup
}

var (
	_ caddy.Module                       = (*Upstreams)(nil)
	_ caddy.Provisioner                  = (*Upstreams)(nil)
	_ caddy.Validator                    = (*Upstreams)(nil)
	_ caddy.CleanerUpper                 = (*Upstreams)(nil)
	_ reverseproxy.UpstreamSource        = (*Upstreams)(nil)
	_ reverseproxy.CachingUpstreamSource = (*Upstreams)(nil)
	_ caddyfile.Unmarshaler              = (*Upstreams)(nil)
)

// CaddyModule returns the Caddy module information.
func (*Upstreams) CaddyModule() caddy.ModuleInfo {
	return caddy.ModuleInfo{
		ID:  "http.reverse_proxy.upstreams.dwk",
		New: func() caddy.Module { return new(Upstreams) },
	}
}

// built is the upstream list of one generation of the ready set.
type built struct {
	gen   uint64
	dials []string
	view  *fleetview.View
}

// GetUpstreams returns the ready members as upstreams, from memory, and
// attaches the fleet view to r for the dwk selection policy. The list is
// sorted by member id and changes only when the ready set does. It fails
// with ErrNoListing until the first listing succeeded.
func (u *Upstreams) GetUpstreams(r *http.Request) ([]*reverseproxy.Upstream, error) {
	b := u.current()
	if b == nil {
		return nil, ErrNoListing
	}
	// The proxy fills in each Upstream's state per request, so every call
	// needs upstreams of its own.
	ups := make([]*reverseproxy.Upstream, len(b.dials))
	for i, d := range b.dials {
		ups[i] = &reverseproxy.Upstream{Dial: d}
	}
	fleetview.Attach(r, b.view)
	return ups, nil
}

// View returns the fleet as the source sees it now (the ready members and
// the lease lookups), or nil before the first listing. The dwk_direct
// handler reads it to decide before the reverse proxy runs.
func (u *Upstreams) View() *fleetview.View {
	if b := u.current(); b != nil {
		return b.view
	}
	return nil
}

// ResetCache asks for an early listing: the reverse proxy calls it before
// retrying a failed request, which may have met a member that has just
// begun to drain. It does not wait for the listing.
func (u *Upstreams) ResetCache(*http.Request) error {
	select {
	case u.kick <- struct{}{}:
	default:
	}
	return nil
}

// current returns the upstream list of the current ready set, rebuilding
// it when the set changed; nil before the first listing.
func (u *Upstreams) current() *built {
	// Generation first: a Ready read after it is at least as new, so a
	// list is never cached under a newer generation than its own.
	gen := u.members.Generation()
	if gen == 0 {
		return nil
	}
	if b := u.built.Load(); b != nil && b.gen == gen {
		return b
	}
	ready := u.members.Ready()
	ms := make([]fleetview.Member, 0, len(ready))
	for _, m := range ready {
		ms = append(ms, fleetview.Member{ID: m.ID, Dial: u.dialOf(m)})
	}
	snap := fleetview.NewSnapshot(ms)
	b := &built{gen: gen, view: &fleetview.View{Members: snap, Leases: leaseHolders{u.leases}, Lapses: u.lapses}}
	for _, m := range snap.Members() {
		b.dials = append(b.dials, m.Dial)
	}
	u.built.Store(b)
	return b
}

// dialOf is the address the proxy dials for m.
func (u *Upstreams) dialOf(m membership.Member) string {
	if u.Address == AddressPublic {
		return m.Public
	}
	return m.Internal
}

// namespace is the coordination database's namespace.
func (u *Upstreams) namespace() string {
	if u.Namespace != "" {
		return u.Namespace
	}
	return namespaces.Coord(u.Fleet)
}

// Validate checks the configuration.
func (u *Upstreams) Validate() error {
	var errs []error
	if u.URL == "" {
		errs = append(errs, errors.New("url is required"))
	}
	if u.Fleet == "" && u.Namespace == "" {
		errs = append(errs, errors.New("fleet (or namespace) is required"))
	}
	switch u.Address {
	case "", AddressInternal, AddressPublic:
	default:
		errs = append(errs, fmt.Errorf("address must be %q or %q, not %q", AddressInternal, AddressPublic, u.Address))
	}
	if r := time.Duration(u.Refresh); r != 0 && r < MinRefresh {
		errs = append(errs, fmt.Errorf("refresh %s is shorter than %s", r, MinRefresh))
	}
	for _, d := range []struct {
		name string
		d    caddy.Duration
	}{{"timeout", u.Timeout}, {"lease_cache_ttl", u.LeaseCacheTTL}, {"lease_timeout", u.LeaseTimeout}} {
		if d.d < 0 {
			errs = append(errs, fmt.Errorf("%s %s is negative", d.name, time.Duration(d.d)))
		}
	}
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("%w: %w", errConfig, err)
	}
	return nil
}
