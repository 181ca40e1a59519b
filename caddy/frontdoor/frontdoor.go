package frontdoor

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"log/slog"
	"net"
	"net/http"
	"sync"
	"time"

	"github.com/caddyserver/caddy/v2"
	"github.com/caddyserver/caddy/v2/modules/caddyhttp"

	// The Caddy modules the rendered config uses.
	_ "github.com/caddyserver/caddy/v2/modules/caddyhttp/headers"
	_ "github.com/caddyserver/caddy/v2/modules/caddyhttp/reverseproxy"
	_ "github.com/caddyserver/caddy/v2/modules/caddytls"
	_ "github.com/caddyserver/caddy/v2/modules/filestorage"
	_ "github.com/dwk/fleet/caddy/modules"

	"github.com/dwk/fleet/appliance/config"
	"github.com/dwk/fleet/caddy/dwkconns"
	"github.com/dwk/fleet/caddy/dwkdirect"
)

// ErrRunning: a front door (or another Caddy config) already runs in this
// process.
var ErrRunning = errors.New("frontdoor: caddy is already running in this process")

// FrontDoor is the running front door. Lifecycle: Start → Stop.
type FrontDoor struct {
	config []byte
	addrs  []net.Addr
	app    *dwkdirect.App // the in-process app, or nil
	// own serves listen.public when the front door owns its listener
	// (plain HTTP with an in-process app): it serves this replica's
	// requests itself and hands the rest to Caddy's server.
	own *http.Server

	mu      sync.Mutex
	stopped bool
}

// Start renders cfg's front door with default options and runs it; see
// StartOptions.
func Start(ctx context.Context, cfg *config.Config) (*FrontDoor, error) {
	return StartOptions(ctx, cfg, Options{})
}

// StartOptions renders cfg's front door with o and runs it in this
// process. It returns once the listener on listen.public is bound and the
// first member listing was tried (bounded by the libSQL timeout); ctx only
// cancels the start before Caddy is loaded. Certificates for automatic
// HTTPS are obtained in the background.
//
// With o.App and plain HTTP, the front door owns listen.public: a Go HTTP
// server there hands this replica's requests to o.App before Caddy sees
// them (Caddy's per-request setup costs more than the app's own handler),
// and the rest to Caddy's server, which then listens on loopback only.
func StartOptions(ctx context.Context, cfg *config.Config, o Options) (*FrontDoor, error) {
	var ln net.Listener
	if o.App != nil && !hasTLS(cfg) {
		var err error
		if ln, err = net.Listen("tcp", cfg.Listen.Public); err != nil {
			return nil, fmt.Errorf("start front door: listen on %s (listen.public): %w", cfg.Listen.Public, err)
		}
		o.caddyListen = "127.0.0.1:0"
	}
	f, err := start(ctx, cfg, o)
	if err != nil {
		if ln != nil {
			ln.Close()
		}
		return nil, err
	}
	if ln != nil {
		f.serveOwn(ln)
	}
	return f, nil
}

// start loads the Caddy config.
func start(ctx context.Context, cfg *config.Config, o Options) (*FrontDoor, error) {
	raw, err := Render(cfg, o)
	if err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("start front door: %w", err)
	}
	if caddy.ActiveContext().Context != nil {
		return nil, ErrRunning
	}
	f := &FrontDoor{config: raw}
	if name := appName(cfg, o); name != "" {
		f.app = dwkdirect.Register(name, o.App)
	}
	if err := caddy.Load(raw, true); err != nil {
		f.unregister()
		return nil, fmt.Errorf("start front door on %s: %w", cfg.Listen.Public, err)
	}
	addrs, err := listenAddrs()
	if err != nil {
		f.stop()
		return nil, err
	}
	f.addrs = addrs
	return f, nil
}

// serveOwn serves ln with the in-process app first, then Caddy's server.
func (f *FrontDoor) serveOwn(ln net.Listener) {
	srv, _ := caddyServer()
	f.own = &http.Server{
		Handler:           f.app.Handler(srv),
		ConnContext:       dwkdirect.ConnContext,
		ReadHeaderTimeout: ownReadHeaderTimeout,
		IdleTimeout:       ownIdleTimeout,
		ErrorLog:          log.New(io.Discard, "", 0),
	}
	f.addrs = []net.Addr{ln.Addr()}
	ln = dwkconns.Wrapper{}.WrapListener(ln)
	go func() {
		if err := f.own.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			slog.Error("front door: listener stopped", "addr", ln.Addr().String(), "err", err)
		}
	}()
}

// Timeouts of the front door's own listener: as Caddy's defaults for its
// servers.
const (
	ownReadHeaderTimeout = time.Minute
	ownIdleTimeout       = 5 * time.Minute
)

// hasTLS reports whether cfg's front door serves HTTPS.
func hasTLS(cfg *config.Config) bool {
	return cfg.Listen.TLS != nil && len(cfg.Listen.TLS.Domains) > 0
}

// caddyServer returns the running front door's Caddy server.
func caddyServer() (*caddyhttp.Server, error) {
	a, err := caddy.ActiveContext().App("http")
	if err != nil {
		return nil, fmt.Errorf("front door: http app: %w", err)
	}
	app, ok := a.(*caddyhttp.App)
	if !ok || app.Servers[ServerName] == nil {
		return nil, fmt.Errorf("front door: server %q not running", ServerName)
	}
	return app.Servers[ServerName], nil
}

// listenAddrs returns the addresses the running front door's server is
// bound to.
func listenAddrs() ([]net.Addr, error) {
	srv, err := caddyServer()
	if err != nil {
		return nil, err
	}
	var out []net.Addr
	for _, ln := range srv.Listeners() {
		out = append(out, ln.Addr())
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("front door: server %q has no listener", ServerName)
	}
	return out, nil
}

// Addr is the address listen.public is bound to (useful with port 0).
func (f *FrontDoor) Addr() net.Addr { return f.addrs[0] }

// Config is the Caddy JSON config the front door runs. It may hold
// secrets that were not given as environment variables.
func (f *FrontDoor) Config() []byte { return f.config }

// Closing makes every answer the front door gives from now on through its
// in-process app's routes (every route but the reserved self paths over
// HTTPS) close its connection after it, so that clients' pooled
// connections close cleanly before Stop: the replica is draining. It does
// nothing for a front door without an in-process app.
func (f *FrontDoor) Closing() {
	if f.app != nil {
		f.app.Closing()
	}
}

// Tunnels is how many WebSockets the front door splices to other
// members now (0 without an in-process app).
func (f *FrontDoor) Tunnels() int {
	if f.app == nil {
		return 0
	}
	return f.app.Tunnels()
}

// Stop stops Caddy: it stops accepting connections, waits up to the grace
// period (drain.timeout) for proxied requests, closes proxied WebSockets
// and stops the dwk modules. It returns early with ctx's error if ctx ends
// first; Caddy then finishes stopping in the background. Stop is
// idempotent.
func (f *FrontDoor) Stop(ctx context.Context) error {
	f.mu.Lock()
	if f.stopped {
		f.mu.Unlock()
		return nil
	}
	f.stopped = true
	f.mu.Unlock()
	done := make(chan struct{})
	go func() {
		defer close(done)
		if f.own != nil {
			// Stops accepting and waits for the requests in flight,
			// those Caddy proxies included; bounded by ctx.
			if err := f.own.Shutdown(ctx); err != nil {
				f.own.Close()
			}
		}
		f.stop()
	}()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return fmt.Errorf("stop front door: %w", ctx.Err())
	}
}

func (f *FrontDoor) stop() {
	// caddy.Stop logs, rather than returns, the errors of the apps it
	// stops; its error is always nil.
	_ = caddy.Stop()
	f.unregister()
}

// unregister removes the in-process app.
func (f *FrontDoor) unregister() {
	if f.app != nil {
		f.app.Unregister()
	}
}
