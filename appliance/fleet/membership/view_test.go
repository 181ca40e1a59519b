package membership

import (
	"context"
	"errors"
	"log/slog"
	"testing"
	"time"

	"github.com/dwk/fleet/appliance/process/clock"
	"github.com/dwk/fleet/test/wait"
)

func newTestView(t *testing.T, l Lister, clk clock.Clock) *View {
	t.Helper()
	v, err := NewView(l, ViewOptions{Clock: clk, Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := v.Stop(ctx); err != nil {
			t.Error(err)
		}
	})
	return v
}

func ids(ms []Member) []string {
	out := make([]string, len(ms))
	for i, m := range ms {
		out[i] = m.ID
	}
	return out
}

func equal(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestViewReadyIsSortedAndFiltered(t *testing.T) {
	store := newMemStore()
	deposed := member("f", StateReady)
	deposed.Deposed = true
	store.set(member("c", StateReady), member("a", StateReady), member("b", StateDraining), member("d", StateStarting), member("e", StateReady), deposed)
	v := newTestView(t, store, newFakeClock())
	if got := v.Ready(); got != nil {
		t.Errorf("Ready before Start = %v, want nil", got)
	}
	if err := v.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	if got, want := ids(v.Ready()), []string{"a", "c", "e"}; !equal(got, want) {
		t.Errorf("Ready = %v, want %v", got, want)
	}
	if got, want := ids(v.Members()), []string{"a", "b", "c", "d", "e", "f"}; !equal(got, want) {
		t.Errorf("Members = %v, want %v", got, want)
	}
	if m, ok := v.Get("b"); !ok || m.State != StateDraining {
		t.Errorf("Get(b) = %+v, %v", m, ok)
	}
	if _, ok := v.Get("zz"); ok {
		t.Error("Get of an unknown member succeeded")
	}
	if got := testing.AllocsPerRun(100, func() { _ = v.Ready() }); got != 0 {
		t.Errorf("Ready allocates %v times per call", got)
	}
}

func TestViewGenerationIsStable(t *testing.T) {
	ctx := context.Background()
	store := newMemStore()
	store.set(member("a", StateReady), member("b", StateReady))
	v := newTestView(t, store, newFakeClock())
	if err := v.Refresh(ctx); err != nil {
		t.Fatal(err)
	}
	gen, ready := v.Generation(), v.Ready()
	if gen != 1 {
		t.Errorf("Generation after the first listing = %d, want 1", gen)
	}

	// Heartbeats move timestamps only: same slice, same generation.
	a := member("a", StateReady)
	a.Heartbeat = epoch.Add(time.Minute)
	store.set(a, member("x", StateStarting))
	if err := v.Refresh(ctx); err != nil {
		t.Fatal(err)
	}
	if v.Generation() != gen || &v.Ready()[0] != &ready[0] {
		t.Errorf("a heartbeat and a starting member changed the ready set (generation %d → %d)", gen, v.Generation())
	}
	if m, _ := v.Get("a"); !m.Heartbeat.Equal(a.Heartbeat) {
		t.Errorf("Get(a) is stale: heartbeat %s", m.Heartbeat)
	}

	// A drain, a join and a leave each move the generation.
	steps := []struct {
		name   string
		change func()
		want   []string
	}{
		{"drain", func() { store.set(member("a", StateDraining)) }, []string{"b"}},
		{"join", func() { store.set(member("x", StateReady)) }, []string{"b", "x"}},
		{"leave", func() { store.del("b") }, []string{"x"}},
	}
	for _, s := range steps {
		before := v.Generation()
		s.change()
		if err := v.Refresh(ctx); err != nil {
			t.Fatal(err)
		}
		if got := ids(v.Ready()); !equal(got, s.want) {
			t.Errorf("%s: Ready = %v, want %v", s.name, got, s.want)
		}
		if v.Generation() != before+1 {
			t.Errorf("%s: Generation %d → %d, want +1", s.name, before, v.Generation())
		}
	}
}

func TestViewKeepsLastListingOnFailure(t *testing.T) {
	ctx := context.Background()
	clock, store := newFakeClock(), newMemStore()
	store.set(member("a", StateReady))
	v := newTestView(t, store, clock)
	store.setErr(errDown)
	if err := v.Start(ctx); !errors.Is(err, errDown) {
		t.Fatalf("Start with the store down = %v, want errDown", err)
	}
	store.setErr(nil)
	if err := v.Start(ctx); err != nil {
		t.Fatal(err)
	}
	if !v.Updated().Equal(epoch) {
		t.Errorf("Updated = %s, want %s", v.Updated(), epoch)
	}
	store.setErr(errDown)
	clock.WaitCalls(t, 1)
	clock.Advance(DefaultViewInterval)
	wait.For(t, "a failed refresh", func() bool { return v.Stats().Failures == 2 })
	if got := ids(v.Ready()); !equal(got, []string{"a"}) {
		t.Errorf("Ready during an outage = %v, want the last listing", got)
	}

	// Periodic refreshes pick up changes once the store is back.
	store.setErr(nil)
	store.set(member("b", StateReady))
	clock.WaitCalls(t, 2)
	clock.Advance(DefaultViewInterval)
	wait.For(t, "the periodic refresh", func() bool { return len(v.Ready()) == 2 })
	if !v.Updated().Equal(epoch.Add(2 * DefaultViewInterval)) {
		t.Errorf("Updated = %s", v.Updated())
	}
	if s := v.Stats(); s.Refreshes != 2 || s.Failures != 2 {
		t.Errorf("Stats = %+v, want 2 refreshes and 2 failures", s)
	}
}

func BenchmarkViewReady(b *testing.B) {
	store := newMemStore()
	for _, id := range []string{"a", "b", "c", "d", "e", "f", "g", "h"} {
		store.set(member(id, StateReady))
	}
	v, err := NewView(store, ViewOptions{})
	if err != nil {
		b.Fatal(err)
	}
	if err := v.Refresh(context.Background()); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			if len(v.Ready()) != 8 {
				b.Fatal("lost members")
			}
		}
	})
}
