package cron

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/dwk/fleet/appliance/process/clock"
	"github.com/dwk/fleet/appliance/process/clock/clocktest"
	"github.com/dwk/fleet/appliance/worker"
	"github.com/dwk/fleet/test/wait"
)

// memLeases is a fleet-wide store of lapsing tick claims, with expiry by
// the store's own clock, as the central claimer keeps them in libSQL.
type memLeases struct {
	clock clock.Clock
	ttl   time.Duration

	mu    sync.Mutex
	seq   int
	ticks map[string]*memLease
}

type memLease struct {
	token   int
	done    bool
	expires time.Time
}

var _ TickClaimer = (*memLeases)(nil)

func newMemLeases(c clock.Clock, ttl time.Duration) *memLeases {
	return &memLeases{clock: c, ttl: ttl, ticks: map[string]*memLease{}}
}

func (m *memLeases) Claim(_ context.Context, schedule string, tick time.Time) (Claim, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	k := schedule + "@" + tick.Format(time.RFC3339Nano)
	switch l := m.ticks[k]; {
	case l != nil && l.done:
		return Claim{}, nil
	case l != nil && m.clock.Now().Before(l.expires):
		return Claim{Retry: m.ttl / 2}, nil
	}
	m.seq++
	m.ticks[k] = &memLease{token: m.seq, expires: m.clock.Now().Add(m.ttl)}
	return Claim{Held: &memHeld{m: m, key: k, token: m.seq}}, nil
}

func (m *memLeases) done(schedule string, tick time.Time) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	l := m.ticks[schedule+"@"+tick.Format(time.RFC3339Nano)]
	return l != nil && l.done
}

// memHeld is a won claim of memLeases. fail, when set, is returned by
// Renew instead: the holder cannot reach the store.
type memHeld struct {
	m     *memLeases
	key   string
	token int
	fail  error
}

func (h *memHeld) RenewEvery() time.Duration { return h.m.ttl / 3 }

func (h *memHeld) Renew(context.Context) error {
	if h.fail != nil {
		return h.fail
	}
	return h.update(func(l *memLease) { l.expires = h.m.clock.Now().Add(h.m.ttl) })
}

func (h *memHeld) Done(context.Context) error { return h.update(func(l *memLease) { l.done = true }) }

func (h *memHeld) update(f func(*memLease)) error {
	h.m.mu.Lock()
	defer h.m.mu.Unlock()
	l := h.m.ticks[h.key]
	if l == nil || l.token != h.token || !h.m.clock.Now().Before(l.expires) {
		return ErrClaimLost
	}
	f(l)
	return nil
}

// cutOff is a replica's view of memLeases when it cannot reach the store
// after claiming: its renewals fail, as a dead replica's never happen.
type cutOff struct{ *memLeases }

func (c cutOff) Claim(ctx context.Context, schedule string, tick time.Time) (Claim, error) {
	cl, err := c.memLeases.Claim(ctx, schedule, tick)
	if h, ok := cl.Held.(*memHeld); ok {
		h.fail = errors.New("coordination store unreachable")
	}
	return cl, err
}

// blocking is a handler that records its runs and returns when released
// or when its context ends.
type blocking struct {
	release chan struct{}
	mu      sync.Mutex
	runs    []worker.ScheduledEvent
	ctxErr  []error
}

func newBlocking() *blocking { return &blocking{release: make(chan struct{})} }

func (b *blocking) Run(ctx context.Context, _ string, ev worker.ScheduledEvent) error {
	b.mu.Lock()
	b.runs = append(b.runs, ev)
	b.mu.Unlock()
	select {
	case <-b.release:
		return nil
	case <-ctx.Done():
		b.mu.Lock()
		b.ctxErr = append(b.ctxErr, ctx.Err())
		b.mu.Unlock()
		return ctx.Err()
	}
}

func (b *blocking) count() (runs, cancelled int) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return len(b.runs), len(b.ctxErr)
}

// settle waits until each clock has n timers pending: every goroutine
// under test sleeps on its clock.
func settle(t *testing.T, n int, clocks ...*clocktest.Fake) {
	t.Helper()
	var got [][]time.Time
	deadline := time.Now().Add(wait.Timeout)
	for {
		got = got[:0]
		ok := true
		for _, c := range clocks {
			got = append(got, c.Timers())
			ok = ok && len(got[len(got)-1]) == n
		}
		if ok {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %d timers on each clock; pending: %v", n, got)
		}
		time.Sleep(time.Millisecond)
	}
}

// step moves the store's clock and every replica's on by d, one second at
// a time, letting the replicas settle with n timers pending after each.
func step(t *testing.T, d time.Duration, n int, store *clocktest.Fake, clocks ...*clocktest.Fake) {
	t.Helper()
	for ; d > 0; d -= time.Second {
		store.Advance(time.Second)
		for _, c := range clocks {
			c.Advance(time.Second)
		}
		settle(t, n, clocks...)
	}
}

// TestTakeoverOfALapsedClaim: the winner of a tick is cut off from the
// store while its handler runs, so its claim lapses after the TTL; the
// other replica, which lost the tick, asks again every TTL/2 and runs it
// within the grace window. The first winner finds its claim taken over
// when it finishes.
func TestTakeoverOfALapsedClaim(t *testing.T) {
	store, ca, cb := clocktest.NewFake(base), clocktest.NewFake(base), clocktest.NewFake(base)
	leases := newMemLeases(store, 10*time.Second)
	ha, hb := newBlocking(), newBlocking()
	a := newTestScheduler(t, SchedulerConfig{Entries: []Entry{entry("w", "* * * * *")}, Run: ha.Run, Clock: ca, Claimer: cutOff{leases}})
	b := newTestScheduler(t, SchedulerConfig{Entries: []Entry{entry("w", "* * * * *")}, Run: hb.Run, Clock: cb, Claimer: leases})
	settle(t, 1, ca, cb)
	tick := base.Add(time.Minute)
	store.Set(tick)
	ca.Set(tick)
	wait.For(t, "a to win and run the tick", func() bool { n, _ := ha.count(); return n == 1 })
	cb.Set(tick)
	settle(t, 2, ca, cb) // a: next tick, renewal; b: next tick, recheck
	if b.Stats().Lost != 0 || b.Stats().Runs != 0 {
		t.Fatalf("b gave up or ran at once: %+v", b.Stats())
	}

	step(t, 9*time.Second, 2, store, ca, cb)
	if n, _ := hb.count(); n != 0 {
		t.Fatalf("b took the tick over before a's claim lapsed")
	}
	step(t, time.Second, 2, store, ca, cb) // a's claim lapses at +10s; b's recheck is due then
	wait.For(t, "b to take the tick over", func() bool { n, _ := hb.count(); return n == 1 })
	if st := b.Stats(); st.TakenOver != 1 || st.Runs != 1 {
		t.Errorf("b stats %+v, want one run, taken over", st)
	}
	if hb.runs[0].ScheduledTime != tick {
		t.Errorf("b ran %v, want the tick at %v", hb.runs[0].ScheduledTime, tick)
	}

	close(ha.release)
	wait.For(t, "a to find its claim lapsed", func() bool { return a.Stats().Lapsed == 1 })
	close(hb.release)
	wait.For(t, "b to record the tick done", func() bool { return leases.done("w * * * * *", tick) })
}

// TestRenewedOrDoneClaimIsNotTakenOver: a winner that renews keeps a tick
// whose handler runs three times the TTL, and the tick, once done, is
// never run again: the loser stops asking.
func TestRenewedOrDoneClaimIsNotTakenOver(t *testing.T) {
	store, ca, cb := clocktest.NewFake(base), clocktest.NewFake(base), clocktest.NewFake(base)
	leases := newMemLeases(store, 10*time.Second)
	ha, hb := newBlocking(), newBlocking()
	a := newTestScheduler(t, SchedulerConfig{Entries: []Entry{entry("w", "* * * * *")}, Run: ha.Run, Clock: ca, Claimer: leases})
	b := newTestScheduler(t, SchedulerConfig{Entries: []Entry{entry("w", "* * * * *")}, Run: hb.Run, Clock: cb, Claimer: leases})
	settle(t, 1, ca, cb)
	tick := base.Add(time.Minute)
	store.Set(tick)
	ca.Set(tick)
	wait.For(t, "a to win and run the tick", func() bool { n, _ := ha.count(); return n == 1 })
	cb.Set(tick)
	settle(t, 2, ca, cb)
	step(t, 30*time.Second, 2, store, ca, cb)
	if n, _ := hb.count(); n != 0 || b.Stats().TakenOver != 0 {
		t.Fatalf("b took over a claim that a renewed: %+v", b.Stats())
	}
	close(ha.release)
	wait.For(t, "a to record the tick done", func() bool { return leases.done("w * * * * *", tick) })
	step(t, 4*time.Second, 2, store, cb)
	step(t, time.Second, 1, store, cb) // b's recheck at +35s finds the tick done
	wait.For(t, "b to give the tick up", func() bool { return b.Stats().Lost == 1 })
	if st := b.Stats(); st.Lost != 1 || st.Runs != 0 {
		t.Errorf("b stats %+v, want the tick lost and not run", st)
	}
	if st := a.Stats(); st.Runs != 1 || st.Lapsed != 0 {
		t.Errorf("a stats %+v, want one run whose claim held", st)
	}
}

// TestNoTakeoverPastTheGraceWindow: when the winner's claim would lapse
// only after the tick's grace window (the next tick), the loser gives up.
func TestNoTakeoverPastTheGraceWindow(t *testing.T) {
	store, ca, cb := clocktest.NewFake(base), clocktest.NewFake(base), clocktest.NewFake(base)
	leases := newMemLeases(store, 90*time.Second)
	ha, hb := newBlocking(), newBlocking()
	newTestScheduler(t, SchedulerConfig{Entries: []Entry{entry("w", "* * * * *")}, Run: ha.Run, Clock: ca, Claimer: cutOff{leases}})
	b := newTestScheduler(t, SchedulerConfig{Entries: []Entry{entry("w", "* * * * *")}, Run: hb.Run, Clock: cb, Claimer: leases})
	t.Cleanup(func() { close(ha.release) }) // before the schedulers stop
	settle(t, 1, ca, cb)
	tick := base.Add(time.Minute)
	store.Set(tick)
	ca.Set(tick)
	wait.For(t, "a to win and run the tick", func() bool { n, _ := ha.count(); return n == 1 })
	cb.Set(tick)
	settle(t, 2, cb) // b rechecks at +45s, then gives up: +90s is past the window
	store.Advance(45 * time.Second)
	cb.Advance(45 * time.Second)
	wait.For(t, "b to give the tick up", func() bool { return b.Stats().Lost == 1 })
	if n, _ := hb.count(); n != 0 {
		t.Errorf("b ran a tick whose winner's claim had not lapsed")
	}
}

// TestLostRenewalCancelsTheHandler: a renewal that finds the claim taken
// over cancels the handler's context, and the tick is not recorded done
// by this replica.
func TestLostRenewalCancelsTheHandler(t *testing.T) {
	store, ca := clocktest.NewFake(base), clocktest.NewFake(base)
	leases := newMemLeases(store, 9*time.Second)
	ha := newBlocking()
	a := newTestScheduler(t, SchedulerConfig{Entries: []Entry{entry("w", "* * * * *")}, Run: ha.Run, Clock: ca, Claimer: leases})
	settle(t, 1, ca)
	tick := base.Add(time.Minute)
	store.Set(tick)
	ca.Set(tick)
	settle(t, 2, ca)
	leases.mu.Lock()
	leases.ticks["w * * * * *@"+tick.Format(time.RFC3339Nano)].token = -1 // another replica's claim
	leases.mu.Unlock()
	ca.Advance(3 * time.Second)
	wait.For(t, "the handler to be cancelled", func() bool { _, c := ha.count(); return c == 1 })
	wait.For(t, "the run to end", func() bool { return len(ca.Timers()) == 1 })
	if st := a.Stats(); st.Lapsed != 1 || st.Runs != 1 {
		t.Errorf("stats %+v, want one run whose claim lapsed", st)
	}
}
