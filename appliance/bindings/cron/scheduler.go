package cron

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/dwk/fleet/appliance/process/clock"
	"github.com/dwk/fleet/appliance/worker"
)

// Errors of the Scheduler.
var (
	ErrDuplicateEntry = errors.New("cron: the same worker and schedule are configured twice")
	ErrStarted        = errors.New("cron: scheduler already started")
	ErrNoRun          = errors.New("cron: scheduler needs a run function")
)

// Entry is one cron trigger: a worker and one of its schedules.
type Entry struct {
	Worker   string
	Schedule Schedule
}

// Key names the entry to the TickClaimer: the worker name and the
// expression as configured, separated by a space. Every replica with the
// same configuration derives the same key.
func (e Entry) Key() string { return e.Worker + " " + e.Schedule.String() }

// RunFunc runs one tick of a worker's Scheduled handler. The host looks the
// worker up and calls its worker.Scheduler with the worker's Env.
type RunFunc func(ctx context.Context, workerName string, ev worker.ScheduledEvent) error

// SchedulerConfig is what a Scheduler runs.
type SchedulerConfig struct {
	Entries []Entry
	// Run is called for every claimed tick. Required.
	Run RunFunc
	// Claimer decides which replica runs a tick. Default: LocalClaimer.
	Claimer TickClaimer
	// Clock is the time source. Default: clock.System.
	Clock clock.Clock
	// Logger receives claim and run failures. Default: slog.Default().
	Logger *slog.Logger
}

// Scheduler fires Entries on their schedules. Each due tick is claimed and
// run on its own goroutine, so a slow handler delays neither other entries
// nor the entry's next tick.
//
// Ticks are evaluated from Start on: ticks that fell while the scheduler was
// not running are not replayed. If the process falls behind (paused, or a
// handler starved the machine) and several ticks of an entry became due at
// once, only the latest runs; this is logged and counted in Stats.Behind.
// In a fleet, the replicas that were not behind have run those ticks.
//
// A replica that lost a tick keeps asking, every Claim.Retry, while the
// tick's grace window lasts: if the winner's claim lapses before the tick
// is done (the winner died), this replica takes the tick over and runs it.
// A tick whose winner died mid-run may thus run twice (at least once); a
// tick recorded done never runs again.
//
// Lifecycle: NewScheduler (no side effects) → Start → Drain and/or Stop.
type Scheduler struct {
	cfg   SchedulerConfig
	stats schedStats

	mu        sync.Mutex
	started   bool
	drainOnce sync.Once
	drain     chan struct{}
	loopDone  chan struct{}
	runs      sync.WaitGroup
	runCtx    context.Context
	cancelRun context.CancelFunc
}

// NewScheduler validates cfg and returns a Scheduler that has not started.
func NewScheduler(cfg SchedulerConfig) (*Scheduler, error) {
	if cfg.Run == nil {
		return nil, ErrNoRun
	}
	seen := map[string]bool{}
	for _, e := range cfg.Entries {
		if e.Schedule.spec == nil {
			return nil, fmt.Errorf("cron entry of worker %q: %w: empty schedule", e.Worker, ErrSchedule)
		}
		if seen[e.Key()] {
			return nil, fmt.Errorf("cron entry %q: %w", e.Key(), ErrDuplicateEntry)
		}
		seen[e.Key()] = true
	}
	if cfg.Claimer == nil {
		cfg.Claimer = LocalClaimer{}
	}
	if cfg.Clock == nil {
		cfg.Clock = clock.System{}
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	cfg.Entries = append([]Entry(nil), cfg.Entries...)
	ctx, cancel := context.WithCancel(context.Background())
	return &Scheduler{
		cfg: cfg, drain: make(chan struct{}), loopDone: make(chan struct{}),
		runCtx: ctx, cancelRun: cancel,
	}, nil
}

// Start starts evaluating schedules from the clock's current time. It
// reports ErrStarted if called twice.
func (s *Scheduler) Start() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.started {
		return ErrStarted
	}
	s.started = true
	go s.loop()
	return nil
}

// Drain stops claiming ticks; runs in progress go on. It returns at once.
func (s *Scheduler) Drain() {
	s.drainOnce.Do(func() { close(s.drain) })
}

// Stop drains the scheduler and waits for runs in progress, or until ctx
// ends; then it cancels the runs' context and returns the context's error
// without waiting longer.
func (s *Scheduler) Stop(ctx context.Context) error {
	s.Drain()
	s.mu.Lock()
	started := s.started
	s.mu.Unlock()
	if !started {
		s.cancelRun()
		return nil
	}
	done := make(chan struct{})
	go func() {
		<-s.loopDone
		s.runs.Wait()
		close(done)
	}()
	select {
	case <-done:
		s.cancelRun()
		return nil
	case <-ctx.Done():
		s.cancelRun()
		return fmt.Errorf("stop cron scheduler: %w", ctx.Err())
	}
}

func (s *Scheduler) loop() {
	defer close(s.loopDone)
	clock := s.cfg.Clock
	next := make([]time.Time, len(s.cfg.Entries))
	now := clock.Now()
	for i, e := range s.cfg.Entries {
		next[i] = e.Schedule.Next(now)
	}
	for {
		var wake <-chan time.Time
		if earliest, ok := earliest(next); ok {
			wake = clock.After(earliest.Sub(clock.Now()))
		}
		select {
		case <-s.drain:
			return
		case <-wake:
		}
		now = clock.Now()
		for i, e := range s.cfg.Entries {
			if next[i].IsZero() || next[i].After(now) {
				continue
			}
			tick := e.Schedule.latest(next[i], now)
			if tick.After(next[i]) {
				s.stats.behind.Add(1)
				s.cfg.Logger.Warn("cron fell behind; running only the latest due tick",
					"worker", e.Worker, "cron", e.Schedule.String(), "first_missed", next[i], "tick", tick)
			}
			next[i] = e.Schedule.Next(tick)
			s.runs.Add(1)
			go s.fire(e, tick)
		}
	}
}

// earliest returns the soonest non-zero time, if any.
func earliest(ts []time.Time) (time.Time, bool) {
	var min time.Time
	for _, t := range ts {
		if !t.IsZero() && (min.IsZero() || t.Before(min)) {
			min = t
		}
	}
	return min, !min.IsZero()
}

// SchedulerStats are a Scheduler's counters since it was created.
type SchedulerStats struct {
	// Due counts ticks offered to the claimer. Behind counts the times an
	// entry had several ticks due at once, of which only the latest ran.
	Due, Behind int64
	// Runs counts ticks this replica won and ran; Lost counts ticks another
	// replica won; ClaimErrors counts failed Claim calls (each is retried
	// within the tick's grace window); LateClaims counts ticks claimed
	// after failed attempts; Missed counts ticks whose claim failed until
	// the grace window ended, which this replica therefore did not run.
	Runs, Lost, ClaimErrors, LateClaims, Missed int64
	// RunErrors counts runs whose handler returned an error or panicked.
	RunErrors int64
	// TakenOver counts ticks this replica ran after the winner's claim
	// lapsed (the winner died, or could not renew). Lapsed counts claims
	// of this replica found lapsed and taken over by another replica
	// while or after it ran the tick.
	TakenOver, Lapsed int64
}

type schedStats struct {
	due, behind, runs, lost, claimErrors, lateClaims, missed, runErrors, takenOver, lapsed atomic.Int64
}

// Stats returns a snapshot of the scheduler's counters.
func (s *Scheduler) Stats() SchedulerStats {
	return SchedulerStats{
		Due: s.stats.due.Load(), Behind: s.stats.behind.Load(),
		Runs: s.stats.runs.Load(), Lost: s.stats.lost.Load(), ClaimErrors: s.stats.claimErrors.Load(),
		LateClaims: s.stats.lateClaims.Load(), Missed: s.stats.missed.Load(),
		RunErrors: s.stats.runErrors.Load(), TakenOver: s.stats.takenOver.Load(), Lapsed: s.stats.lapsed.Load(),
	}
}
