package libsql

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"

	"github.com/dwk/fleet/appliance/libsql/backup"
)

// Server is a single-node libSQL server.
type Server struct {
	cfg Config
	log *slog.Logger

	auth    authenticator
	nss     *nsStore
	backup  *backup.Replicator // nil without a backup
	streams *httpStreams
	slots   *streamSlots
	ws      wsTracker

	lock     *os.File
	httpL    net.Listener
	adminL   net.Listener
	httpSrv  *http.Server
	adminSrv *http.Server
	fresh    newConnTracker

	// ctx is cancelled by Close; background goroutines watch it.
	ctx    context.Context
	cancel context.CancelFunc
	bg     sync.WaitGroup

	opened  atomic.Bool
	ready   atomic.Bool // Open succeeded
	closing atomic.Bool
}

// New returns a server for cfg with defaults filled in. It has no side
// effects: nothing is opened until Open.
func New(cfg Config) *Server {
	cfg = cfg.withDefaults()
	return &Server{cfg: cfg, log: cfg.Logger}
}

// Open validates the configuration, reads the JWT keys, locks and opens
// the database directory (creating the default namespace), and binds the
// listeners. Serve then serves them.
func (s *Server) Open() (err error) {
	if !s.opened.CompareAndSwap(false, true) {
		return errors.New("libsql: server already opened")
	}
	if err := s.cfg.Validate(); err != nil {
		return fmt.Errorf("libsql config: %w", err)
	}
	s.ctx, s.cancel = context.WithCancel(context.Background())
	defer func() {
		if err != nil {
			s.abortOpen()
		}
	}()
	s.auth = authenticator{now: s.cfg.Now}
	switch {
	case s.cfg.AuthJWTKeyFile != "":
		data, err := os.ReadFile(s.cfg.AuthJWTKeyFile)
		if err != nil {
			return fmt.Errorf("read JWT key file: %w", err)
		}
		if s.auth.keys, err = ParseJWTKeys(string(data)); err != nil {
			return fmt.Errorf("JWT key file %s: %w", s.cfg.AuthJWTKeyFile, err)
		}
	case s.cfg.AuthJWTKey != "":
		if s.auth.keys, err = ParseJWTKeys(s.cfg.AuthJWTKey); err != nil {
			return fmt.Errorf("JWT key: %w", err)
		}
	}
	if err := os.MkdirAll(s.cfg.DBPath, 0o700); err != nil {
		return fmt.Errorf("create db path: %w", err)
	}
	lock, err := lockDir(s.cfg.DBPath)
	if err != nil {
		return err
	}
	s.lock = lock
	s.nss = newNSStore(s.cfg.DBPath, s.cfg)
	if s.cfg.Backup.Enabled() {
		if err := s.prepareBackup(); err != nil {
			return err
		}
	}
	if err := s.nss.load(); err != nil {
		return fmt.Errorf("open namespaces in %s: %w", filepath.Join(s.cfg.DBPath, "dbs"), err)
	}
	if sp := s.nss.spares; sp != nil {
		s.bg.Add(1)
		go func() {
			defer s.bg.Done()
			sp.fill(s.ctx, s.cfg.Logger.Warn)
		}()
	}
	s.streams = newHTTPStreams(s.cfg.Now, s.cfg.StreamIdleTimeout)
	s.slots = newStreamSlots(s.cfg.MaxStreams)

	var tlsCfg *tls.Config
	if s.cfg.TLSCertFile != "" {
		cert, err := tls.LoadX509KeyPair(s.cfg.TLSCertFile, s.cfg.TLSKeyFile)
		if err != nil {
			return fmt.Errorf("TLS certificate: %w", err)
		}
		tlsCfg = &tls.Config{MinVersion: tls.VersionTLS12, Certificates: []tls.Certificate{cert}}
	}
	if s.httpL, err = listen(s.cfg.HTTPListenAddr, tlsCfg); err != nil {
		return fmt.Errorf("listen for HTTP on %s: %w", s.cfg.HTTPListenAddr, err)
	}
	s.httpSrv = &http.Server{Handler: s.Handler(), ReadHeaderTimeout: 10 * time.Second, IdleTimeout: 2 * time.Minute, ConnState: s.fresh.hook}
	if s.cfg.AdminListenAddr != "" {
		if s.adminL, err = listen(s.cfg.AdminListenAddr, tlsCfg); err != nil {
			return fmt.Errorf("listen for admin API on %s: %w", s.cfg.AdminListenAddr, err)
		}
		s.adminSrv = &http.Server{Handler: s.AdminHandler(), ReadHeaderTimeout: 10 * time.Second, IdleTimeout: 2 * time.Minute, ConnState: s.fresh.hook}
	}

	s.bg.Add(1)
	go func() {
		defer s.bg.Done()
		s.streams.run(s.ctx, expiryInterval(s.cfg.StreamIdleTimeout))
	}()
	if s.backup != nil {
		s.backup.Open()
	}
	s.ready.Store(true)
	return nil
}

// listen listens on addr, over TLS when c is set.
func listen(addr string, c *tls.Config) (net.Listener, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil || c == nil {
		return ln, err
	}
	return tls.NewListener(ln, c), nil
}

// TLS reports whether the APIs are served over TLS.
func (s *Server) TLS() bool { return s.cfg.TLSCertFile != "" }

// abortOpen undoes a failed Open.
func (s *Server) abortOpen() {
	s.cancel()
	s.bg.Wait()
	if s.httpL != nil {
		s.httpL.Close()
	}
	if s.adminL != nil {
		s.adminL.Close()
	}
	if s.nss != nil {
		if s.nss.spares != nil {
			s.nss.spares.drop()
		}
		s.nss.closeAll(context.Background())
	}
	if s.lock != nil {
		s.lock.Close()
	}
}

// closeGrace bounds the cleanup after Close's context has expired.
const closeGrace = 2 * time.Second

// expiryInterval is how often idle streams are looked for.
func expiryInterval(idle time.Duration) time.Duration {
	return max(min(idle/4, time.Second), 10*time.Millisecond)
}

// Addr returns the user API's address (useful with port 0).
func (s *Server) Addr() net.Addr { return s.httpL.Addr() }

// AdminAddr returns the admin API's address, or nil when it is disabled.
func (s *Server) AdminAddr() net.Addr {
	if s.adminL == nil {
		return nil
	}
	return s.adminL.Addr()
}

// Serve serves the user and admin APIs until Close. It returns nil after
// Close, or the first listener error.
func (s *Server) Serve() error {
	if !s.ready.Load() {
		return errors.New("libsql: Serve before a successful Open")
	}
	errc := make(chan error, 2)
	n := 1
	go func() { errc <- s.httpSrv.Serve(s.httpL) }()
	if s.adminSrv != nil {
		n++
		go func() { errc <- s.adminSrv.Serve(s.adminL) }()
	}
	var first error
	for range n {
		if err := <-errc; err != nil && !errors.Is(err, http.ErrServerClosed) && first == nil {
			first = fmt.Errorf("libsql: serve: %w", err)
			s.httpSrv.Close()
			if s.adminSrv != nil {
				s.adminSrv.Close()
			}
		}
	}
	return first
}

// Close shuts the server down: it stops accepting requests, lets running
// ones finish (until ctx is done, after which their statements are
// interrupted), closes WebSockets and streams (rolling back open
// transactions), checkpoints every namespace's WAL with
// wal_checkpoint(TRUNCATE) and unlocks the directory. It returns the
// first error.
func (s *Server) Close(ctx context.Context) error {
	if !s.ready.Load() || !s.closing.CompareAndSwap(false, true) {
		return nil
	}
	var errs []error
	shutdown := func(srv *http.Server) {
		if srv == nil {
			return
		}
		if err := srv.Shutdown(ctx); err != nil {
			srv.Close()
			errs = append(errs, fmt.Errorf("shut down HTTP server: %w", err))
		}
	}
	s.fresh.closeFresh()
	shutdown(s.httpSrv)
	shutdown(s.adminSrv)
	// Shutdown closes the listeners only if Serve ran.
	s.httpL.Close()
	if s.adminL != nil {
		s.adminL.Close()
	}
	if ctx.Err() != nil {
		// Requests outlived the deadline; their statements are being
		// interrupted now. Give that a short, bounded grace so that the
		// transactions roll back and the WAL is checkpointed.
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(context.Background(), closeGrace)
		defer cancel()
	}
	s.cancel()
	if err := s.ws.closeAll(ctx); err != nil {
		errs = append(errs, err)
	}
	s.bg.Wait()
	if s.nss.spares != nil {
		s.nss.spares.drop()
	}
	s.streams.closeAll()
	if s.backup != nil {
		// Ship what is left while the namespaces are still open.
		if err := s.backup.Close(ctx); err != nil {
			errs = append(errs, err)
		}
	}
	if err := s.nss.closeAll(ctx); err != nil {
		errs = append(errs, fmt.Errorf("close namespaces: %w", err))
	}
	if err := s.lock.Close(); err != nil {
		errs = append(errs, fmt.Errorf("unlock db path: %w", err))
	}
	return errors.Join(errs...)
}
