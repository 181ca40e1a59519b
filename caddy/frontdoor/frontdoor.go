package frontdoor

import (
	"context"
	"errors"
	"fmt"
	"net"
	"sync"

	"github.com/caddyserver/caddy/v2"
	"github.com/caddyserver/caddy/v2/modules/caddyhttp"

	// The Caddy modules the rendered config uses.
	_ "github.com/caddyserver/caddy/v2/modules/caddyhttp/headers"
	_ "github.com/caddyserver/caddy/v2/modules/caddyhttp/reverseproxy"
	_ "github.com/caddyserver/caddy/v2/modules/caddytls"
	_ "github.com/caddyserver/caddy/v2/modules/filestorage"
	_ "github.com/dwk/fleet/caddy/modules"

	"github.com/dwk/fleet/appliance/config"
)

// ErrRunning: a front door (or another Caddy config) already runs in this
// process.
var ErrRunning = errors.New("frontdoor: caddy is already running in this process")

// FrontDoor is the running front door. Lifecycle: Start → Stop.
type FrontDoor struct {
	config []byte
	addrs  []net.Addr

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
func StartOptions(ctx context.Context, cfg *config.Config, o Options) (*FrontDoor, error) {
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
	if err := caddy.Load(raw, true); err != nil {
		return nil, fmt.Errorf("start front door on %s: %w", cfg.Listen.Public, err)
	}
	f := &FrontDoor{config: raw}
	addrs, err := listenAddrs()
	if err != nil {
		f.stop()
		return nil, err
	}
	f.addrs = addrs
	return f, nil
}

// listenAddrs returns the addresses the running front door's server is
// bound to.
func listenAddrs() ([]net.Addr, error) {
	a, err := caddy.ActiveContext().App("http")
	if err != nil {
		return nil, fmt.Errorf("front door: http app: %w", err)
	}
	app, ok := a.(*caddyhttp.App)
	if !ok || app.Servers[ServerName] == nil {
		return nil, fmt.Errorf("front door: server %q not running", ServerName)
	}
	var out []net.Addr
	for _, ln := range app.Servers[ServerName].Listeners() {
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
}
