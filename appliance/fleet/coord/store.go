package coord

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/dwk/fleet/appliance/libsql/hranaclient"
	"github.com/dwk/fleet/appliance/process/batch"
)

// NamespaceFor is the conventional name of a fleet's coordination
// database: "dwk-coord-<fleet>".
func NamespaceFor(fleet string) string { return "dwk-coord-" + fleet }

// Options tune a Store. The zero value is the default.
type Options struct {
	// Timeout bounds every call whose context has no earlier deadline.
	// Default: 5s.
	Timeout time.Duration `json:"timeout"`
	// SweepInterval is how often expired keys are deleted. Reads never
	// depend on the sweeper. Negative disables it. Default: 30s.
	SweepInterval time.Duration `json:"sweep_interval"`
	// Logger receives sweeper and watch failures, which have no caller to
	// return them to. Default: slog.Default().
	Logger *slog.Logger `json:"-"`
}

// Validate checks the options.
func (o *Options) Validate() error {
	if o.Timeout < 0 {
		return fmt.Errorf("coord: timeout %s is negative", o.Timeout)
	}
	return nil
}

// Store is the coordination KV on one libSQL database. It is safe for
// concurrent use. It owns a sweeper goroutine and the goroutines of its
// watches; Close stops them.
type Store struct {
	c       *hranaclient.Client
	timeout time.Duration
	sweep   time.Duration
	log     *slog.Logger

	closed  atomic.Bool
	shared  *batch.Group[*Atomic, CommitResult]
	stopCtx context.Context // cancelled by Close; ends owned goroutines
	stop    context.CancelFunc
	// mu orders Close against starting a goroutine, so that wg.Add never
	// races wg.Wait.
	mu sync.Mutex
	wg sync.WaitGroup
}

// Open creates the schema if needed (one round trip), checks its version
// and starts the sweeper. c addresses the coordination database (its
// namespace must exist) and decides the URL, credentials and round-trip
// accounting. The caller must Close the Store.
func Open(ctx context.Context, c *hranaclient.Client, o Options) (*Store, error) {
	if c == nil {
		return nil, errors.New("coord: nil client")
	}
	if err := o.Validate(); err != nil {
		return nil, err
	}
	if o.Timeout == 0 {
		o.Timeout = 5 * time.Second
	}
	if o.SweepInterval == 0 {
		o.SweepInterval = 30 * time.Second
	}
	if o.Logger == nil {
		o.Logger = slog.Default()
	}
	s := &Store{c: c, timeout: o.Timeout, sweep: o.SweepInterval, log: o.Logger}
	s.shared = batch.New(MaxShared, s.commitShared)
	cctx, cancel := s.callCtx(ctx)
	err := s.ensureSchema(cctx)
	cancel()
	if err != nil {
		return nil, fmt.Errorf("open coordination store %q: %w", c.Namespace(), err)
	}
	s.stopCtx, s.stop = context.WithCancel(context.Background())
	if s.sweep > 0 {
		s.goOwned(func() { s.sweepLoop(s.stopCtx) })
	}
	return s, nil
}

// Close stops the sweeper and every watch and waits for them, at most
// until ctx ends. Calls after Close fail with ErrClosed. Close is
// idempotent.
func (s *Store) Close(ctx context.Context) error {
	s.mu.Lock()
	s.closed.Store(true)
	s.stop()
	s.mu.Unlock()
	done := make(chan struct{})
	go func() {
		s.wg.Wait()
		close(done)
	}()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return fmt.Errorf("close coordination store: goroutines still running: %w", ctx.Err())
	}
}

// Client is the Hrana client the store sends its requests with.
func (s *Store) Client() *hranaclient.Client { return s.c }

// callCtx bounds one call by the store's timeout.
func (s *Store) callCtx(ctx context.Context) (context.Context, context.CancelFunc) {
	return context.WithTimeout(ctx, s.timeout)
}

// begin checks that the store is open and returns the call's context.
func (s *Store) begin(ctx context.Context) (context.Context, context.CancelFunc, error) {
	if s.closed.Load() {
		return nil, nil, ErrClosed
	}
	cctx, cancel := s.callCtx(ctx)
	return cctx, cancel, nil
}

// goOwned runs fn in a goroutine Close waits for, unless the store is
// closed.
func (s *Store) goOwned(fn func()) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed.Load() {
		return ErrClosed
	}
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		fn()
	}()
	return nil
}
