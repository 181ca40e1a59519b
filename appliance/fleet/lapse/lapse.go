package lapse

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/dwk/fleet/appliance/process/clock"
)

// Defaults of Config.
const (
	// DefaultDelay is how long a forward waits before its lease is
	// read: most answers come sooner and cost no read.
	DefaultDelay = 500 * time.Millisecond
	// DefaultInterval is the time between reads, a fraction of the
	// default lease TTL (2s) so that a lapse is seen well before another
	// renewal interval passes.
	DefaultInterval = 250 * time.Millisecond
	// DefaultTimeout bounds each read.
	DefaultTimeout = time.Second
)

// ErrConfig reports a configuration that makes no sense.
var ErrConfig = errors.New("lapse: invalid config")

// Holders reads who holds an object's lease now.
type Holders interface {
	// Holder returns the member id holding the lease of object id of
	// class, "" when none does (no record, or it expired). It must not
	// answer from a cache and must return when ctx ends.
	Holder(ctx context.Context, class, id string) (string, error)
	// Alive reports whether member has a live member record now (any
	// state) that is not marked deposed, read past every cache; it must
	// return when ctx ends.
	Alive(ctx context.Context, member string) (bool, error)
}

// Config configures a Watcher.
type Config struct {
	// Holders reads leases. Required.
	Holders Holders
	// Live reports whether member has a live member record (any state: a
	// draining holder still serves). Required.
	Live func(member string) bool
	// Seen, when set, is told every holder a read found ("" for none),
	// so that a lease cache learns of the lapse at once.
	Seen func(class, id, holder string)
	// Delay, Interval and Timeout: see the defaults.
	Delay, Interval, Timeout time.Duration
	// Clock is the clock. Default: clock.System.
	Clock clock.Clock
	// Logger is told of every forward that lapsed, and why. Default:
	// slog.Default().
	Logger *slog.Logger
}

// Watcher watches leases for forwards. It is safe for concurrent use and
// owns no goroutine of its own: each Watch's goroutine ends with its ctx.
type Watcher struct{ cfg Config }

// New returns a watcher for cfg. It does no I/O.
func New(cfg Config) (*Watcher, error) {
	if cfg.Holders == nil || cfg.Live == nil {
		return nil, fmt.Errorf("%w: holders and live are required", ErrConfig)
	}
	if cfg.Delay < 0 || cfg.Interval < 0 || cfg.Timeout < 0 {
		return nil, fmt.Errorf("%w: negative duration", ErrConfig)
	}
	if cfg.Delay == 0 {
		cfg.Delay = DefaultDelay
	}
	if cfg.Interval == 0 {
		cfg.Interval = DefaultInterval
	}
	if cfg.Timeout == 0 {
		cfg.Timeout = DefaultTimeout
	}
	if cfg.Clock == nil {
		cfg.Clock = clock.System{}
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	return &Watcher{cfg: cfg}, nil
}

// Watch calls lapsed, once, from a goroutine of its own, when member
// stops holding object id of class, or will never take it (see the
// package doc), and never before Delay has passed. Watching ends when
// ctx ends: the caller cancels it when the forward is answered.
func (w *Watcher) Watch(ctx context.Context, class, id, member string, lapsed func()) {
	go func() {
		wait := w.cfg.Delay
		for {
			select {
			case <-ctx.Done():
				return
			case <-w.cfg.Clock.After(wait):
			}
			wait = w.cfg.Interval
			if !w.cfg.Live(member) {
				w.cfg.Logger.Info("forward lapsed: its member left the fleet", "member", member, "class", class, "object", id)
				lapsed()
				return
			}
			rctx, cancel := context.WithTimeout(ctx, w.cfg.Timeout)
			holder, err := w.cfg.Holders.Holder(rctx, class, id)
			cancel()
			if err != nil {
				continue
			}
			if w.cfg.Seen != nil {
				w.cfg.Seen(class, id, holder)
			}
			if holder == member {
				continue
			}
			// The lease moved, is gone, or was never taken (the forward
			// went to the member by placement). A member whose own record
			// is still live is draining (it hands its leases back after
			// the requests it took), slow, or about to take the object:
			// the forward waits for its answer.
			actx, cancel := context.WithTimeout(ctx, w.cfg.Timeout)
			alive, err := w.cfg.Holders.Alive(actx, member)
			cancel()
			if err == nil && !alive {
				w.cfg.Logger.Info("forward lapsed: the member does not hold the object, and its record expired or is deposed",
					"member", member, "class", class, "object", id, "holder", holder)
				lapsed()
				return
			}
		}
	}()
}
