package jsrt_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dop251/goja"

	"github.com/dwk/fleet/appliance/jsworker/jsrt"
	"github.com/dwk/fleet/appliance/jsworker/jsrt/jsrttest"
)

func TestEvalValuesAndPromises(t *testing.T) {
	iso := jsrttest.New(t)
	for _, tc := range []struct{ body, want string }{
		{"return 1 + 1", "2"},
		{"return await new Promise(r => setTimeout(() => r('late'), 5))", `"late"`},
		{"let n = 0; const id = setInterval(() => n++, 1); await new Promise(r => setTimeout(r, 30)); clearInterval(id); return n > 3", "true"},
		{"const order = []; queueMicrotask(() => order.push('micro')); order.push('sync'); await null; return order", `["sync","micro"]`},
		{"return typeof performance.now()", `"number"`},
		{"return navigator.userAgent", `"Cloudflare-Workers"`},
	} {
		if got := jsrttest.MustEval(t, iso, tc.body); got != tc.want {
			t.Errorf("%s: got %s, want %s", tc.body, got, tc.want)
		}
	}
}

func TestRejectionIsAnError(t *testing.T) {
	iso := jsrttest.New(t)
	_, err := jsrttest.Eval(iso, "throw new TypeError('bad input')")
	var je *jsrt.Error
	if !errors.As(err, &je) || je.Name != "TypeError" || je.Message != "bad input" {
		t.Fatalf("got %#v, want a TypeError 'bad input'", err)
	}
	if !strings.Contains(je.Stack, "TypeError: bad input") {
		t.Errorf("stack %q does not name the error", je.Stack)
	}
}

func TestCPULimitInterruptsOneEvent(t *testing.T) {
	iso, err := jsrt.New(jsrt.Config{Name: "cpu", CPULimit: 100 * time.Millisecond, Logger: jsrttest.Logger(t)})
	if err != nil {
		t.Fatal(err)
	}
	defer iso.Close()
	start := time.Now()
	_, err = jsrttest.Eval(iso, "for (;;) {}")
	if !errors.Is(err, jsrt.ErrCPULimit) {
		t.Fatalf("endless loop: got %v, want ErrCPULimit", err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("interrupt took %v", d)
	}
	// The isolate goes on serving.
	if got := jsrttest.MustEval(t, iso, "return 'alive'"); got != `"alive"` {
		t.Errorf("after the interrupt: got %s", got)
	}
}

func TestHangDetection(t *testing.T) {
	iso, err := jsrt.New(jsrt.Config{Name: "hang", DetectHangs: true, Logger: jsrttest.Logger(t)})
	if err != nil {
		t.Fatal(err)
	}
	defer iso.Close()
	if _, err := jsrttest.Eval(iso, "await new Promise(() => {})"); !errors.Is(err, jsrt.ErrHung) {
		t.Fatalf("a promise nothing settles: got %v, want ErrHung", err)
	}
	// A pending timer is something to wait for.
	if got := jsrttest.MustEval(t, iso, "await new Promise(r => setTimeout(r, 20)); return 1"); got != "1" {
		t.Errorf("timer: got %s", got)
	}
}

func TestAsyncBridgeAndContext(t *testing.T) {
	type key struct{}
	ext := jsrt.Extension{Name: "probe", Install: func(iso *jsrt.Isolate, host *goja.Object) error {
		host.Set("slow", func(c goja.FunctionCall) goja.Value {
			in := c.Argument(0).String()
			return iso.Async(func(ctx context.Context) (jsrt.Settle, error) {
				time.Sleep(time.Millisecond)
				if in == "fail" {
					return nil, errors.New("it failed")
				}
				tag, _ := ctx.Value(key{}).(string)
				return func(rt *goja.Runtime) (goja.Value, error) { return rt.ToValue(in + "/" + tag), nil }, nil
			})
		})
		return nil
	}, JS: "internal.slow = host.slow; global.slow = host.slow;"}
	iso, err := jsrt.New(jsrt.Config{Name: "async", Extensions: []jsrt.Extension{ext}, Logger: jsrttest.Logger(t)})
	if err != nil {
		t.Fatal(err)
	}
	defer iso.Close()
	var wg sync.WaitGroup
	for _, tag := range []string{"a", "b", "c"} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ctx := context.WithValue(context.Background(), key{}, tag)
			ev := iso.NewEvent(ctx)
			defer ev.End()
			got, err := jsrt.Call(ev, jsrt.CallOptions{}, func(rt *goja.Runtime) (goja.Value, error) {
				return rt.RunString("(async () => { await null; const x = await slow('in'); await new Promise(r => setTimeout(r, 1)); return slow(x) })()")
			}, func(rt *goja.Runtime, v goja.Value) (string, error) { return v.String(), nil })
			if err != nil || got != "in/"+tag+"/"+tag {
				t.Errorf("event %s: got %q, %v", tag, got, err)
			}
		}()
	}
	wg.Wait()
	if _, err := jsrttest.Eval(iso, "await slow('fail')"); err == nil || !strings.Contains(err.Error(), "it failed") {
		t.Errorf("failing host call: got %v", err)
	}
}

func TestAsyncLocalStorage(t *testing.T) {
	// internal.AsyncLocalStorage is reached through a test extension.
	iso := jsrttest.New(t, jsrt.Extension{Name: "expose", JS: "global.ALS = internal.AsyncLocalStorage;"})
	got := jsrttest.MustEval(t, iso, `
		const als = new ALS();
		const seen = [];
		await Promise.all(["a", "b"].map(v => als.run(v, async () => {
			await new Promise(r => setTimeout(r, v === "a" ? 10 : 1));
			seen.push(v + "=" + als.getStore());
			await null;
			seen.push(v + "=" + als.getStore());
		})));
		const bound = als.run("x", () => ALS.bind(() => als.getStore()));
		return [seen.sort(), als.getStore() === undefined, bound()];`)
	if want := `[["a=a","a=a","b=b","b=b"],true,"x"]`; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
}

func TestConsoleGoesToTheLog(t *testing.T) {
	var buf bytes.Buffer
	var mu sync.Mutex
	log := slog.New(slog.NewTextHandler(lockedWriter{&mu, &buf}, &slog.HandlerOptions{Level: slog.LevelDebug}))
	iso, err := jsrt.New(jsrt.Config{Name: "console", Logger: log})
	if err != nil {
		t.Fatal(err)
	}
	defer iso.Close()
	jsrttest.MustEval(t, iso, `console.log("n=%d", 5, {a: [1, "x"], b: null}); console.error(new Error("boom"))`)
	mu.Lock()
	out := buf.String()
	mu.Unlock()
	for _, want := range []string{`msg="n=5 { a: [ 1, 'x' ], b: null }"`, "level=ERROR", "Error: boom"} {
		if !strings.Contains(out, want) {
			t.Errorf("log %q lacks %q", out, want)
		}
	}
}

func TestCloseFailsWaiters(t *testing.T) {
	iso, err := jsrt.New(jsrt.Config{Name: "close", Logger: jsrttest.Logger(t)})
	if err != nil {
		t.Fatal(err)
	}
	errc := make(chan error, 1)
	go func() {
		_, err := jsrttest.Eval(iso, "await new Promise(r => setTimeout(r, 60000))")
		errc <- err
	}()
	time.Sleep(20 * time.Millisecond)
	iso.Close()
	select {
	case err := <-errc:
		if !errors.Is(err, jsrt.ErrClosed) {
			t.Errorf("got %v, want ErrClosed", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("a waiter outlived Close")
	}
}

type lockedWriter struct {
	mu *sync.Mutex
	w  *bytes.Buffer
}

func (l lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

func TestMemoryLimitRestartsTheIsolate(t *testing.T) {
	iso, err := jsrt.New(jsrt.Config{Name: "mem", MemoryLimit: 32 << 20, Logger: jsrttest.Logger(t)})
	if err != nil {
		t.Fatal(err)
	}
	defer iso.Close()
	start := time.Now()
	_, err = jsrttest.Eval(iso, "const keep = []; for (;;) keep.push(new Array(4096).fill(1))")
	if !errors.Is(err, jsrt.ErrMemoryLimit) {
		t.Fatalf("unbounded growth: got %v, want ErrMemoryLimit", err)
	}
	// The live heap is known after each collection; under -race on a
	// loaded machine the growth takes a while.
	if d := time.Since(start); d > 45*time.Second {
		t.Errorf("the limit took %v to act", d)
	}
	select {
	case <-iso.Done():
	case <-time.After(5 * time.Second):
		t.Fatal("the isolate did not close")
	}
	if !iso.Closed() {
		t.Error("Closed() is false after a memory restart")
	}
}

func TestANativePanicRestartsTheIsolate(t *testing.T) {
	ext := jsrt.Extension{Name: "boom", Install: func(iso *jsrt.Isolate, host *goja.Object) error {
		host.Set("boom", func(goja.FunctionCall) goja.Value {
			var m map[string]int
			m["x"] = 1 // a Go panic, not a JavaScript exception
			return nil
		})
		return nil
	}, JS: "global.boom = host.boom;"}
	iso, err := jsrt.New(jsrt.Config{Name: "panic", Extensions: []jsrt.Extension{ext}, Logger: jsrttest.Logger(t)})
	if err != nil {
		t.Fatal(err)
	}
	defer iso.Close()
	if _, err := jsrttest.Eval(iso, "boom()"); err == nil {
		t.Fatal("a panicking native: got no error")
	}
	select {
	case <-iso.Done():
	case <-time.After(5 * time.Second):
		t.Fatal("the isolate did not close after a native panicked")
	}
}

// TestHostileRejectionDoesNotWedge: an unhandled rejection whose value
// throws when it is reported (its toString, or a getter) is reported
// without it, and the isolate goes on.
func TestHostileRejectionDoesNotWedge(t *testing.T) {
	iso := jsrttest.New(t)
	done := make(chan struct{})
	go func() {
		defer close(done)
		jsrttest.Eval(iso, `Promise.reject({ get name() { throw 1 }, get message() { throw 2 }, toString() { throw 3 } }); 1`)
	}()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("the call did not return")
	}
	if got, err := jsrttest.Eval(iso, "return 2"); err != nil || got != "2" {
		t.Fatalf("the next call: %q, %v", got, err)
	}
}

// TestManyCallersNeverStall: callers that run the isolate's queue
// themselves, timers and settled Go work hand the isolate to one another
// thousands of times; no job may be left queued with nobody to run it.
func TestManyCallersNeverStall(t *testing.T) {
	iso := jsrttest.New(t)
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for g := range 8 {
		wg.Go(func() {
			for k := range 300 {
				body := "return 1"
				switch (g + k) % 3 {
				case 1:
					body = "await new Promise((r) => setTimeout(r, 0)); return 1"
				case 2:
					body = "await Promise.resolve(); await null; return 1"
				}
				if got, err := jsrttest.Eval(iso, body); err != nil || got != "1" {
					errs <- fmt.Errorf("caller %d, call %d: %q, %v", g, k, got, err)
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}
