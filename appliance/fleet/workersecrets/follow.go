package workersecrets

import (
	"context"
	"log/slog"
	"time"

	"github.com/dwk/fleet/appliance/process/clock"
)

// DefaultPollInterval is how often Follow asks whether the secrets
// changed: one round trip each time, two more when they did.
const DefaultPollInterval = 2 * time.Second

// FollowOptions tune Follow. The zero value is the default.
type FollowOptions struct {
	// Interval between polls. Default: DefaultPollInterval.
	Interval time.Duration
	// Clock times the polls. Default: clock.System.
	Clock clock.Clock
	// Logger receives failed polls, which have no caller to go to.
	// Default: slog.Default().
	Logger *slog.Logger
}

// Follow polls the counter every interval and, when its versionstamp is
// no longer from's, loads the secrets and calls apply with them, until
// ctx ends. Each poll is bounded by the coordination store's call
// timeout; a poll or load that fails is logged and tried again at the
// next interval, and apply is not called until one succeeds. apply runs
// on Follow's goroutine: Follow waits for it.
func (s *Store) Follow(ctx context.Context, from Snapshot, o FollowOptions, apply func(Snapshot)) {
	if o.Interval <= 0 {
		o.Interval = DefaultPollInterval
	}
	if o.Clock == nil {
		o.Clock = clock.System{}
	}
	if o.Logger == nil {
		o.Logger = slog.Default()
	}
	last := from.Generation
	for {
		select {
		case <-ctx.Done():
			return
		case <-o.Clock.After(o.Interval):
		}
		gen, err := s.generation(ctx)
		if err == nil && gen == last {
			continue
		}
		var snap Snapshot
		if err == nil {
			snap, err = s.Load(ctx)
		}
		if err != nil {
			if ctx.Err() == nil {
				o.Logger.Warn("poll the stored secrets; the ones applied last stay in force", "err", err)
			}
			continue
		}
		apply(snap)
		last = snap.Generation
	}
}
