package membership

import (
	"context"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/dwk/fleet/appliance/process/clock"
)

// View defaults.
const (
	DefaultViewInterval = 500 * time.Millisecond
	DefaultViewTimeout  = 2 * time.Second
)

// viewLogEvery is how many failed refreshes in a row are logged once, so
// that a long store outage does not flood the log.
const viewLogEvery = 60

// ViewOptions tune a View. The zero value is the default.
type ViewOptions struct {
	// Interval between listings. A member's state change (a drain) reaches
	// this view within Interval plus one round trip. Default: 500ms.
	Interval time.Duration
	// Timeout bounds each listing. Default: 2s.
	Timeout time.Duration
	// Clock paces the listings. Default: clock.System.
	Clock clock.Clock
	// Logger receives failed listings, which have no caller to return them
	// to. Default: slog.Default().
	Logger *slog.Logger
}

func (o ViewOptions) withDefaults() (ViewOptions, error) {
	if o.Interval < 0 || o.Timeout < 0 {
		return o, fmt.Errorf("%w: negative duration (interval %s, timeout %s)", ErrOptions, o.Interval, o.Timeout)
	}
	if o.Interval == 0 {
		o.Interval = DefaultViewInterval
	}
	if o.Timeout == 0 {
		o.Timeout = DefaultViewTimeout
	}
	if o.Clock == nil {
		o.Clock = clock.System{}
	}
	if o.Logger == nil {
		o.Logger = slog.Default()
	}
	return o, nil
}

// ViewStats count a View's listings since it was created.
type ViewStats struct {
	// Refreshes counts successful listings, Failures failed ones.
	Refreshes, Failures int64
}

// View is one replica's picture of the fleet: the live member records,
// listed every Interval by a goroutine it owns and served from memory.
// Between listings, and while listings fail, it serves the last good
// picture. It is safe for concurrent use.
//
// Lifecycle: NewView (no I/O) → Start → Stop.
type View struct {
	lister Lister
	opts   ViewOptions

	snap      atomic.Pointer[snapshot]
	refreshMu sync.Mutex // one refresh at a time, so generations only grow
	failing   int        // failed refreshes in a row; guarded by refreshMu
	refreshes atomic.Int64
	failures  atomic.Int64

	mu      sync.Mutex
	started bool
	stopped bool
	stop    chan struct{}
	done    chan struct{}
}

// snapshot is one listing. It is never modified once stored.
type snapshot struct {
	all   []Member
	ready []Member
	index map[string]int // id → position in all
	gen   uint64
	at    time.Time
}

// NewView returns a view that lists members with l.
func NewView(l Lister, o ViewOptions) (*View, error) {
	o, err := o.withDefaults()
	if err != nil {
		return nil, err
	}
	return &View{lister: l, opts: o, stop: make(chan struct{}), done: make(chan struct{})}, nil
}

// Ready returns the members in state ready that are not deposed (package
// depose), sorted by id: the members new objects may be placed on. It does no I/O
// and does not allocate, so the load balancer may call it for every
// request. The slice is shared: callers must not modify it. Between
// changes of the ready set the same slice is returned (see Generation);
// it is nil before the first successful listing.
func (v *View) Ready() []Member {
	if s := v.snap.Load(); s != nil {
		return s.ready
	}
	return nil
}

// Members returns every live member in any state, sorted by id, from
// memory. The slice is shared: callers must not modify it.
func (v *View) Members() []Member {
	if s := v.snap.Load(); s != nil {
		return s.all
	}
	return nil
}

// Get returns member id's record from memory.
func (v *View) Get(id string) (Member, bool) {
	s := v.snap.Load()
	if s == nil {
		return Member{}, false
	}
	i, ok := s.index[id]
	if !ok {
		return Member{}, false
	}
	return s.all[i], true
}

// Generation increases whenever the ready set changes (a member joins,
// leaves, changes state, address, version or configuration), and only
// then: callers that derive tables from Ready (rendezvous hashing) rebuild
// them when it moves. It is 0 before the first successful listing.
func (v *View) Generation() uint64 {
	if s := v.snap.Load(); s != nil {
		return s.gen
	}
	return 0
}

// Updated is when the last successful listing finished, by the view's
// clock; zero before the first.
func (v *View) Updated() time.Time {
	if s := v.snap.Load(); s != nil {
		return s.at
	}
	return time.Time{}
}

// Stats returns the view's counters.
func (v *View) Stats() ViewStats {
	return ViewStats{Refreshes: v.refreshes.Load(), Failures: v.failures.Load()}
}

// Refresh lists the members now (one round trip for fleets of up to 1000
// members) and replaces the picture. On error the previous picture stays.
func (v *View) Refresh(ctx context.Context) error {
	v.refreshMu.Lock()
	defer v.refreshMu.Unlock()
	ctx, cancel := context.WithTimeout(ctx, v.opts.Timeout)
	ms, err := v.lister.List(ctx)
	cancel()
	if err != nil {
		v.failures.Add(1)
		v.failing++
		return fmt.Errorf("refresh fleet view: %w", err)
	}
	if v.failing > 0 {
		v.opts.Logger.Info("fleet view refreshed again", "failed_refreshes", v.failing)
		v.failing = 0
	}
	v.refreshes.Add(1)
	v.snap.Store(newSnapshot(v.snap.Load(), ms, v.opts.Clock.Now()))
	return nil
}

// newSnapshot builds the picture of listing ms, keeping prev's ready slice
// and generation when the ready set did not change.
func newSnapshot(prev *snapshot, ms []Member, at time.Time) *snapshot {
	all := slices.Clone(ms)
	slices.SortFunc(all, func(a, b Member) int { return strings.Compare(a.ID, b.ID) })
	s := &snapshot{all: all, index: make(map[string]int, len(all)), at: at}
	for i, m := range all {
		s.index[m.ID] = i
		if m.State == StateReady && !m.Deposed {
			s.ready = append(s.ready, m)
		}
	}
	switch {
	case prev == nil:
		s.gen = 1
	case slices.EqualFunc(prev.ready, s.ready, Member.sameAs):
		s.ready, s.gen = prev.ready, prev.gen
	default:
		s.gen = prev.gen + 1
	}
	return s
}

// Start lists the members once (so that the first Ready already answers)
// and then starts the periodic listings. It fails, starting nothing, if
// that first listing fails, and reports ErrStarted if called twice.
func (v *View) Start(ctx context.Context) error {
	v.mu.Lock()
	defer v.mu.Unlock()
	switch {
	case v.stopped:
		return fmt.Errorf("start fleet view: %w", ErrStopped)
	case v.started:
		return fmt.Errorf("start fleet view: %w", ErrStarted)
	}
	if err := v.Refresh(ctx); err != nil {
		return fmt.Errorf("start fleet view: %w", err)
	}
	v.started = true
	go v.loop()
	return nil
}

// Stop ends the periodic listings and waits for a listing in flight, at
// most until ctx ends. The last picture stays readable. Stop is idempotent.
func (v *View) Stop(ctx context.Context) error {
	v.mu.Lock()
	if v.stopped {
		v.mu.Unlock()
		return nil
	}
	v.stopped = true
	started := v.started
	v.mu.Unlock()
	if !started {
		return nil
	}
	close(v.stop)
	select {
	case <-v.done:
		return nil
	case <-ctx.Done():
		return fmt.Errorf("stop fleet view: listing in flight: %w", ctx.Err())
	}
}

func (v *View) loop() {
	defer close(v.done)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		// Stop cancels a listing in flight, so that Stop is prompt.
		select {
		case <-v.stop:
			cancel()
		case <-ctx.Done():
		}
	}()
	for {
		select {
		case <-v.stop:
			return
		case <-v.opts.Clock.After(v.opts.Interval):
		}
		if err := v.Refresh(ctx); err != nil && ctx.Err() == nil {
			v.logFailure(err)
		}
	}
}

// logFailure logs the first failed refresh of a run and every
// viewLogEvery-th after it.
func (v *View) logFailure(err error) {
	v.refreshMu.Lock()
	n := v.failing
	v.refreshMu.Unlock()
	if n == 1 || n%viewLogEvery == 0 {
		v.opts.Logger.Warn("fleet view refresh failed; serving the last listing", "failed_refreshes", n, "err", err)
	}
}
