// Package server is the dwk application server: it assembles the stores of
// the configured storage mode, binds them into each worker's Env, routes
// requests to workers, runs cron, queue consumers and alarms, and drains
// gracefully.
package server

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/dwk/fleet/appliance/process/netaddr"
	"github.com/dwk/fleet/appliance/server/tail"

	"github.com/dwk/fleet/appliance/bindings/objects/objcentral"
	"github.com/dwk/fleet/appliance/config"
	"github.com/dwk/fleet/appliance/fleet/internaltls"
	"github.com/dwk/fleet/appliance/fleet/peerlink"
	"github.com/dwk/fleet/appliance/fleet/protocol"
	"github.com/dwk/fleet/appliance/process/metrics"
	"github.com/dwk/fleet/caddy/frontdoor"
)

// State is a replica's lifecycle state.
type State string

// Replica states, in the order a replica goes through them.
const (
	StateStarting State = "starting"
	StateReady    State = "ready"
	StateDraining State = "draining"
	StateGone     State = "gone"
)

// Server is one dwk replica's application server.
type Server struct {
	cfg        *config.Config
	log        *slog.Logger
	metrics    *metrics.Metrics
	member     string
	configHash string
	state      atomic.Value // State
	drainReq   chan struct{}
	drainOnce  sync.Once
	roundTrips requestRoundTrips
	// tail is the replica's live log of invocations (GET /admin/tail).
	tail *tail.Hub
	// inFlight counts the requests the public (local mode) or internal
	// (central mode) listener is serving.
	inFlight atomic.Int64
	// coordRTT holds the latest coordination round trips timed for the
	// fleet page.
	coordRTT rttRing
	// live is the open app, for the status report.
	live atomic.Pointer[app]

	peers     peerAdmins // the client of the peers' admin APIs
	mu        sync.Mutex
	addr      net.Addr
	adminAddr net.Addr
	started   time.Time
	// onReady, when set, is called once the replica is ready.
	onReady func(Ready)
}

// Ready tells who started the server where it listens.
type Ready struct {
	Public net.Addr
	// Admin is nil when no admin listener is configured.
	Admin net.Addr
	// AdminTLS reports that the admin listener speaks TLS (with this
	// member's certificate from listen.internal_tls).
	AdminTLS bool
}

// Options are the optional parts of New.
type Options struct {
	// Logger defaults to slog.Default().
	Logger *slog.Logger
	// OnReady is called with the bound addresses once the replica is ready.
	OnReady func(Ready)
}

// New returns a server for cfg, which must be defaulted and validated. It
// does nothing until Run.
func New(cfg *config.Config, o Options) *Server {
	if o.Logger == nil {
		o.Logger = slog.Default()
	}
	s := &Server{
		cfg: cfg, log: o.Logger, onReady: o.OnReady, member: cfg.Fleet.Member,
		configHash: cfg.Hash(), metrics: metrics.New(cfg.Fleet.Member), drainReq: make(chan struct{}), tail: &tail.Hub{},
	}
	s.roundTrips = newRequestRoundTrips(s.metrics.Registry(), s.member)
	s.state.Store(StateStarting)
	return s
}

// Metrics is the replica's metrics.
func (s *Server) Metrics() *metrics.Metrics { return s.metrics }

// RequestDrain starts the graceful exit, as SIGTERM does. It returns at once.
func (s *Server) RequestDrain() { s.drainOnce.Do(func() { close(s.drainReq) }) }

// State is the replica's current lifecycle state.
func (s *Server) State() State { return s.state.Load().(State) }

// Addr is the bound public address, or nil before Run binds it.
func (s *Server) Addr() net.Addr {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.addr
}

// Run opens the stores, serves until ctx is cancelled, then drains: it stops
// taking new work, lets in-flight requests finish within drain.timeout, and
// closes everything. It returns nil after a clean drain.
func (s *Server) Run(ctx context.Context) error {
	var app *app
	var err error
	s.mu.Lock()
	s.started = time.Now().UTC()
	s.mu.Unlock()
	adminToken, err := s.cfg.Admin.Token.Resolve()
	if err != nil {
		return fmt.Errorf("admin.token: %w", err)
	}
	// The admin listener serves first, so the member record names its
	// bound address: metrics and health at once, the rest once the app
	// is open.
	serveErr := make(chan error, 3)
	var adminLn net.Listener
	var adminAddr string
	var admin *http.Server
	var adminH handlerSwitch
	adminTLS := false
	if s.cfg.Listen.Admin != "" {
		adminLn, err = net.Listen("tcp", s.cfg.Listen.Admin)
		if err != nil {
			return fmt.Errorf("listen on %s (listen.admin): %w", s.cfg.Listen.Admin, err)
		}
		if adminLn, adminTLS, err = s.adminTLS(adminLn); err != nil {
			adminLn.Close()
			return err
		}
		adminAddr = adminLn.Addr().String()
		s.mu.Lock()
		s.adminAddr = adminLn.Addr()
		s.mu.Unlock()
		adminH.set(s.startingAdmin())
		admin = s.httpServer(&adminH)
		go func() { serveErr <- admin.Serve(adminLn) }()
	}
	switch s.cfg.Storage.Mode {
	case config.ModeLocal:
		app, err = openLocal(ctx, s.cfg, s.metrics, s.tail, s.log)
	case config.ModeCentral:
		app, err = openCentral(ctx, s.cfg, adminAddr, s.metrics, s.tail, s.log)
	default:
		err = fmt.Errorf("storage mode %q is not supported by this build", s.cfg.Storage.Mode)
	}
	if err != nil {
		closeListeners(adminLn)
		return err
	}
	s.live.Store(app)
	// In central mode the embedded front door (Caddy) owns listen.public
	// and sends requests to the members' internal listeners, this one's
	// included; in local mode the app server answers on listen.public.
	central := app.internal != nil
	var ln net.Listener
	var hs *listening
	if !central {
		ln, err = net.Listen("tcp", s.cfg.Listen.Public)
		if err != nil {
			closeListeners(adminLn)
			app.close(context.Background())
			return fmt.Errorf("listen on %s (listen.public): %w", s.cfg.Listen.Public, err)
		}
		s.mu.Lock()
		s.addr = ln.Addr()
		s.mu.Unlock()
		hs = listen(s.httpServer(s.closeWhenDraining(s.health(s.memberHeader(s.countInFlight(s.tallyRoundTrips(app.handler)))))), ln)
	}
	var internal *listening
	var internalLn net.Listener
	if app.internal != nil {
		internalLn, err = net.Listen("tcp", s.cfg.Listen.Internal)
		if err != nil {
			closeListeners(ln, adminLn)
			app.close(context.Background())
			return fmt.Errorf("listen on %s (listen.internal): %w", s.cfg.Listen.Internal, err)
		}
		if !app.link.TLS() && !netaddr.Loopback(s.cfg.Listen.Internal) {
			s.log.Warn("the internal listener is not on loopback and speaks plain HTTP: requests are signed, but their contents travel in clear; set listen.internal_tls (see docs/security.md)",
				"listen.internal", s.cfg.Listen.Internal)
		}
		internalLn = app.link.Listen(internalLn)
		internal = listen(s.httpServer(s.health(s.memberHeader(s.countInFlight(s.tallyRoundTrips(s.retryWhenDraining(app.internal)))))), internalLn)
		internal.streams = app.streams
	}
	if admin != nil {
		adminH.set(s.adminHandler(adminToken, app))
	}
	if err := app.start(); err != nil {
		closeListeners(ln, internalLn, adminLn)
		app.close(context.Background())
		return err
	}
	if hs != nil {
		go func() { serveErr <- hs.serve() }()
	}
	if internal != nil {
		go func() { serveErr <- internal.serve() }()
	}
	var fd *frontdoor.FrontDoor
	if central {
		// After the internal listener serves: the front door's self
		// routes (/readyz, /livez, /_dwk/*) go there.
		// Requests the front door picks this replica for are served in
		// process (inProcess).
		if fd, err = frontdoor.StartOptions(ctx, s.cfg, frontdoor.Options{App: s.inProcess(app)}); err != nil {
			internal.close()
			if admin != nil {
				admin.Close()
			}
			app.close(context.Background())
			return fmt.Errorf("start the front door on %s (listen.public): %w", s.cfg.Listen.Public, err)
		}
		s.mu.Lock()
		s.addr = fd.Addr()
		s.mu.Unlock()
		s.metrics.GaugeFunc("dwk_frontdoor_tunnels", "WebSockets this replica's front door splices to other members, each a stream over its session to the member.",
			prometheus.Labels{"member": s.member}, func() float64 { return float64(fd.Tunnels()) })
	}
	if app.fleet != nil {
		if err := app.fleet.ready(ctx); err != nil {
			s.log.Warn("announce ready", "err", err)
		}
	}
	s.state.Store(StateReady)
	ready := Ready{Public: s.Addr()}
	if adminLn != nil {
		ready.Admin, ready.AdminTLS = adminLn.Addr(), adminTLS
	}
	s.log.Info("serving", "addr", "http://"+s.Addr().String(), "mode", s.cfg.Storage.Mode, "fleet", s.cfg.Fleet.Name, "member", s.member, "workers", len(s.cfg.Workers))
	if s.onReady != nil {
		s.onReady(ready)
	}

	select {
	case <-ctx.Done():
	case <-s.drainReq:
	case err := <-serveErr:
		s.state.Store(StateGone)
		hs.close()
		if fd != nil {
			fd.Stop(context.Background())
		}
		if admin != nil {
			admin.Close()
		}
		internal.close()
		app.close(context.Background())
		return fmt.Errorf("serve: %w", err)
	}
	err = s.drain(app, hs, fd, internal)
	if admin != nil {
		admin.Close()
	}
	return err
}

func (s *Server) httpServer(h http.Handler) *http.Server {
	return &http.Server{
		Handler:           h,
		ReadHeaderTimeout: 10 * time.Second,
		ErrorLog:          slog.NewLogLogger(s.log.Handler(), slog.LevelWarn),
	}
}

// drain is the graceful exit: mark draining (readyz 503, member record
// draining, no new leases; every public answer closes its connection
// after it, protocol.CloseAfter), give load balancers one refresh interval to
// notice, stop admitting background work, finish in-flight public requests,
// hand leases back and close WebSockets with 1012, then stop the internal
// listener (which forwarded requests reach until the leases are gone) and
// close the stores. It is bounded by drain.timeout.
func (s *Server) drain(app *app, public *listening, fd *frontdoor.FrontDoor, internal *listening) error {
	s.state.Store(StateDraining)
	s.metrics.Draining.Set(1)
	if fd != nil {
		fd.Closing()
	}
	timeout := s.cfg.Drain.Timeout.D()
	s.log.Info("draining", "timeout", timeout)
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	start := time.Now()
	if app.fleet != nil {
		app.fleet.draining(ctx)
		select {
		case <-time.After(drainNotice):
		case <-ctx.Done():
		}
	}
	app.stopAdmission(ctx)
	var errs []error
	shutdown := func(l *listening) {
		if l == nil {
			return
		}
		if err := l.stop(ctx); err != nil {
			errs = append(errs, fmt.Errorf("finish in-flight requests: %w", err))
		}
	}
	shutdown(public)
	if fd != nil {
		// Stops accepting on listen.public and waits (up to drain.timeout)
		// for the requests it proxies to any replica.
		if err := fd.Stop(ctx); err != nil {
			errs = append(errs, err)
		}
	}
	if err := app.release(ctx); err != nil {
		errs = append(errs, err)
	}
	if app.fleet != nil {
		// Peers that looked up this replica as a holder just before the
		// handback finish their forwards before the listener closes.
		select {
		case <-time.After(handbackGrace):
		case <-ctx.Done():
		}
	}
	shutdown(internal)
	if err := app.close(ctx); err != nil {
		errs = append(errs, err)
	}
	s.state.Store(StateGone)
	s.log.Info("drained", "took", time.Since(start).Round(time.Millisecond))
	return errors.Join(errs...)
}

// retryWhenDraining answers requests from the front door with a retry
// answer (503 + X-Dwk-Retry: 1, package appliance/fleet/protocol) once the replica
// drains, before reading them, so the front door replays them on a ready
// replica. Forwarded object calls (objcentral.InternalPrefix) are served
// until the leases are handed back.
func (s *Server) retryWhenDraining(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if st := s.State(); (st == StateDraining || st == StateGone) && !strings.HasPrefix(r.URL.Path, objcentral.InternalPrefix) {
			protocol.WriteRetry(w)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// inProcess is what the front door hands this replica's requests to in
// process: the worker's handler behind the same middleware as the
// internal listener, without its request MACs (the requests never left
// the replica) and without the internal endpoints (the front door answers
// them 404 on the public port).
func (s *Server) inProcess(app *app) http.Handler {
	return s.health(s.memberHeader(s.countInFlight(s.tallyRoundTrips(s.retryWhenDraining(app.handler)))))
}

// adminTLS wraps the admin listener in TLS with this member's certificate
// when it is not on loopback and listen.internal_tls is set; off loopback
// without it, it warns that the admin token travels in clear.
func (s *Server) adminTLS(ln net.Listener) (net.Listener, bool, error) {
	switch {
	case netaddr.Loopback(s.cfg.Listen.Admin):
		return ln, false, nil
	case s.cfg.Listen.InternalTLS != nil:
		c := peerlink.FromConfig(s.cfg, "")
		id, err := internaltls.Load(*c.TLS, c.Fleet, c.Member)
		if err != nil {
			return ln, false, fmt.Errorf("listen.internal_tls: %w", err)
		}
		return tls.NewListener(ln, id.AdminServerConfig()), true, nil
	}
	s.log.Warn("the admin API is not on loopback and speaks plain HTTP: the admin token travels in clear; set listen.internal_tls (see docs/security.md)",
		"listen.admin", s.cfg.Listen.Admin)
	return ln, false, nil
}

// closeListeners closes the listeners that are not nil.
func closeListeners(lns ...net.Listener) {
	for _, ln := range lns {
		if ln != nil {
			ln.Close()
		}
	}
}

// drainNotice is how long a draining replica keeps serving after it marks
// itself draining: one membership refresh interval (500ms) and a margin, so
// load balancers and peers stop choosing it before its listeners close.
const drainNotice = 700 * time.Millisecond

// handbackGrace is how long the internal listener stays open after the
// leases are handed back.
const handbackGrace = 300 * time.Millisecond

// countInFlight keeps s.inFlight.
func (s *Server) countInFlight(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.inFlight.Add(1)
		defer s.inFlight.Add(-1)
		next.ServeHTTP(w, r)
	})
}

// memberHeader names the serving replica on every response, so clients,
// load balancers and tests can see who answered. A response forwarded from
// the replica holding an object already names that replica; it is kept.
func (s *Server) memberHeader(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		next.ServeHTTP(&memberWriter{ResponseWriter: w, member: s.member}, r)
	})
}
