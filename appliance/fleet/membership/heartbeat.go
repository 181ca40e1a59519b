package membership

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/dwk/fleet/appliance/config"
	"github.com/dwk/fleet/appliance/process/clock"
)

// Heartbeat defaults.
const (
	// DefaultTTL is how long a member record lives after each write: as
	// long as an object lease.
	DefaultTTL = config.DefaultLeaseTTL
)

// HeartbeatOptions tune a Heartbeat. The zero value is the default.
type HeartbeatOptions struct {
	// TTL is how long the record lives after each write, by the libSQL
	// server's clock: how long a replica that died without removing its
	// record stays in the fleet. Default: 10s.
	TTL time.Duration
	// Interval is the time between writes; it must be shorter than TTL.
	// Default: TTL/3, so that two writes in a row may fail before the
	// record expires.
	Interval time.Duration
	// Timeout bounds each write. Default: Interval.
	Timeout time.Duration
	// Clock paces the writes and stamps Member.Heartbeat. Default:
	// clock.System.
	Clock clock.Clock
	// Logger receives failed periodic writes, which have no caller to
	// return them to. Default: slog.Default().
	Logger *slog.Logger
}

// withDefaults fills zero fields and validates the result.
func (o HeartbeatOptions) withDefaults() (HeartbeatOptions, error) {
	if o.TTL < 0 || o.Interval < 0 || o.Timeout < 0 {
		return o, fmt.Errorf("%w: negative duration (ttl %s, interval %s, timeout %s)", ErrOptions, o.TTL, o.Interval, o.Timeout)
	}
	if o.TTL == 0 {
		o.TTL = DefaultTTL
	}
	if o.Interval == 0 {
		o.Interval = o.TTL / 3
	}
	if o.Interval >= o.TTL {
		return o, fmt.Errorf("%w: interval %s must be shorter than ttl %s", ErrOptions, o.Interval, o.TTL)
	}
	if o.Timeout == 0 {
		o.Timeout = o.Interval
	}
	if o.Clock == nil {
		o.Clock = clock.System{}
	}
	if o.Logger == nil {
		o.Logger = slog.Default()
	}
	return o, nil
}

// HeartbeatStatus is how a Heartbeat's writes are going.
type HeartbeatStatus struct {
	// LastWrite is when the last successful write was sent, by the local
	// clock; zero before the first.
	LastWrite time.Time
	// ValidUntil is LastWrite + TTL. The record lives at least until then
	// (its TTL counts from when the server committed the write, which is
	// later), so after it the replica may have dropped out of the fleet.
	ValidUntil time.Time
	// Failures counts failed writes since the last success.
	Failures int
	// Err is the last failure, nil after a success.
	Err error
}

// Heartbeat keeps one replica's member record alive: it writes the record
// when it starts, then every Interval from a goroutine it owns, and at
// once on every SetState; Stop deletes the record.
//
// Lifecycle: NewHeartbeat (no I/O) → Start → SetState… → Stop.
type Heartbeat struct {
	rec  Recorder
	opts HeartbeatOptions
	id   string

	// writing holds a token while a write or the removal runs: writes
	// never land out of order, and none lands after Stop's removal. A
	// channel rather than a mutex, so that waiting for it obeys contexts.
	writing chan struct{}

	mu      sync.Mutex // guards the fields below
	self    Member
	started bool
	stopped bool
	status  HeartbeatStatus

	stop chan struct{}
	done chan struct{}
}

// NewHeartbeat returns the heartbeat of self, written through rec. An
// empty self.State means StateStarting and a zero self.Started the
// clock's current time.
func NewHeartbeat(rec Recorder, self Member, o HeartbeatOptions) (*Heartbeat, error) {
	o, err := o.withDefaults()
	if err != nil {
		return nil, err
	}
	if self.State == "" {
		self.State = StateStarting
	}
	if self.Started.IsZero() {
		self.Started = o.Clock.Now()
	}
	self.Heartbeat, self.Expires = time.Time{}, time.Time{}
	if err := self.Validate(); err != nil {
		return nil, err
	}
	return &Heartbeat{rec: rec, opts: o, id: self.ID, self: self,
		writing: make(chan struct{}, 1), stop: make(chan struct{}), done: make(chan struct{})}, nil
}

// Start writes the record once (so that an unreachable store fails the
// start) and then starts the periodic writes. It reports ErrStarted if
// the heartbeat runs already and ErrStopped after Stop.
func (h *Heartbeat) Start(ctx context.Context) error {
	h.mu.Lock()
	switch {
	case h.stopped:
		h.mu.Unlock()
		return ErrStopped
	case h.started:
		h.mu.Unlock()
		return ErrStarted
	}
	h.started = true
	h.mu.Unlock()
	if err := h.write(ctx); err != nil {
		h.mu.Lock()
		h.started = false
		h.mu.Unlock()
		return fmt.Errorf("start heartbeat: %w", err)
	}
	go h.loop()
	return nil
}

// SetState moves the record to state s and writes it at once (one round
// trip), so that load balancers see a drain within one View interval.
// States only move forward: starting → ready → draining; setting the
// current state again just rewrites the record. If the write fails the
// new state is kept and goes out with the next periodic write. Before
// Start, SetState only changes what Start will write.
func (h *Heartbeat) SetState(ctx context.Context, s State) error {
	if !s.Valid() {
		return fmt.Errorf("set state %q: %w", s, ErrInvalidMember)
	}
	h.mu.Lock()
	if h.stopped {
		h.mu.Unlock()
		return ErrStopped
	}
	if s.rank() < h.self.State.rank() {
		from := h.self.State
		h.mu.Unlock()
		return fmt.Errorf("%w: %s → %s", ErrTransition, from, s)
	}
	h.self.State = s
	started := h.started
	h.mu.Unlock()
	if !started {
		return nil
	}
	if err := h.write(ctx); err != nil {
		return fmt.Errorf("set state %s: %w", s, err)
	}
	return nil
}

// SetDeposed marks the record deposed, or no longer deposed, and writes
// it at once (one round trip), so that a replica waiting on a forward to
// it stops waiting. If the write fails the mark goes out with the next
// periodic write.
func (h *Heartbeat) SetDeposed(ctx context.Context, deposed bool) error {
	h.mu.Lock()
	if h.stopped {
		h.mu.Unlock()
		return ErrStopped
	}
	h.self.Deposed = deposed
	started := h.started
	h.mu.Unlock()
	if !started {
		return nil
	}
	if err := h.write(ctx); err != nil {
		return fmt.Errorf("set deposed %v: %w", deposed, err)
	}
	return nil
}

// Self returns the record as this replica last set it.
func (h *Heartbeat) Self() Member {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.self
}

// Status returns how the writes are going.
func (h *Heartbeat) Status() HeartbeatStatus {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.status
}

// Stop ends the periodic writes, waits for a write in flight, and deletes
// the record (the member is gone), all within ctx. Stop is idempotent;
// after it SetState and Start fail with ErrStopped. If ctx ends first, the
// record expires after its TTL instead.
func (h *Heartbeat) Stop(ctx context.Context) error {
	h.mu.Lock()
	if h.stopped {
		h.mu.Unlock()
		return nil
	}
	h.stopped = true
	started := h.started
	h.mu.Unlock()
	var errs []error
	if started {
		close(h.stop)
		select {
		case <-h.done:
		case <-ctx.Done():
			errs = append(errs, fmt.Errorf("stop heartbeat: write in flight: %w", ctx.Err()))
		}
	}
	if err := h.lockWrites(ctx); err != nil {
		return errors.Join(append(errs, fmt.Errorf("stop heartbeat: record left to expire: %w", err))...)
	}
	defer h.unlockWrites()
	if err := h.rec.Remove(ctx, h.id); err != nil {
		errs = append(errs, fmt.Errorf("stop heartbeat: %w", err))
	}
	return errors.Join(errs...)
}

func (h *Heartbeat) loop() {
	defer close(h.done)
	for {
		select {
		case <-h.stop:
			return
		case <-h.opts.Clock.After(h.opts.Interval):
		}
		if err := h.write(context.Background()); err != nil && !errors.Is(err, ErrStopped) {
			st := h.Status()
			log := h.opts.Logger.With("member", h.id, "failures", st.Failures, "err", err)
			if !st.ValidUntil.IsZero() && h.opts.Clock.Now().After(st.ValidUntil) {
				log.Error("member heartbeat failing; the record may have expired and this replica dropped out of the fleet")
			} else {
				log.Warn("member heartbeat failed; retrying at the next interval")
			}
		}
	}
}

// write stores the current record, bounded by the write timeout.
func (h *Heartbeat) write(ctx context.Context) error {
	if err := h.lockWrites(ctx); err != nil {
		return err
	}
	defer h.unlockWrites()
	h.mu.Lock()
	if h.stopped {
		h.mu.Unlock()
		return ErrStopped
	}
	m := h.self
	m.Heartbeat = h.opts.Clock.Now()
	h.mu.Unlock()

	ctx, cancel := context.WithTimeout(ctx, h.opts.Timeout)
	err := h.rec.Put(ctx, m, h.opts.TTL)
	cancel()

	h.mu.Lock()
	defer h.mu.Unlock()
	if err != nil {
		h.status.Failures++
		h.status.Err = err
		return err
	}
	h.status = HeartbeatStatus{LastWrite: m.Heartbeat, ValidUntil: m.Heartbeat.Add(h.opts.TTL)}
	return nil
}

// lockWrites waits for the write token, at most until ctx ends.
func (h *Heartbeat) lockWrites(ctx context.Context) error {
	select {
	case h.writing <- struct{}{}:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (h *Heartbeat) unlockWrites() { <-h.writing }
