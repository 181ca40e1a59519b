package dwkdirect

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/caddyserver/caddy/v2"
	"github.com/caddyserver/caddy/v2/modules/caddyhttp"
	"github.com/caddyserver/caddy/v2/modules/caddyhttp/reverseproxy"
	"go.uber.org/zap"

	"github.com/dwk/fleet/appliance/fleet/peerlink"
	"github.com/dwk/fleet/appliance/fleet/peermux"
	"github.com/dwk/fleet/caddy/dwkaffinity"
	"github.com/dwk/fleet/caddy/dwktransport"
	"github.com/dwk/fleet/caddy/dwkupstreams"
	"github.com/dwk/fleet/caddy/internal/fleetview"
)

func init() { caddy.RegisterModule(new(Direct)) }

// Defaults of Direct.
const (
	DefaultDialTimeout      = 2 * time.Second
	DefaultHandshakeTimeout = 10 * time.Second
	DefaultReplayBody       = 1 << 20
)

// Passive health of forwards, as the reverse proxy's defaults: a member
// whose dial failed MaxFails times within FailDuration is left to the
// reverse proxy until they expire.
const (
	DefaultFailDuration = 2 * time.Second
	DefaultMaxFails     = 2
)

// errConfig wraps every configuration problem.
var errConfig = errors.New("dwk_direct")

// Direct is the dwk_direct handler. Its exported fields are its JSON
// configuration.
type Direct struct {
	// ProxyRaw is the wrapped reverse_proxy handler. It must use the dwk
	// upstream source and the dwk selection policy. Required.
	ProxyRaw json.RawMessage `json:"proxy,omitempty" caddy:"namespace=http.handlers inline_key=handler"`
	// Member is this replica's member id (fleet.member). Required.
	Member string `json:"member,omitempty"`
	// App names the in-process handler (see Register). Default: none;
	// requests for this member then go through the reverse proxy.
	App string `json:"app,omitempty"`
	// DialTimeout bounds dialing a member for a WebSocket tunnel.
	// Default: 2s.
	DialTimeout caddy.Duration `json:"dial_timeout,omitempty"`
	// HandshakeTimeout bounds a member's answer to a WebSocket upgrade.
	// Default: 10s.
	HandshakeTimeout caddy.Duration `json:"handshake_timeout,omitempty"`
	// ResponseTimeout bounds a member's answer (its response headers) to
	// a forwarded request; the client then gets a 504. Default: 10s (the
	// front door renders forward.timeout).
	ResponseTimeout caddy.Duration `json:"response_timeout,omitempty"`
	// FailDuration and MaxFails: a member whose dial failed MaxFails
	// times within FailDuration is not forwarded to (the reverse proxy,
	// with its own passive health checks, takes its requests) until the
	// failures expire. Defaults: 2s, 2.
	FailDuration caddy.Duration `json:"fail_duration,omitempty"`
	MaxFails     int            `json:"max_fails,omitempty"`
	// ReplayBody is how many bytes of a request body served in process
	// or forwarded are kept, so that the request can be replayed on
	// another member after a retry answer. Default: 1 MiB. Negative: none.
	ReplayBody int64 `json:"replay_body,omitempty"`

	proxy     *reverseproxy.Handler
	source    viewSource
	policy    *dwkaffinity.Policy
	app       *App
	tunnels   *tunnels
	link      *peerlink.Link    // the peer link, when the proxy uses the dwk transport
	streams   *peermux.Pool     // tunnels' sessions to the members, over link when set
	transport http.RoundTripper // to the members, over link when set
	fails     *fails
	log       *zap.Logger
}

// viewSource is what the handler reads the fleet from: the dwk upstream
// source. View must be cheap (it runs for every request) and returns nil
// before the first member listing.
type viewSource interface {
	View() *fleetview.View
}

var (
	_ viewSource                  = (*dwkupstreams.Upstreams)(nil)
	_ caddy.Module                = (*Direct)(nil)
	_ caddy.Provisioner           = (*Direct)(nil)
	_ caddy.CleanerUpper          = (*Direct)(nil)
	_ caddyhttp.MiddlewareHandler = (*Direct)(nil)
)

// CaddyModule returns the Caddy module information.
func (*Direct) CaddyModule() caddy.ModuleInfo {
	return caddy.ModuleInfo{ID: "http.handlers.dwk_direct", New: func() caddy.Module { return new(Direct) }}
}

// Provision loads the wrapped reverse proxy and the in-process app.
func (d *Direct) Provision(ctx caddy.Context) error {
	d.log = ctx.Logger()
	if d.Member == "" {
		return fmt.Errorf("%w: member is required", errConfig)
	}
	if d.ProxyRaw == nil {
		return fmt.Errorf("%w: proxy (a reverse_proxy handler) is required", errConfig)
	}
	mod, err := ctx.LoadModule(d, "ProxyRaw")
	if err != nil {
		return fmt.Errorf("%w: proxy: %w", errConfig, err)
	}
	var ok bool
	if d.proxy, ok = mod.(*reverseproxy.Handler); !ok {
		return fmt.Errorf("%w: proxy is %T, not a reverse_proxy handler", errConfig, mod)
	}
	src, ok := d.proxy.DynamicUpstreams.(*dwkupstreams.Upstreams)
	if !ok {
		return fmt.Errorf("%w: proxy must use the dwk upstream source", errConfig)
	}
	d.source = src
	if lb := d.proxy.LoadBalancing; lb != nil {
		d.policy, _ = lb.SelectionPolicy.(*dwkaffinity.Policy)
	}
	if d.policy == nil {
		return fmt.Errorf("%w: proxy must use the dwk selection policy", errConfig)
	}
	if t, ok := d.proxy.Transport.(*dwktransport.Transport); ok {
		d.link = t.Link()
		d.streams = d.link.Streams()
	}
	if d.App != "" {
		if d.app, ok = lookup(d.App); !ok {
			return fmt.Errorf("%w: no in-process app %q is registered (dwkdirect.Register)", errConfig, d.App)
		}
		d.app.direct.Store(d)
	}
	if d.DialTimeout <= 0 {
		d.DialTimeout = caddy.Duration(DefaultDialTimeout)
	}
	if d.HandshakeTimeout <= 0 {
		d.HandshakeTimeout = caddy.Duration(DefaultHandshakeTimeout)
	}
	if d.ResponseTimeout <= 0 {
		d.ResponseTimeout = caddy.Duration(DefaultResponseTimeout)
	}
	if d.ReplayBody == 0 {
		d.ReplayBody = DefaultReplayBody
	}
	d.transport = newTransport(time.Duration(d.DialTimeout), time.Duration(d.ResponseTimeout), d.link)
	if d.FailDuration <= 0 {
		d.FailDuration = caddy.Duration(DefaultFailDuration)
	}
	if d.MaxFails <= 0 {
		d.MaxFails = DefaultMaxFails
	}
	d.fails = &fails{window: time.Duration(d.FailDuration), max: d.MaxFails}
	d.tunnels = newTunnels(d.log)
	return nil
}

// Cleanup closes the open tunnels, each with a close frame 1012 to its
// client. The wrapped proxy is cleaned up by Caddy.
func (d *Direct) Cleanup() error {
	if d.app != nil {
		d.app.direct.CompareAndSwap(d, nil)
	}
	if d.tunnels != nil {
		d.tunnels.shutdown()
	}
	if d.streams != nil {
		d.streams.Close()
	}
	if c, ok := d.transport.(interface{ CloseIdleConnections() }); ok {
		c.CloseIdleConnections()
	}
	return nil
}

// ServeHTTP serves r in process, through a spliced tunnel or with one
// forward when it can, else hands it to the wrapped reverse proxy.
func (d *Direct) ServeHTTP(w http.ResponseWriter, r *http.Request, next caddyhttp.Handler) error {
	d.app.closeAfter(w, r)
	viaProxy := func(w http.ResponseWriter, r *http.Request, tried string) error {
		dwkaffinity.MarkTried(r, tried)
		return d.proxy.ServeHTTP(w, r, next)
	}
	if tried, ok := r.Context().Value(triedKey{}).(string); ok {
		// Served before Caddy (App.Handler), where the member it went to
		// answered with a retry or could not be reached.
		return viaProxy(w, r, tried)
	}
	if handled, err := d.serve(w, r, viaProxy); handled {
		return err
	}
	return d.proxy.ServeHTTP(w, r, next)
}

// serve serves r without the reverse proxy when it can: in process when
// this member is the one to serve it, through a tunnel for a WebSocket to
// an object on another member, else with one forward to the object's
// member. retry replays r through the reverse proxy, skipping the member
// dialled at tried. It reports false, having written nothing, when r
// should go to the reverse proxy as it is.
func (d *Direct) serve(w http.ResponseWriter, r *http.Request, retry func(http.ResponseWriter, *http.Request, string) error) (bool, error) {
	view := d.source.View()
	if view == nil {
		return false, nil
	}
	selfDial, selfReady := view.Members.DialOf(d.Member)
	t := d.policy.Target(r)
	member := ""
	switch {
	case t.IsObject():
		member, _ = dwkaffinity.MemberFor(r.Context(), view, t)
	case selfReady:
		member = d.Member
	}
	if member == "" {
		return false, nil
	}
	if member == d.Member {
		if !selfReady || d.app == nil {
			return false, nil
		}
		if d.serveLocal(w, r, t) {
			return true, retry(w, r, selfDial)
		}
		return true, nil
	}
	dial, ok := view.Members.DialOf(member)
	if !ok || d.fails.down(dial) {
		return false, nil
	}
	if isWebSocketUpgrade(r) {
		return d.tunnel(w, r, member, dial, t), nil
	}
	if _, upgrade := r.Header["Upgrade"]; upgrade || r.ProtoMajor != 1 {
		return false, nil
	}
	var watch watchFunc
	if t.IsObject() && view.Lapses != nil {
		watch = func(ctx context.Context, lapsed func()) {
			view.Lapses.Watch(ctx, t.Namespace, t.ID, member, lapsed)
		}
	}
	return true, d.forward(w, r, member, dial, t, watch, retry)
}
