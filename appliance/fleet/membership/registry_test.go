package membership

import (
	"context"
	"log/slog"
	"sync/atomic"
	"testing"
	"time"

	"github.com/dwk/fleet/appliance/fleet/coord"
	"github.com/dwk/fleet/test/libsqlserver"
	"github.com/dwk/fleet/test/storetest"
	"github.com/dwk/fleet/test/wait"
)

// openStore returns a coordination store on a new namespace of a real
// libSQL server.
func openStore(t *testing.T) *coord.Store {
	t.Helper()
	return storetest.StartLibSQL(t, "").Coord(t, libsqlserver.Namespace("member"))
}

func TestRegistry(t *testing.T) {
	ctx := context.Background()
	store := openStore(t)
	r := NewRegistry(store, slog.New(slog.DiscardHandler))

	b, a := member("b", StateReady), member("a", StateStarting)
	a.Heartbeat = epoch.Add(time.Second)
	for _, m := range []Member{b, a} {
		if err := r.Put(ctx, m, time.Hour); err != nil {
			t.Fatal(err)
		}
	}
	if err := r.Put(ctx, Member{ID: "x"}, time.Hour); err == nil {
		t.Error("Put of an invalid record succeeded")
	}
	// A record nobody can read is skipped, not fatal to the listing.
	if _, err := store.Atomic().Set(Key("corrupt"), []byte("{"), 0).Commit(ctx); err != nil {
		t.Fatal(err)
	}
	before := time.Now()
	ms, err := r.List(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if got := ids(ms); !equal(got, []string{"a", "b"}) {
		t.Fatalf("List = %v, want [a b]", got)
	}
	got := ms[0]
	if got.Expires.Before(before.Add(59*time.Minute)) || got.Expires.After(before.Add(61*time.Minute)) {
		t.Errorf("Expires = %s, want about an hour from now", got.Expires)
	}
	got.Expires = time.Time{}
	if got != a {
		t.Errorf("listed %+v, want %+v", got, a)
	}
	if m, ok, err := r.Get(ctx, "b"); err != nil || !ok || m.State != StateReady {
		t.Errorf("Get(b) = %+v, %v, %v", m, ok, err)
	}
	if _, ok, err := r.Get(ctx, "nobody"); err != nil || ok {
		t.Errorf("Get(nobody) = %v, %v; want absent", ok, err)
	}
	deposed := member("d", StateReady)
	deposed.Deposed = true
	if err := r.Put(ctx, deposed, time.Hour); err != nil {
		t.Fatal(err)
	}
	for id, want := range map[string]bool{"b": true, "d": false, "nobody": false} {
		if got, err := r.Answers(ctx, id); err != nil || got != want {
			t.Errorf("Answers(%s) = %v, %v; want %v", id, got, err, want)
		}
	}
	if err := r.Remove(ctx, "d"); err != nil {
		t.Fatal(err)
	}

	if err := r.Remove(ctx, "a"); err != nil {
		t.Fatal(err)
	}
	if err := r.Remove(ctx, "a"); err != nil {
		t.Errorf("removing a removed member: %v", err)
	}
	if ms, _ := r.List(ctx); !equal(ids(ms), []string{"b"}) {
		t.Errorf("after Remove List = %v", ids(ms))
	}

	// TTL by the server's clock.
	if err := r.Put(ctx, member("short", StateReady), 200*time.Millisecond); err != nil {
		t.Fatal(err)
	}
	wait.For(t, "the short-lived record to expire", func() bool {
		ms, err := r.List(ctx)
		return err == nil && equal(ids(ms), []string{"b"})
	})
}

// switchable is a Recorder whose writes can be cut off, as a replica that
// froze or lost its network would stop writing.
type switchable struct {
	Recorder
	off atomic.Bool
}

func (s *switchable) Put(ctx context.Context, m Member, ttl time.Duration) error {
	if s.off.Load() {
		return errDown
	}
	return s.Recorder.Put(ctx, m, ttl)
}

// TestFleetView runs three heartbeats and a view on one real coordination
// store: a drain, a clean exit and a crash each leave the ready set.
func TestFleetView(t *testing.T) {
	ctx := context.Background()
	reg := NewRegistry(openStore(t), nil)
	quiet := slog.New(slog.DiscardHandler)
	const ttl = 1500 * time.Millisecond

	beats := map[string]*Heartbeat{}
	recs := map[string]*switchable{}
	for _, id := range []string{"r1", "r2", "r3"} {
		rec := &switchable{Recorder: reg}
		h, err := NewHeartbeat(rec, Member{ID: id, Internal: id + ":8788"}, HeartbeatOptions{TTL: ttl, Logger: quiet})
		if err != nil {
			t.Fatal(err)
		}
		if err := h.Start(ctx); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { h.Stop(context.Background()) })
		beats[id], recs[id] = h, rec
	}
	view, err := NewView(reg, ViewOptions{Interval: 100 * time.Millisecond, Logger: quiet})
	if err != nil {
		t.Fatal(err)
	}
	if err := view.Start(ctx); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { view.Stop(context.Background()) })
	if got := view.Ready(); len(got) != 0 {
		t.Errorf("starting members are ready: %v", ids(got))
	}
	for _, h := range beats {
		if err := h.SetState(ctx, StateReady); err != nil {
			t.Fatal(err)
		}
	}
	waitReady := func(what string, want ...string) time.Duration {
		t.Helper()
		start := time.Now()
		wait.For(t, what, func() bool { return equal(ids(view.Ready()), want) })
		return time.Since(start)
	}
	waitReady("all three ready", "r1", "r2", "r3")

	if err := beats["r2"].SetState(ctx, StateDraining); err != nil {
		t.Fatal(err)
	}
	took := waitReady("r2 to drop out on drain", "r1", "r3")
	t.Logf("a drain left the ready set after %s (view interval 100ms)", took)
	if m, ok := view.Get("r2"); !ok || m.State != StateDraining {
		t.Errorf("draining member: %+v, %v", m, ok)
	}

	if err := beats["r3"].Stop(ctx); err != nil {
		t.Fatal(err)
	}
	waitReady("r3 to leave on Stop", "r1")
	if _, ok := view.Get("r3"); ok {
		t.Error("a stopped member is still listed")
	}

	recs["r1"].off.Store(true) // r1 freezes: its record expires
	took = waitReady("r1 to expire")
	t.Logf("a frozen member left the ready set %s after its writes stopped (ttl %s)", took, ttl)
	if took > 2*ttl {
		t.Errorf("frozen member stayed %s, want about the ttl %s", took, ttl)
	}
}
