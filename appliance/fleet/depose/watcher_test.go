package depose

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"sync"
	"testing"
	"time"

	"github.com/dwk/fleet/appliance/process/clock/clocktest"
)

// fakeStore keeps reports in memory and expires them by a fake clock.
type fakeStore struct {
	clock *clocktest.Fake
	mu    sync.Mutex
	until map[Report]time.Time
	down  bool
}

var _ Store = (*fakeStore)(nil)

func (s *fakeStore) Report(_ context.Context, reporter string, suspects []Peer, ttl time.Duration) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.down {
		return errors.New("store down")
	}
	for _, sus := range suspects {
		s.until[Report{Suspect: sus.ID, Reporter: reporter, Run: sus.Run}] = s.clock.Now().Add(ttl)
	}
	return nil
}

func (s *fakeStore) Reports(context.Context) ([]Report, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.down {
		return nil, errors.New("store down")
	}
	var out []Report
	for r, u := range s.until {
		if s.clock.Now().Before(u) {
			out = append(out, r)
		}
	}
	return out, nil
}

// fleet is watchers over one fake store and a fake network.
type fleet struct {
	t     *testing.T
	clock *clocktest.Fake
	store *fakeStore
	ids   []string
	w     map[string]*Watcher

	mu      sync.Mutex
	cut     map[[2]string]bool // from, to
	deposed map[string]int     // OnDepose calls minus OnRestore calls
	calls   map[string]int
	runs    map[string]int64 // each member's run; 0 until restart
}

const ttl = 2 * time.Second

func newFleet(t *testing.T, ids ...string) *fleet {
	c := clocktest.NewFake(time.Unix(1_900_000_000, 0))
	f := &fleet{t: t, clock: c, store: &fakeStore{clock: c, until: map[Report]time.Time{}}, ids: ids,
		w: map[string]*Watcher{}, cut: map[[2]string]bool{}, deposed: map[string]int{}, calls: map[string]int{}, runs: map[string]int64{}}
	for _, id := range ids {
		w, err := New(Config{
			Self: id, TTL: ttl, Store: f.store, Clock: c,
			Logger:  slog.New(slog.NewTextHandler(io.Discard, nil)),
			Members: f.members,
			Reach: func(_ context.Context, addr string) error {
				f.mu.Lock()
				defer f.mu.Unlock()
				if f.cut[[2]string{id, addr}] {
					return errors.New("i/o timeout")
				}
				return nil
			},
			OnDepose: func(context.Context, string) {
				f.mu.Lock()
				f.deposed[id]++
				f.calls[id]++
				f.mu.Unlock()
			},
			OnRestore: func() { f.mu.Lock(); f.deposed[id]--; f.mu.Unlock() },
		})
		if err != nil {
			t.Fatal(err)
		}
		f.w[id] = w
	}
	return f
}

func (f *fleet) members() []Peer {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []Peer
	for _, id := range f.ids {
		out = append(out, Peer{ID: id, Addr: id, Run: f.runs[id]}) // the fake network dials by id
	}
	return out
}

// restart gives id a new run, with a new watcher, as a restarted replica
// has.
func (f *fleet) restart(id string) {
	f.mu.Lock()
	f.runs[id]++
	f.deposed[id] = 0
	f.mu.Unlock()
	old := f.w[id]
	w, err := New(old.cfg)
	if err != nil {
		f.t.Fatal(err)
	}
	f.w[id] = w
}

// sever cuts a from each of others, both ways; heal undoes every cut.
func (f *fleet) sever(a string, others ...string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, o := range others {
		f.cut[[2]string{a, o}], f.cut[[2]string{o, a}] = true, true
	}
}

func (f *fleet) heal() { f.mu.Lock(); clear(f.cut); f.mu.Unlock() }

// rounds runs n rounds of every watcher, one Interval apart.
func (f *fleet) rounds(n int) {
	for range n {
		for _, id := range f.ids {
			f.w[id].round(context.Background())
		}
		f.clock.Advance(ttl / 3)
	}
}

// state is each member's deposition as it sees itself: 1 deposed, 0 not.
func (f *fleet) state(id string) int { f.mu.Lock(); defer f.mu.Unlock(); return f.deposed[id] }

// TestCutHolderIsDeposedAndRejoins: a replica its two peers cannot reach
// is deposed by the second round (one to report, one to read), seen as
// deposed by its peers, and restored once the reports expire after the
// cut heals.
func TestCutHolderIsDeposedAndRejoins(t *testing.T) {
	f := newFleet(t, "a", "b", "c")
	f.rounds(3)
	if f.state("a")+f.state("b")+f.state("c") != 0 {
		t.Fatal("a member was deposed with no cut")
	}
	f.sever("a", "b", "c")
	f.rounds(2)
	if f.state("a") != 1 {
		t.Fatalf("a is not deposed two rounds after its peers lost it")
	}
	for _, id := range []string{"b", "c"} {
		if f.state(id) != 0 {
			t.Errorf("%s, on the majority side, was deposed", id)
		}
		if !f.w[id].Deposed("a") {
			t.Errorf("%s does not see a deposed", id)
		}
	}
	f.rounds(10) // the cut lasts: a stays deposed, OnDepose is not called again
	if f.state("a") != 1 || f.calls["a"] != 1 {
		t.Errorf("during a long cut: a deposed %d, OnDepose called %d times; want 1, 1", f.state("a"), f.calls["a"])
	}
	f.heal()
	f.rounds(1)
	if f.state("a") != 1 {
		t.Error("a rejoined before its reports expired")
	}
	// Reports live ReportTTL (2 TTL = 6 rounds) after the last write.
	f.rounds(7)
	if f.state("a") != 0 || f.w["b"].Deposed("a") {
		t.Errorf("after the reports expired: a deposed %d, b sees it deposed %v; want 0, false", f.state("a"), f.w["b"].Deposed("a"))
	}
}

// TestRestartedReplicaIsNotDeposedByReportsOnItsLastRun: a replica that
// was down (a restart, a kill) is reported by its peers while it is; once
// it runs again, those reports, not yet expired, depose neither it nor,
// in its peers' eyes, its new run.
func TestRestartedReplicaIsNotDeposedByReportsOnItsLastRun(t *testing.T) {
	f := newFleet(t, "a", "b", "c")
	f.sever("a", "b", "c")
	f.rounds(2)
	if !f.w["b"].Deposed("a") {
		t.Fatal("b does not see the unreachable a deposed")
	}
	f.heal()
	f.restart("a")
	f.rounds(1)
	if f.state("a") != 0 || f.w["b"].Deposed("a") || f.w["c"].Deposed("a") {
		t.Errorf("restarted a: deposed %d, b sees it deposed %v, c %v; want 0, false, false",
			f.state("a"), f.w["b"].Deposed("a"), f.w["c"].Deposed("a"))
	}
}

// TestOneFlakyPeerDeposesNobody: a holder that one peer of two cannot
// reach keeps its objects, however long that lasts.
func TestOneFlakyPeerDeposesNobody(t *testing.T) {
	f := newFleet(t, "a", "b", "c")
	f.sever("a", "b")
	f.rounds(12)
	for _, id := range f.ids {
		if f.state(id) != 0 {
			t.Errorf("%s deposed by a single unreachable peer", id)
		}
	}
}

// TestTwoReplicasCutApartKeepServing: with two replicas neither side can
// tell who is cut off, so neither is deposed.
func TestTwoReplicasCutApartKeepServing(t *testing.T) {
	f := newFleet(t, "a", "b")
	f.sever("a", "b")
	f.rounds(12)
	if f.state("a")+f.state("b") != 0 {
		t.Errorf("a two-replica cut deposed a %d, b %d", f.state("a"), f.state("b"))
	}
}

// TestStoreOutageChangesNothing: rounds whose reads fail neither depose
// nor restore.
func TestStoreOutageChangesNothing(t *testing.T) {
	f := newFleet(t, "a", "b", "c")
	f.sever("a", "b", "c")
	f.rounds(2)
	if f.state("a") != 1 {
		t.Fatal("a not deposed")
	}
	f.heal()
	f.store.mu.Lock()
	f.store.down = true
	f.store.mu.Unlock()
	f.rounds(12)
	if f.state("a") != 1 {
		t.Error("a restored while the reports could not be read")
	}
}

// TestStartStop: the goroutine runs rounds on the clock and Stop ends it
// within its deadline.
func TestStartStop(t *testing.T) {
	f := newFleet(t, "a", "b", "c")
	f.sever("a", "b", "c")
	for _, id := range f.ids {
		f.w[id].Start()
	}
	deadline := time.Now().Add(10 * time.Second)
	for f.state("a") != 1 {
		if time.Now().After(deadline) {
			t.Fatal("a not deposed by the running watchers within 10s")
		}
		f.clock.Advance(ttl / 3)
		time.Sleep(time.Millisecond) // yield to the watchers; the deadline bounds the loop
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	for _, id := range f.ids {
		if err := f.w[id].Stop(ctx); err != nil {
			t.Error(err)
		}
	}
}

func TestConfigValidation(t *testing.T) {
	if _, err := New(Config{Self: "a"}); err == nil {
		t.Error("New accepted a config with no members, store or callbacks")
	}
	ok := Config{Self: "a", Members: func() []Peer { return nil }, Store: &fakeStore{}, OnDepose: func(context.Context, string) {}, OnRestore: func() {}}
	short := ok
	short.Interval, short.ReportTTL = time.Second, time.Second
	if _, err := New(short); err == nil {
		t.Error("New accepted a report ttl no longer than a round")
	}
	ok.TTL = ttl
	if _, err := New(ok); err != nil {
		t.Errorf("New(defaults from TTL): %v", err)
	}
}
