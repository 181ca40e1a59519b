package lease

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/dwk/fleet/appliance/fleet/coord"
	"github.com/dwk/fleet/test/wait"
)

func TestConfigValidate(t *testing.T) {
	base := func() Config {
		return Config{Coord: nil, Member: "m", Addr: "a:1"}
	}
	tests := []struct {
		name  string
		tweak func(*Config)
		want  []string
	}{
		{"missing everything", func(c *Config) { *c = Config{} }, []string{"coordination store", "member id", "internal address"}},
		{"ttl too short", func(c *Config) { c.TTL = time.Millisecond }, []string{"shorter than"}},
		{"margin too large", func(c *Config) { c.TTL = time.Second; c.Margin = time.Second }, []string{"margin"}},
		{"renew too slow", func(c *Config) {
			c.TTL = time.Second
			c.Margin = 200 * time.Millisecond
			c.RenewInterval = 900 * time.Millisecond
		}, []string{"renew interval"}},
	}
	for _, tc := range tests {
		c := base()
		tc.tweak(&c)
		err := c.withDefaults().Validate()
		if err == nil {
			t.Errorf("%s: Validate = nil", tc.name)
			continue
		}
		for _, w := range tc.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: error %q does not mention %q", tc.name, err, w)
			}
		}
	}
	c := Config{Member: "m", Addr: "a:1"}.withDefaults()
	if c.TTL != DefaultTTL || c.RenewInterval != DefaultTTL/3 || c.Margin != DefaultTTL/5 {
		t.Errorf("defaults = ttl %s renew %s margin %s", c.TTL, c.RenewInterval, c.Margin)
	}
}

func TestAcquireRelease(t *testing.T) {
	e := newEnv(t)
	ctx := ctxFor(t)
	a := manager(t, e.store, "a", nil)
	b := manager(t, e.store, "b", nil)

	la, err := a.Acquire(ctx, "Counter", "x")
	if err != nil {
		t.Fatal(err)
	}
	if la.Epoch() != 1 || !la.Fresh() || a.Held("Counter", "x") != la {
		t.Fatalf("first lease: epoch %d fresh %v", la.Epoch(), la.Fresh())
	}
	if _, err := a.Acquire(ctx, "Counter", "x"); !errors.Is(err, ErrAlreadyHeld) {
		t.Errorf("second Acquire by the holder: err = %v, want ErrAlreadyHeld", err)
	}
	_, err = b.Acquire(ctx, "Counter", "x")
	var held *HeldError
	if !errors.As(err, &held) || !errors.Is(err, ErrHeld) || held.Record.Holder != "a" || held.Record.Addr != "a.internal:9000" || held.Record.Epoch != 1 {
		t.Fatalf("Acquire of a held lease: err = %v, want a HeldError naming a", err)
	}
	rec, ok, err := b.Lookup(ctx, "Counter", "x")
	if err != nil || !ok || rec.Holder != "a" || rec.Epoch != 1 || rec.Expires.IsZero() {
		t.Errorf("Lookup = %+v, %v, %v", rec, ok, err)
	}

	if err := la.Release(ctx); err != nil {
		t.Fatal(err)
	}
	select {
	case <-la.Lost():
		t.Error("Release closed Lost")
	default:
	}
	if cause := context.Cause(la.Context()); !errors.Is(cause, ErrReleased) {
		t.Errorf("context cause after Release = %v, want ErrReleased", cause)
	}
	if la.Fresh() || a.Held("Counter", "x") != nil || a.Count() != 0 {
		t.Error("released lease still counts as held")
	}
	if err := la.Release(ctx); err != nil {
		t.Errorf("second Release: %v", err)
	}
	// Released: b takes it at once (no TTL wait) with a higher epoch.
	b.Invalidate("Counter", "x")
	lb, err := b.Acquire(ctx, "Counter", "x")
	if err != nil {
		t.Fatalf("Acquire after release: %v", err)
	}
	if lb.Epoch() != 2 {
		t.Errorf("epoch after release = %d, want 2", lb.Epoch())
	}
	// Leases of other objects are independent.
	if l, err := a.Acquire(ctx, "Counter", "y"); err != nil || l.Epoch() != 1 {
		t.Errorf("Acquire of another object = %v, %v", l, err)
	}
	if l, err := a.Acquire(ctx, "Other", "x"); err != nil || l.Epoch() != 1 {
		t.Errorf("Acquire of the same id in another class = %v, %v", l, err)
	}
}

func TestHeartbeatKeepsLeasesInOneRoundTrip(t *testing.T) {
	e := newEnv(t)
	ctx := ctxFor(t)
	st := e.storeWithOwnCounter(t)
	a := manager(t, st, "a", func(c *Config) { c.TTL = MinTTL })
	const n = 20
	var ls []*Lease
	for i := range n {
		l, err := a.Acquire(ctx, "C", fmt.Sprint(i))
		if err != nil {
			t.Fatal(err)
		}
		ls = append(ls, l)
	}
	before, start := st.Client().RoundTrips(), time.Now()
	time.Sleep(3 * MinTTL) // three TTLs: only heartbeats keep them
	trips, elapsed := st.Client().RoundTrips()-before, time.Since(start)
	for _, l := range ls {
		if !l.Fresh() {
			t.Fatalf("lease %s lost despite heartbeats", l.ID())
		}
	}
	b := manager(t, e.store, "b", nil)
	if _, err := b.Acquire(ctx, "C", "0"); !errors.Is(err, ErrHeld) {
		t.Errorf("another member acquired a lease kept by heartbeats: %v", err)
	}
	// One round trip per interval for all 20 leases, not one per lease.
	intervals := uint64(elapsed / a.Config().RenewInterval)
	if trips > intervals+2 || trips < 2 {
		t.Errorf("%d round trips in %s (%d renew intervals) for %d leases; want one per interval", trips, elapsed, intervals, n)
	}
}

func TestPausedHolderLosesToTakeoverAndEpochsIncrease(t *testing.T) {
	e := newEnv(t)
	ctx := ctxFor(t)
	clock := newFakeClock()
	// a's clock stands still: it never sends a heartbeat and never
	// notices time passing — a paused (SIGSTOPped) holder.
	a := manager(t, e.store, "a", func(c *Config) { c.TTL = MinTTL; c.Clock = clock })
	b := manager(t, e.store, "b", func(c *Config) { c.TTL = MinTTL; c.LookupCacheTTL = -1 })

	la, err := a.Acquire(ctx, "C", "x")
	if err != nil {
		t.Fatal(err)
	}
	var lb *Lease
	wait.For(t, "the server to expire a's lease so b can take over", func() bool {
		l, err := b.Acquire(ctx, "C", "x")
		if err != nil && !errors.Is(err, ErrHeld) {
			t.Fatal(err)
		}
		lb = l
		return l != nil
	})
	if lb.Epoch() <= la.Epoch() {
		t.Fatalf("takeover epoch %d, want > %d", lb.Epoch(), la.Epoch())
	}
	// Paused, a still believes it holds the lease; when time catches up
	// it counts it lost at sent + TTL - margin, never later.
	if !la.Fresh() {
		t.Fatal("paused holder's lease already stale by its own clock")
	}
	clock.Advance(a.Config().TTL - a.Config().Margin - time.Millisecond)
	if !la.Fresh() {
		t.Error("lease stale before its deadline")
	}
	clock.Advance(time.Millisecond)
	select {
	case <-la.Lost():
	case <-time.After(5 * time.Second):
		t.Fatal("Lost not closed after the deadline passed")
	}
	if cause := context.Cause(la.Context()); !errors.Is(cause, ErrLost) {
		t.Errorf("context cause = %v, want ErrLost", cause)
	}
	if err := la.Release(ctx); err != nil {
		t.Errorf("Release of a lost lease: %v", err)
	}
	// b's lease was untouched by a's late release.
	if rec, ok, _ := b.Lookup(ctx, "C", "x"); !ok || rec.Holder != "b" {
		t.Fatalf("after a's release, lease = %+v %v; want b's", rec, ok)
	}
	if err := lb.Release(ctx); err != nil {
		t.Fatal(err)
	}
	la2, err := a.Acquire(ctx, "C", "x")
	if err != nil {
		t.Fatal(err)
	}
	if la2.Epoch() <= lb.Epoch() {
		t.Errorf("epochs %d, %d, %d: want strictly increasing", la.Epoch(), lb.Epoch(), la2.Epoch())
	}
}

// TestRefusedHeartbeatEndsEveryLease: a later incarnation of the member
// starts a new liveness epoch; the earlier one's next heartbeat is refused
// and every lease it held ends at once, before its deadline, while the new
// incarnation takes the objects without waiting.
func TestRefusedHeartbeatEndsEveryLease(t *testing.T) {
	e := newEnv(t)
	ctx := ctxFor(t)
	a := manager(t, e.store, "a", nil)
	var ls []*Lease
	for i := range 3 {
		l, err := a.Acquire(ctx, "C", fmt.Sprint(i))
		if err != nil {
			t.Fatal(err)
		}
		ls = append(ls, l)
	}
	a2 := manager(t, e.store, "a", nil)
	l0, err := a2.Acquire(ctx, "C", "0")
	if err != nil {
		t.Fatalf("a later incarnation takes its member's object: %v", err)
	}
	if l0.Record().Live <= ls[0].Record().Live || l0.Epoch() <= ls[0].Epoch() {
		t.Errorf("new tenure %+v, old %+v: want a later liveness epoch and object epoch", l0.Record(), ls[0].Record())
	}
	for _, l := range ls {
		select {
		case <-l.Lost():
		case <-time.After(5 * time.Second):
			t.Fatalf("lease %s not lost at the next heartbeat", l.ID())
		}
		if time.Now().After(l.Deadline()) && !l.Deadline().IsZero() {
			t.Error("lease noticed as lost only at its deadline, not at the refused heartbeat")
		}
	}
	if a.Count() != 0 {
		t.Errorf("%d leases still held by the replaced incarnation", a.Count())
	}
	if _, err := a2.Acquire(ctx, "C", "1"); err != nil {
		t.Errorf("the later incarnation takes another object of the earlier one: %v", err)
	}
	b := manager(t, e.store, "b", func(c *Config) { c.LookupCacheTTL = -1 })
	if _, err := b.Acquire(ctx, "C", "2"); err != nil {
		t.Errorf("another member takes an object whose holder's liveness epoch ended: %v", err)
	}
	if _, err := b.Acquire(ctx, "C", "0"); !errors.Is(err, ErrHeld) {
		t.Errorf("another member took an object held under a live epoch: %v", err)
	}
}

// TestIdleCostIsFlatInLeases: the heartbeat is one round trip per
// interval whether the member holds one lease or more than a round trip's
// worth of per-lease renewals (1,000).
func TestIdleCostIsFlatInLeases(t *testing.T) {
	e := newEnv(t)
	ctx := ctxFor(t)
	for _, n := range []int{1, 1200} {
		st := e.storeWithOwnCounter(t)
		m := manager(t, st, fmt.Sprintf("m%d", n), func(c *Config) { c.TTL = MinTTL })
		for i := range n {
			if _, err := m.Acquire(ctx, "Flat", fmt.Sprintf("%d-%d", n, i)); err != nil {
				t.Fatal(err)
			}
		}
		before, start := st.Client().RoundTrips(), time.Now()
		time.Sleep(2 * MinTTL)
		trips, elapsed := st.Client().RoundTrips()-before, time.Since(start)
		if intervals := uint64(elapsed / m.Config().RenewInterval); trips > intervals+2 {
			t.Errorf("%d leases: %d round trips in %s (%d intervals), want one per interval", n, trips, elapsed, intervals)
		}
		if m.Count() != n {
			t.Errorf("%d of %d leases held after the idle window", m.Count(), n)
		}
	}
}

func TestDrainAndCloseReleaseInOneRoundTrip(t *testing.T) {
	e := newEnv(t)
	ctx := ctxFor(t)
	st := e.storeWithOwnCounter(t)
	a := New(Config{Coord: st, Member: "a", Addr: "a:1", Logger: quiet()})
	if _, err := a.Acquire(ctx, "C", "x"); !errors.Is(err, ErrClosed) {
		t.Errorf("Acquire before Open: err = %v, want ErrClosed", err)
	}
	if err := a.Open(ctx); err != nil {
		t.Fatal(err)
	}
	var ls []*Lease
	for i := range 5 {
		l, err := a.Acquire(ctx, "C", fmt.Sprint(i))
		if err != nil {
			t.Fatal(err)
		}
		ls = append(ls, l)
	}
	a.Drain()
	if _, err := a.Acquire(ctx, "C", "new"); !errors.Is(err, ErrDraining) {
		t.Errorf("Acquire while draining: err = %v, want ErrDraining", err)
	}
	if !ls[0].Fresh() {
		t.Error("Drain dropped a held lease")
	}
	before := st.Client().RoundTrips()
	if err := a.Close(ctx); err != nil {
		t.Fatal(err)
	}
	if trips := st.Client().RoundTrips() - before; trips != 1 {
		t.Errorf("Close handed back 5 leases in %d round trips, want 1", trips)
	}
	for _, l := range ls {
		if !errors.Is(context.Cause(l.Context()), ErrReleased) {
			t.Errorf("lease %s context cause = %v, want ErrReleased", l.ID(), context.Cause(l.Context()))
		}
	}
	b := manager(t, e.store, "b", nil)
	for i := range 5 {
		if _, err := b.Acquire(ctx, "C", fmt.Sprint(i)); err != nil {
			t.Errorf("lease %d not free right after Close: %v", i, err)
		}
	}
	if err := a.Close(ctx); err != nil {
		t.Errorf("second Close: %v", err)
	}
}

func TestLookupCache(t *testing.T) {
	e := newEnv(t)
	ctx := ctxFor(t)
	st := e.storeWithOwnCounter(t)
	clock := newFakeClock()
	a := manager(t, e.store, "a", nil)
	b := manager(t, st, "b", func(c *Config) { c.Clock = clock; c.LookupCacheTTL = time.Second })
	if _, ok, err := b.Lookup(ctx, "C", "x"); err != nil || ok {
		t.Fatalf("Lookup of a free lease = %v, %v", ok, err)
	}
	if _, err := a.Acquire(ctx, "C", "x"); err != nil {
		t.Fatal(err)
	}
	before := st.Client().RoundTrips()
	if _, ok, _ := b.Lookup(ctx, "C", "x"); ok {
		t.Error("cached answer not used within the cache TTL")
	}
	if st.Client().RoundTrips() != before {
		t.Error("cached lookup made a round trip")
	}
	clock.Advance(time.Second)
	if rec, ok, _ := b.Lookup(ctx, "C", "x"); !ok || rec.Holder != "a" {
		t.Errorf("lookup after the cache TTL = %+v, %v; want a's lease", rec, ok)
	}
	b.Invalidate("C", "x")
	before = st.Client().RoundTrips()
	b.Lookup(ctx, "C", "x")
	if st.Client().RoundTrips() != before+1 {
		t.Error("Invalidate did not force a read")
	}
}

func TestDecodeRecord(t *testing.T) {
	r := Record{Holder: "m1", Addr: "10.0.0.1:7000", Epoch: 3, Live: 2}
	got, err := DecodeRecord(r.encode())
	if err != nil || got != r {
		t.Errorf("round trip = %+v, %v", got, err)
	}
	for _, bad := range []string{"", "{}", `{"holder":"m","epoch":0}`, "not json"} {
		if _, err := DecodeRecord([]byte(bad)); !errors.Is(err, ErrCorrupt) {
			t.Errorf("DecodeRecord(%q) err = %v, want ErrCorrupt", bad, err)
		}
	}
}

// TestLivenessReadsAnEpochNewerThanItsCache: a record naming a liveness
// epoch that began after the judge cached its holder's is read again, not
// taken for ended.
func TestLivenessReadsAnEpochNewerThanItsCache(t *testing.T) {
	e := newEnv(t)
	ctx := ctxFor(t)
	a := manager(t, e.store, "a", nil)
	if _, err := a.Acquire(ctx, "C", "x"); err != nil {
		t.Fatal(err)
	}
	judge := NewLiveness(time.Minute, nil)
	read := func(id string) Resolved {
		t.Helper()
		ent, err := e.store.Get(ctx, KeyFor("C", id))
		if err != nil {
			t.Fatal(err)
		}
		rs, err := judge.Resolve(ctx, e.store, []coord.Entry{ent}, false)
		if err != nil {
			t.Fatal(err)
		}
		return rs[0]
	}
	if r := read("x"); !r.Live {
		t.Fatalf("a's lease judged %+v, want live", r)
	}
	// A later incarnation of a starts a new liveness epoch: x's lease
	// ends with the old one, and y's is held under the new one.
	a2 := manager(t, e.store, "a", nil)
	if _, err := a2.Acquire(ctx, "C", "y"); err != nil {
		t.Fatal(err)
	}
	if r := read("y"); !r.Live {
		t.Errorf("a lease under a liveness epoch newer than the cached one judged %+v, want live", r)
	}
	if r := read("x"); r.Live {
		t.Errorf("a lease under the replaced liveness epoch judged live")
	}
}

// TestAcquireRoundTrips: a new object's first lease takes one round trip;
// an object that had one (released, here) takes two, as before there was
// a first-lease shortcut, and gets the next epoch.
func TestAcquireRoundTrips(t *testing.T) {
	e := newEnv(t)
	ctx := ctxFor(t)
	st := e.storeWithOwnCounter(t)
	a := manager(t, st, "a", nil)
	if _, err := a.Acquire(ctx, "C", "warm"); err != nil { // starts the liveness epoch
		t.Fatal(err)
	}
	acquire := func(id string) (*Lease, uint64) {
		t.Helper()
		before := st.Client().RoundTrips()
		l, err := a.Acquire(ctx, "C", id)
		if err != nil {
			t.Fatal(err)
		}
		return l, st.Client().RoundTrips() - before
	}
	l, trips := acquire("new")
	if trips != 1 || l.Epoch() != 1 {
		t.Fatalf("first lease of a new object: %d round trips, epoch %d; want 1 and 1", trips, l.Epoch())
	}
	if err := l.Release(ctx); err != nil {
		t.Fatal(err)
	}
	l, trips = acquire("new")
	if trips != 2 || l.Epoch() != 2 {
		t.Fatalf("lease of an object leased before: %d round trips, epoch %d; want 2 and 2", trips, l.Epoch())
	}
}
