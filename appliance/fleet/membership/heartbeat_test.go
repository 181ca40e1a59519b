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

func newTestHeartbeat(t *testing.T, rec Recorder, clk clock.Clock) *Heartbeat {
	t.Helper()
	self := Member{ID: "r1", Internal: "10.0.0.1:8788", Public: "10.0.0.1:8787", Version: "v1"}
	h, err := NewHeartbeat(rec, self, HeartbeatOptions{TTL: 9 * time.Second, Clock: clk, Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		h.Stop(ctx)
	})
	return h
}

func TestHeartbeatLifecycle(t *testing.T) {
	ctx := context.Background()
	clock, store := newFakeClock(), newMemStore()
	h := newTestHeartbeat(t, store, clock)

	if err := h.Start(ctx); err != nil {
		t.Fatal(err)
	}
	if err := h.Start(ctx); !errors.Is(err, ErrStarted) {
		t.Errorf("second Start = %v, want ErrStarted", err)
	}
	puts := store.putLog()
	if len(puts) != 1 || puts[0].State != StateStarting || !puts[0].Started.Equal(epoch) || !puts[0].Heartbeat.Equal(epoch) {
		t.Fatalf("Start wrote %+v, want one starting record stamped with the clock", puts)
	}

	// Periodic writes every TTL/3.
	for i := 1; i <= 3; i++ {
		clock.WaitCalls(t, i)
		clock.Advance(3 * time.Second)
		wait.For(t, "a periodic write", func() bool { return len(store.putLog()) == 1+i })
	}
	if got := store.putLog()[3].Heartbeat; !got.Equal(epoch.Add(9 * time.Second)) {
		t.Errorf("third periodic write stamped %s, want %s", got, epoch.Add(9*time.Second))
	}
	if st := h.Status(); !st.LastWrite.Equal(epoch.Add(9*time.Second)) || !st.ValidUntil.Equal(epoch.Add(18*time.Second)) || st.Failures != 0 {
		t.Errorf("Status = %+v", st)
	}

	// State changes are written at once.
	if err := h.SetState(ctx, StateReady); err != nil {
		t.Fatal(err)
	}
	if got := store.putLog(); got[len(got)-1].State != StateReady {
		t.Errorf("SetState(ready) wrote %+v", got[len(got)-1])
	}
	if err := h.SetState(ctx, StateDraining); err != nil {
		t.Fatal(err)
	}
	if err := h.SetState(ctx, StateReady); !errors.Is(err, ErrTransition) {
		t.Errorf("draining → ready = %v, want ErrTransition", err)
	}
	if err := h.SetState(ctx, StateDraining); err != nil {
		t.Errorf("draining → draining = %v, want a rewrite", err)
	}
	if got := h.Self().State; got != StateDraining {
		t.Errorf("Self().State = %s", got)
	}

	// Stop removes the record; nothing is written after.
	if err := h.Stop(ctx); err != nil {
		t.Fatal(err)
	}
	n := len(store.putLog())
	if _, ok := store.members["r1"]; ok || len(store.removed) != 1 {
		t.Errorf("after Stop: members %v, removed %v; want the record gone", store.members, store.removed)
	}
	clock.Advance(time.Minute)
	if err := h.SetState(ctx, StateDraining); !errors.Is(err, ErrStopped) {
		t.Errorf("SetState after Stop = %v, want ErrStopped", err)
	}
	if got := len(store.putLog()); got != n {
		t.Errorf("%d writes after Stop", got-n)
	}
	if err := h.Stop(ctx); err != nil {
		t.Errorf("second Stop = %v", err)
	}
}

func TestHeartbeatSetStateBeforeStart(t *testing.T) {
	ctx := context.Background()
	store := newMemStore()
	h := newTestHeartbeat(t, store, newFakeClock())
	if err := h.SetState(ctx, StateReady); err != nil {
		t.Fatal(err)
	}
	if len(store.putLog()) != 0 {
		t.Fatal("SetState before Start wrote")
	}
	if err := h.Start(ctx); err != nil {
		t.Fatal(err)
	}
	if got := store.putLog(); len(got) != 1 || got[0].State != StateReady {
		t.Errorf("Start wrote %+v, want the state set before it", got)
	}
}

func TestHeartbeatFailures(t *testing.T) {
	ctx := context.Background()
	clock, store := newFakeClock(), newMemStore()
	h := newTestHeartbeat(t, store, clock)

	store.setErr(errDown)
	if err := h.Start(ctx); !errors.Is(err, errDown) {
		t.Fatalf("Start on a failing store = %v, want errDown", err)
	}
	store.setErr(nil)
	if err := h.Start(ctx); err != nil {
		t.Fatalf("Start after the store came back = %v", err)
	}

	store.setErr(errDown)
	if err := h.SetState(ctx, StateReady); !errors.Is(err, errDown) {
		t.Errorf("SetState on a failing store = %v, want errDown", err)
	}
	clock.WaitCalls(t, 1)
	clock.Advance(3 * time.Second)
	wait.For(t, "two failures", func() bool { return h.Status().Failures == 2 })
	if st := h.Status(); !errors.Is(st.Err, errDown) || !st.LastWrite.Equal(epoch) {
		t.Errorf("Status = %+v, want the failure and the last good write", st)
	}

	// The state that failed to go out goes with the next write.
	store.setErr(nil)
	clock.WaitCalls(t, 2)
	clock.Advance(3 * time.Second)
	wait.For(t, "recovery", func() bool { return h.Status().Failures == 0 })
	if got := store.putLog(); got[len(got)-1].State != StateReady {
		t.Errorf("write after recovery carried %s, want ready", got[len(got)-1].State)
	}
}

func TestHeartbeatStopIsBounded(t *testing.T) {
	clock, store := newFakeClock(), newMemStore()
	h := newTestHeartbeat(t, store, clock)
	if err := h.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	// The next periodic write hangs until its timeout (3s on a clock that
	// does not move; context timeouts use the real clock).
	store.mu.Lock()
	store.block, store.blocked = make(chan struct{}), make(chan struct{}, 1)
	store.mu.Unlock()
	clock.WaitCalls(t, 1)
	clock.Advance(3 * time.Second)
	<-store.blocked
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	start := time.Now()
	if err := h.Stop(ctx); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("Stop with a write in flight = %v, want DeadlineExceeded", err)
	}
	if took := time.Since(start); took > 2*time.Second {
		t.Errorf("Stop took %s", took)
	}
}

func TestHeartbeatOptions(t *testing.T) {
	self := member("a", StateStarting)
	for _, o := range []HeartbeatOptions{
		{TTL: -time.Second},
		{TTL: time.Second, Interval: time.Second},
		{Interval: time.Minute},
	} {
		if _, err := NewHeartbeat(newMemStore(), self, o); !errors.Is(err, ErrOptions) {
			t.Errorf("NewHeartbeat(%+v) = %v, want ErrOptions", o, err)
		}
	}
	if _, err := NewHeartbeat(newMemStore(), Member{ID: "a"}, HeartbeatOptions{}); !errors.Is(err, ErrInvalidMember) {
		t.Errorf("NewHeartbeat without an internal address = %v, want ErrInvalidMember", err)
	}
}
