package depose

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/dwk/fleet/appliance/process/clock"
)

// Peer is a live member as the watcher sees it.
type Peer struct {
	// ID is the member id; Addr its internal listener (host:port).
	ID, Addr string
	// Run identifies the member's current run (its record's start time
	// in Unix nanoseconds): reports made while it was down, before a
	// restart, do not depose the restarted replica.
	Run int64
}

// Config configures a Watcher. Zero optional fields select their default.
type Config struct {
	// Self is this replica's member id. Required.
	Self string
	// Members returns the live members, this replica included; it must be
	// fast (served from memory). Required.
	Members func() []Peer
	// Store keeps the reports. Required.
	Store Store
	// OnDepose is called when the rule deposes this replica, with why;
	// OnRestore when it no longer does. Calls are sequential, from the
	// watcher's goroutine. Required.
	OnDepose  func(ctx context.Context, why string)
	OnRestore func()
	// TTL is the lease TTL the other defaults derive from. Required
	// unless Interval and ReportTTL are set.
	TTL time.Duration
	// Interval is how often the watcher reads the reports and probes its
	// peers. Default: TTL/3.
	Interval time.Duration
	// ProbeTimeout bounds each probe. Default: Interval.
	ProbeTimeout time.Duration
	// ReportTTL is how long a report lives after its last write: the
	// least time a deposed replica stays out after its peers reach it
	// again. Default: 2×TTL. Must exceed Interval + ProbeTimeout, so that
	// a continuing cut renews the reports before they expire.
	ReportTTL time.Duration
	// Reach probes a peer's internal address. Default: a TCP connection.
	Reach func(ctx context.Context, addr string) error
	// Clock paces the rounds. Default: clock.System.
	Clock clock.Clock
	// Logger receives depositions and failed rounds. Default:
	// slog.Default().
	Logger *slog.Logger
}

func (c Config) withDefaults() (Config, error) {
	if c.Interval == 0 {
		c.Interval = c.TTL / 3
	}
	if c.ProbeTimeout == 0 {
		c.ProbeTimeout = c.Interval
	}
	if c.ReportTTL == 0 {
		c.ReportTTL = 2 * c.TTL
	}
	if c.Reach == nil {
		c.Reach = dial
	}
	if c.Clock == nil {
		c.Clock = clock.System{}
	}
	if c.Logger == nil {
		c.Logger = slog.Default()
	}
	var errs []error
	if c.Self == "" || c.Members == nil || c.Store == nil || c.OnDepose == nil || c.OnRestore == nil {
		errs = append(errs, errors.New("self, members, store, on-depose and on-restore are required"))
	}
	if c.Interval <= 0 || c.ProbeTimeout <= 0 {
		errs = append(errs, fmt.Errorf("interval %s and probe timeout %s must be positive", c.Interval, c.ProbeTimeout))
	}
	if c.ReportTTL <= c.Interval+c.ProbeTimeout {
		errs = append(errs, fmt.Errorf("report ttl %s must exceed interval + probe timeout (%s)", c.ReportTTL, c.Interval+c.ProbeTimeout))
	}
	if err := errors.Join(errs...); err != nil {
		return c, fmt.Errorf("depose config: %w", err)
	}
	return c, nil
}

// dial opens and closes a TCP connection to addr: a peer whose packets
// are dropped cannot be reached; one that is frozen still can, but then
// its leases lapse on their own.
func dial(ctx context.Context, addr string) error {
	c, err := (&net.Dialer{}).DialContext(ctx, "tcp", addr)
	if err != nil {
		return err
	}
	return c.Close()
}

// Watcher probes this replica's peers, reports those it cannot reach, and
// applies the rule to every member. Lifecycle: New (no I/O) → Start →
// Stop. It is safe for concurrent use.
type Watcher struct {
	cfg Config

	stop     chan struct{}
	stopOnce sync.Once
	done     chan struct{}

	mu      sync.Mutex
	deposed map[string]bool // by the last reports read
	self    bool            // OnDepose called, OnRestore not since
}

// New returns a watcher for cfg, defaults filled in and validated.
func New(cfg Config) (*Watcher, error) {
	cfg, err := cfg.withDefaults()
	if err != nil {
		return nil, err
	}
	return &Watcher{cfg: cfg, stop: make(chan struct{}), done: make(chan struct{}), deposed: map[string]bool{}}, nil
}

// Start runs the rounds on a goroutine that Stop ends.
func (w *Watcher) Start() {
	go func() {
		defer close(w.done)
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		go func() {
			select {
			case <-w.stop:
				cancel()
			case <-ctx.Done():
			}
		}()
		for {
			next := w.cfg.Clock.After(w.cfg.Interval)
			w.round(ctx)
			select {
			case <-w.stop:
				return
			case <-next:
			}
		}
	}()
}

// Stop ends the rounds, waiting for the one in progress at most until ctx
// ends. It may be called more than once.
func (w *Watcher) Stop(ctx context.Context) error {
	w.stopOnce.Do(func() { close(w.stop) })
	select {
	case <-w.done:
		return nil
	case <-ctx.Done():
		return fmt.Errorf("depose: stop: %w", ctx.Err())
	}
}

// Deposed reports whether member id was deposed by the reports the last
// round read.
func (w *Watcher) Deposed(id string) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.deposed[id]
}

// round reads the reports and applies the rule, then probes the peers
// and reports those it cannot reach. Reading first keeps this replica's
// own probes, which time out when it is the one cut off, from delaying
// its deposition.
func (w *Watcher) round(ctx context.Context) {
	live := w.cfg.Members()
	w.judge(ctx, live)
	var peers []Peer
	for _, p := range live {
		if p.ID != w.cfg.Self {
			peers = append(peers, p)
		}
	}
	if missing := w.probe(ctx, peers); len(missing) > 0 {
		rctx, cancel := context.WithTimeout(ctx, w.cfg.ReportTTL/2)
		defer cancel()
		if err := w.cfg.Store.Report(rctx, w.cfg.Self, missing, w.cfg.ReportTTL); err != nil && ctx.Err() == nil {
			w.cfg.Logger.Warn("report unreachable members", "members", missing, "err", err)
		}
	}
}

// judge reads the reports and applies the rule to live. A failed read
// changes nothing.
func (w *Watcher) judge(ctx context.Context, live []Peer) {
	rctx, cancel := context.WithTimeout(ctx, w.cfg.ReportTTL/2)
	defer cancel()
	reports, err := w.cfg.Store.Reports(rctx)
	if err != nil {
		if ctx.Err() == nil {
			w.cfg.Logger.Warn("read depose reports", "err", err)
		}
		return
	}
	deposed := Deposed(reports, live)
	w.mu.Lock()
	w.deposed = deposed
	was := w.self
	w.self = deposed[w.cfg.Self]
	w.mu.Unlock()
	switch {
	case deposed[w.cfg.Self] && !was:
		why := fmt.Sprintf("%s of the %d other live members cannot reach it", strings.Join(reportersOf(reports, w.cfg.Self, live), ", "), len(live)-1)
		w.cfg.Logger.Warn("deposed: handing back every lease and taking none until the reports expire", "why", why)
		w.cfg.OnDepose(ctx, why)
	case !deposed[w.cfg.Self] && was:
		w.cfg.Logger.Info("no longer deposed: taking leases again")
		w.cfg.OnRestore()
	}
}

// probe returns the peers that Reach fails for, probing all of
// them at once, each bounded by ProbeTimeout.
func (w *Watcher) probe(ctx context.Context, peers []Peer) []Peer {
	var mu sync.Mutex
	var missing []Peer
	var wg sync.WaitGroup
	for _, p := range peers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			pctx, cancel := context.WithTimeout(ctx, w.cfg.ProbeTimeout)
			defer cancel()
			if err := w.cfg.Reach(pctx, p.Addr); err != nil && ctx.Err() == nil {
				mu.Lock()
				missing = append(missing, p)
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	sort.Slice(missing, func(i, j int) bool { return missing[i].ID < missing[j].ID })
	return missing
}

// reportersOf lists the live members that report suspect.
func reportersOf(reports []Report, suspect string, live []Peer) []string {
	var out []string
	for _, r := range reports {
		for _, p := range live {
			if r.Suspect == suspect && r.Reporter == p.ID {
				out = append(out, p.ID)
			}
		}
	}
	sort.Strings(out)
	return out
}
