package wasm

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/dop251/goja"

	"github.com/dwk/fleet/appliance/jsworker/jsrt"
	"github.com/dwk/fleet/appliance/jsworker/jsrt/jsrttest"
)

// TestRunawayLoopStopsAtTheCPULimit: jsrt's CPU limit cannot interrupt
// WebAssembly, so the extension stops the call itself.
func TestRunawayLoopStopsAtTheCPULimit(t *testing.T) {
	const limit = 200 * time.Millisecond
	iso, err := jsrt.New(jsrt.Config{
		Name:       "runaway",
		CPULimit:   limit,
		Extensions: []jsrt.Extension{New(Options{CPULimit: limit}), fixtures},
		Logger:     jsrttest.Logger(t),
	})
	if err != nil {
		t.Fatal(err)
	}
	defer iso.Close()
	runOne(t, iso, `globalThis.loops = new WebAssembly.Instance(new WebAssembly.Module(fixture("loop"))).exports`)

	start := time.Now()
	_, err = jsrttest.Eval(iso, `loops.spin()`)
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("the runaway call took %v to stop", d)
	}
	if !errors.Is(err, jsrt.ErrCPULimit) && (err == nil || !strings.Contains(err.Error(), "CPU time limit")) {
		t.Errorf("got %v, want the CPU limit", err)
	}
	t.Logf("the runaway call: %v", err)
	// The isolate and the instance go on.
	if got := runOne(t, iso, `return loops.count(1000)`); got != "1000" {
		t.Errorf("after the stop: got %s, want 1000", got)
	}
}

// TestRunawayLoopStopsWhenTheEventIsCancelled: a call ends with its
// event's context, and the isolate's loop is free again.
func TestRunawayLoopStopsWhenTheEventIsCancelled(t *testing.T) {
	iso := newIsolate(t)
	runOne(t, iso, `globalThis.loops = new WebAssembly.Instance(new WebAssembly.Module(fixture("loop"))).exports`)

	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	ev := iso.NewEvent(ctx)
	_, err := jsrt.Call(ev, jsrt.CallOptions{}, func(rt *goja.Runtime) (goja.Value, error) {
		return rt.RunString(`try { loops.spin() } catch (err) { globalThis.stopped = [err.name, err.message] }`)
	}, func(*goja.Runtime, goja.Value) (struct{}, error) { return struct{}{}, nil })
	ev.End()
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("the cancelled call: got %v, want its context's error", err)
	}

	// The loop is free only once the runaway stopped.
	start := time.Now()
	got := runOne(t, iso, `return globalThis.stopped`)
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("the next event waited %v", d)
	}
	if want := `["RuntimeError","the event was cancelled while WebAssembly was running: context deadline exceeded"]`; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
	if got := runOne(t, iso, `return loops.count(5)`); got != "5" {
		t.Errorf("after the stop: got %s, want 5", got)
	}
}

// TestACancelledEventCallsNoWebAssembly: a call made once the event's
// context ended throws at once.
func TestACancelledEventCallsNoWebAssembly(t *testing.T) {
	iso := newIsolate(t)
	runOne(t, iso, `globalThis.loops = new WebAssembly.Instance(new WebAssembly.Module(fixture("loop"))).exports`)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	ev := iso.NewEvent(ctx)
	defer ev.End()
	jsrt.Call(ev, jsrt.CallOptions{}, func(rt *goja.Runtime) (goja.Value, error) {
		return rt.RunString(`try { loops.count(1); globalThis.outcome = "ran" } catch (err) { globalThis.outcome = err.name }`)
	}, func(*goja.Runtime, goja.Value) (struct{}, error) { return struct{}{}, nil })
	if got := runOne(t, iso, `return globalThis.outcome`); got != `"RuntimeError"` {
		t.Errorf("got %s, want a RuntimeError", got)
	}
}
