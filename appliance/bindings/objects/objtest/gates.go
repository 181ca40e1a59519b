package objtest

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/dwk/fleet/appliance/bindings/objects"
	"github.com/dwk/fleet/appliance/worker"
)

// Input and output gates (worker.Concurrency): the probe classes are
// Gated (the default), StrictClass is Strict.

// gateWait bounds every wait of these tests for something that must
// happen.
const gateWait = 15 * time.Second

// stillOut is how long a test watches for an event that must not run
// yet. An event that wrongly runs does so within milliseconds; a slow
// machine can only make the check miss, never fail wrongly.
const stillOut = 300 * time.Millisecond

// waitFor waits for ch to close, up to gateWait.
func waitFor(ch <-chan struct{}, what string) error {
	select {
	case <-ch:
		return nil
	case <-time.After(gateWait):
		return fmt.Errorf("timed out waiting for %s", what)
	}
}

// result waits for one error from ch, up to gateWait.
func result(t *testing.T, ch <-chan error, what string) error {
	t.Helper()
	select {
	case err := <-ch:
		return err
	case <-time.After(gateWait):
		t.Fatalf("timed out waiting for %s", what)
		return nil
	}
}

// mustNotRun fails the test if ran closes within stillOut.
func mustNotRun(t *testing.T, ran <-chan struct{}, why string) {
	t.Helper()
	select {
	case <-ran:
		t.Error(why)
	case <-time.After(stillOut):
	}
}

// testGateOpensForCalls: while an event awaits a call to another object,
// another event of the object runs; each sees the other's writes.
func testGateOpensForCalls(t *testing.T, newStore func(*testing.T) Opener) {
	h := newHarness(t, newStore, nil)
	a, b := h.stub("gate-a"), h.other.Get(h.other.IDFromName("gate-b"))
	called, release := make(chan struct{}), make(chan struct{})
	first := make(chan error, 1)
	go func() {
		first <- h.call(a, func(ctx context.Context, o *probeObject) error {
			s := o.State.Storage
			if err := s.Put(ctx, "k", []byte("first")); err != nil {
				return err
			}
			err := h.callFrom(ctx, b, func(context.Context, *probeObject) error {
				close(called)
				return waitFor(release, "the test to end the call")
			})
			if err != nil {
				return err
			}
			v, err := s.Get(ctx, "k")
			if err != nil {
				return err
			}
			if string(v) != "second" {
				return fmt.Errorf("after the call k = %q, want %q, written by the event that ran meanwhile", v, "second")
			}
			return nil
		})
	}()
	if err := waitFor(called, "the first event's call"); err != nil {
		t.Fatal(err)
	}
	second := make(chan error, 1)
	go func() {
		second <- h.call(a, func(ctx context.Context, o *probeObject) error {
			s := o.State.Storage
			v, err := s.Get(ctx, "k")
			if err != nil {
				return err
			}
			if string(v) != "first" {
				return fmt.Errorf("k = %q, want %q, written by the event that awaits a call", v, "first")
			}
			return s.Put(ctx, "k", []byte("second"))
		})
	}()
	select {
	case err := <-second:
		if err != nil {
			t.Errorf("the event that ran while another awaited a call: %v", err)
		}
	case err := <-first:
		t.Fatalf("the first event ended before its call was let go: %v", err)
	case <-time.After(gateWait):
		t.Fatal("no other event ran while an event awaited a call (the input gate stayed closed)")
	}
	close(release)
	if err := result(t, first, "the first event"); err != nil {
		t.Error(err)
	}
}

// testGateClosedForStorage: an event inside a storage call keeps the
// others out (as the Serialization case shows for read-then-write
// increments).
func testGateClosedForStorage(t *testing.T, newStore func(*testing.T) Opener) {
	h := newHarness(t, newStore, nil)
	a := h.stub("gate-storage")
	inTx, release := make(chan struct{}), make(chan struct{})
	first := make(chan error, 1)
	go func() {
		first <- h.call(a, func(ctx context.Context, o *probeObject) error {
			return o.State.Storage.Transaction(ctx, func(tx *worker.StorageTx) error {
				if _, err := tx.Exec(ctx, "CREATE TABLE IF NOT EXISTS g (n INTEGER)"); err != nil {
					return err
				}
				close(inTx)
				return waitFor(release, "the test to end the transaction")
			})
		})
	}()
	if err := waitFor(inTx, "the transaction"); err != nil {
		t.Fatal(err)
	}
	ran := make(chan struct{})
	second := make(chan error, 1)
	go func() {
		second <- h.call(a, func(context.Context, *probeObject) error { close(ran); return nil })
	}()
	mustNotRun(t, ran, "another event ran while an event was inside a storage call")
	close(release)
	for _, ch := range []chan error{first, second} {
		if err := result(t, ch, "an event"); err != nil {
			t.Error(err)
		}
	}
}

// testGateBlockConcurrencyWhile: inside BlockConcurrencyWhile an event
// keeps its turn while it awaits a call: other events wait, and a call
// back into the object fails with ErrCallCycle instead of deadlocking.
func testGateBlockConcurrencyWhile(t *testing.T, newStore func(*testing.T) Opener) {
	h := newHarness(t, newStore, nil)
	a, b := h.stub("gate-bcw"), h.other.Get(h.other.IDFromName("gate-bcw-b"))
	called, release := make(chan struct{}), make(chan struct{})
	first := make(chan error, 1)
	go func() {
		first <- h.call(a, func(ctx context.Context, o *probeObject) error {
			return o.State.BlockConcurrencyWhile(ctx, func(ctx context.Context) error {
				return h.callFrom(ctx, b, func(ctx context.Context, _ *probeObject) error {
					err := h.callFrom(ctx, a, func(context.Context, *probeObject) error { return nil })
					if !errors.Is(err, objects.ErrCallCycle) {
						return fmt.Errorf("a call back into an object inside BlockConcurrencyWhile: %v, want ErrCallCycle", err)
					}
					close(called)
					return waitFor(release, "the test to end the call")
				})
			})
		})
	}()
	if err := waitFor(called, "the call made inside BlockConcurrencyWhile"); err != nil {
		t.Fatal(err)
	}
	ran := make(chan struct{})
	second := make(chan error, 1)
	go func() {
		second <- h.call(a, func(context.Context, *probeObject) error { close(ran); return nil })
	}()
	mustNotRun(t, ran, "another event ran while BlockConcurrencyWhile awaited a call")
	close(release)
	for _, ch := range []chan error{first, second} {
		if err := result(t, ch, "an event"); err != nil {
			t.Error(err)
		}
	}
}

// testCallBack: A calls B, which calls A back: the call back is an event
// of A that sees what A's waiting event wrote, and A's event sees what it
// wrote.
func testCallBack(t *testing.T, newStore func(*testing.T) Opener) {
	h := newHarness(t, newStore, nil)
	a, b := h.stub("callback-a"), h.other.Get(h.other.IDFromName("callback-b"))
	h.mustCall(a, func(ctx context.Context, o *probeObject) error {
		s := o.State.Storage
		if err := s.Put(ctx, "k", []byte("before")); err != nil {
			return err
		}
		err := h.callFrom(ctx, b, func(ctx context.Context, _ *probeObject) error {
			return h.callFrom(ctx, a, func(ctx context.Context, back *probeObject) error {
				if back != o {
					return errors.New("the call back reached another instance of the object")
				}
				v, err := back.State.Storage.Get(ctx, "k")
				if err != nil {
					return err
				}
				if string(v) != "before" {
					return fmt.Errorf("the call back read k = %q, want %q", v, "before")
				}
				return back.State.Storage.Put(ctx, "k", []byte("inside"))
			})
		})
		if err != nil {
			return fmt.Errorf("A→B→A: %w", err)
		}
		v, err := s.Get(ctx, "k")
		if err != nil {
			return err
		}
		if string(v) != "inside" {
			return fmt.Errorf("after the call k = %q, want %q", v, "inside")
		}
		return nil
	})
	// RPC goes the same way: Add on B calls nothing back, but a method
	// called from inside A's event opens A's gate as a fetch does.
	h.mustCall(a, func(ctx context.Context, _ *probeObject) error {
		_, err := worker.Call[addArg, addResult](ctx, b, "Add", addArg{By: 1})
		return err
	})
}

// testStrictCycle: a Strict object keeps its turn while it awaits a call:
// other events wait, and A→B→A fails with ErrCallCycle.
func testStrictCycle(t *testing.T, newStore func(*testing.T) Opener) {
	h := newHarness(t, newStore, nil)
	a, b := h.strict.Get(h.strict.IDFromName("strict-a")), h.other.Get(h.other.IDFromName("strict-b"))
	var back error
	h.mustCall(a, func(ctx context.Context, _ *probeObject) error {
		return h.callFrom(ctx, b, func(ctx context.Context, _ *probeObject) error {
			back = h.callFrom(ctx, a, func(context.Context, *probeObject) error { return nil })
			return nil
		})
	})
	if !errors.Is(back, objects.ErrCallCycle) {
		t.Errorf("A→B→A with A strict: %v, want ErrCallCycle", back)
	}

	called, release := make(chan struct{}), make(chan struct{})
	first := make(chan error, 1)
	go func() {
		first <- h.call(a, func(ctx context.Context, _ *probeObject) error {
			return h.callFrom(ctx, b, func(context.Context, *probeObject) error {
				close(called)
				return waitFor(release, "the test to end the call")
			})
		})
	}()
	if err := waitFor(called, "the strict object's call"); err != nil {
		t.Fatal(err)
	}
	ran := make(chan struct{})
	second := make(chan error, 1)
	go func() {
		second <- h.call(a, func(context.Context, *probeObject) error { close(ran); return nil })
	}()
	mustNotRun(t, ran, "another event of a strict object ran while one awaited a call")
	close(release)
	for _, ch := range []chan error{first, second} {
		if err := result(t, ch, "an event"); err != nil {
			t.Error(err)
		}
	}
}

// testGateDrain: a drain waits for an event that awaits a call (its gate
// open), which then finishes and keeps what it wrote after the call.
func testGateDrain(t *testing.T, newStore func(*testing.T) Opener) {
	h := newHarness(t, newStore, nil)
	a, b := h.stub("gate-drain"), h.other.Get(h.other.IDFromName("gate-drain-b"))
	called, release := make(chan struct{}), make(chan struct{})
	first := make(chan error, 1)
	go func() {
		first <- h.call(a, func(ctx context.Context, o *probeObject) error {
			err := h.callFrom(ctx, b, func(context.Context, *probeObject) error {
				close(called)
				return waitFor(release, "the test to end the call")
			})
			if err != nil {
				return err
			}
			return o.State.Storage.Put(ctx, "after", []byte("kept"))
		})
	}()
	if err := waitFor(called, "the call"); err != nil {
		t.Fatal(err)
	}
	drained := make(chan struct{})
	var derr error
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), gateWait)
		defer cancel()
		derr = h.rt.Drain(ctx)
		close(drained)
	}()
	mustNotRun(t, drained, "the drain ended while an event awaited a call")
	close(release)
	if err := result(t, first, "the event awaiting a call"); err != nil {
		t.Errorf("the event that awaited a call during a drain: %v", err)
	}
	if err := waitFor(drained, "the drain"); err != nil {
		t.Fatal(err)
	}
	if derr != nil {
		t.Fatalf("drain: %v", derr)
	}
	h.restart()
	h.mustCall(h.stub("gate-drain"), func(ctx context.Context, o *probeObject) error {
		v, err := o.State.Storage.Get(ctx, "after")
		if err != nil || string(v) != "kept" {
			return fmt.Errorf("after a restart, the write made after the call during the drain: %q, %v", v, err)
		}
		return nil
	})
}

// testGateHandlers: alarm and WebSocket message handlers open the gate
// while they await a call, as fetches do.
func testGateHandlers(t *testing.T, newStore func(*testing.T) Opener) {
	h := newHarness(t, newStore, nil)
	b := h.other.Get(h.other.IDFromName("gate-handlers-b"))
	for _, kind := range []string{"alarm", "websocket"} {
		called, release := make(chan struct{}), make(chan struct{})
		handler := make(chan error, 1)
		await := func(ctx context.Context) {
			handler <- h.callFrom(ctx, b, func(context.Context, *probeObject) error {
				close(called)
				return waitFor(release, "the test to end the call")
			})
		}
		a := "gate-" + kind
		switch kind {
		case "alarm":
			h.probe.setAlarm(func(ctx context.Context, _ *probeObject, _ worker.AlarmInfo) error {
				await(ctx)
				return nil
			})
			h.mustCall(h.stub(a), func(ctx context.Context, o *probeObject) error {
				return o.State.Storage.SetAlarm(ctx, time.Now().Add(10*time.Millisecond))
			})
		case "websocket":
			h.probe.setMessage(func(ctx context.Context, _ *probeObject, _ *worker.WebSocket, _ int, _ []byte) { await(ctx) })
			c := dial(t, h.wsServer(), a)
			if err := c.WriteMessage(websocket.TextMessage, []byte("call")); err != nil {
				t.Fatal(err)
			}
		}
		if err := waitFor(called, "the "+kind+" handler's call"); err != nil {
			t.Fatal(err)
		}
		fetched := make(chan error, 1)
		go func() { fetched <- h.call(h.stub(a), func(context.Context, *probeObject) error { return nil }) }()
		select {
		case err := <-fetched:
			if err != nil {
				t.Errorf("a fetch while the %s handler awaited a call: %v", kind, err)
			}
		case <-time.After(gateWait):
			t.Fatalf("no fetch ran while the %s handler awaited a call", kind)
		}
		close(release)
		if err := result(t, handler, "the "+kind+" handler"); err != nil {
			t.Errorf("the %s handler's call: %v", kind, err)
		}
	}
}
