package objects_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/dwk/fleet/appliance/bindings/objects"
	"github.com/dwk/fleet/appliance/bindings/objects/objlocal"
	"github.com/dwk/fleet/appliance/worker"
	"github.com/dwk/fleet/test/wait"
)

// hookClass objects run the function registered in hooks under their
// name (Gated, the default).
const hookClass = "objects_test.Hook"

type hookFunc func(w http.ResponseWriter, r *http.Request, h hook)

var hooks sync.Map // object name → hookFunc

func init() {
	worker.RegisterObject(hookClass, func(s *worker.State, env *worker.Env) worker.Object { return hook{s, env} })
}

type hook struct {
	s   *worker.State
	env *worker.Env
}

func (h hook) Fetch(w http.ResponseWriter, r *http.Request) {
	fn, ok := hooks.Load(h.s.ID.Name())
	if !ok {
		http.Error(w, "no hook for "+h.s.ID.Name(), http.StatusNotFound)
		return
	}
	fn.(hookFunc)(w, r, h)
}

// call fetches the hook object name through the HOOK binding, with ctx.
func (h hook) call(ctx context.Context, name, query string) (string, error) {
	ns := h.env.Object("HOOK")
	req, _ := http.NewRequest(http.MethodGet, "http://hook/?"+query, nil)
	resp, err := ns.Get(ns.IDFromName(name)).Fetch(ctx, req)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return string(b), err
}

// hookRuntime opens a runtime over store (nil: a local one) whose objects
// see their namespace as HOOK, and sets the hooks of names (prefixed with
// the test's name, which it returns as a function).
func hookRuntime(t *testing.T, store objects.ObjectStore, fns map[string]hookFunc) (*objects.Runtime, worker.ObjectNamespace, func(string) string) {
	t.Helper()
	name := func(n string) string { return t.Name() + "/" + n }
	for n, fn := range fns {
		hooks.Store(name(n), fn)
		t.Cleanup(func() { hooks.Delete(name(n)) })
	}
	var ns worker.ObjectNamespace
	rt := newRuntime(t, func(c *objects.Config) {
		if store != nil {
			c.Store = store
		}
		c.Env = func(string) *worker.Env {
			return worker.NewEnv("hooks", worker.Bindings{Objects: map[string]worker.ObjectNamespace{"HOOK": ns}})
		}
	})
	ns, _ = rt.Namespace("HOOK", hookClass)
	return rt, ns, name
}

func TestGatedSelfCallsAreBoundedInDepth(t *testing.T) {
	var name func(string) string
	_, ns, name := hookRuntime(t, nil, map[string]hookFunc{
		"rec": func(w http.ResponseWriter, r *http.Request, h hook) {
			n, _ := strconv.Atoi(r.URL.Query().Get("n"))
			if n == 0 {
				io.WriteString(w, "bottom")
				return
			}
			got, err := h.call(r.Context(), name("rec"), "n="+strconv.Itoa(n-1))
			if err != nil {
				got = err.Error()
			}
			io.WriteString(w, got)
		},
	})
	s := ns.Get(ns.IDFromName(name("rec")))
	if got, err := fetchBody(t, s, "http://x/?n=3"); err != nil || got != "bottom" {
		t.Errorf("an object calling itself 3 deep: %q, %v; want bottom", got, err)
	}
	got, err := fetchBody(t, s, "http://x/?n="+strconv.Itoa(objects.MaxCallDepth+2))
	if err != nil || !strings.Contains(got, objects.ErrCallDepth.Error()) {
		t.Errorf("an object calling itself without end: %q, %v; want %q", got, err, objects.ErrCallDepth)
	}
}

// TestOutputGateCommitsBeforeACall: writes made before a call are
// confirmed (made durable) before the callee runs.
func TestOutputGateCommitsBeforeACall(t *testing.T) {
	store := &gatedStore{Store: objlocal.NewStore(t.TempDir())}
	var name func(string) string
	_, ns, name := hookRuntime(t, store, map[string]hookFunc{
		"a": func(w http.ResponseWriter, r *http.Request, h hook) {
			if err := h.s.Storage.Put(r.Context(), "k", []byte("v")); err != nil {
				http.Error(w, err.Error(), http.StatusInternalServerError)
				return
			}
			got, err := h.call(r.Context(), name("b"), "")
			if err != nil {
				got = err.Error()
			}
			io.WriteString(w, got)
		},
		"b": func(w http.ResponseWriter, _ *http.Request, _ hook) {
			fmt.Fprint(w, store.confirms.Load())
		},
	})
	got, err := fetchBody(t, ns.Get(ns.IDFromName(name("a"))), "http://x/")
	if err != nil {
		t.Fatal(err)
	}
	if n, _ := strconv.Atoi(got); n < 1 {
		t.Errorf("the callee saw %q commits: the caller's write was not confirmed before its call left", got)
	}
}

// TestFailedCommitBeforeACallIsNotMade: when the writes made before a
// call cannot be made durable, the call is not made and the caller gets
// the error.
func TestFailedCommitBeforeACallIsNotMade(t *testing.T) {
	store := &gatedStore{Store: objlocal.NewStore(t.TempDir())}
	var called atomic.Int64
	var name func(string) string
	_, ns, name := hookRuntime(t, store, map[string]hookFunc{
		"a": func(w http.ResponseWriter, r *http.Request, h hook) {
			if err := h.s.Storage.Put(r.Context(), "k", []byte("v")); err != nil {
				http.Error(w, err.Error(), http.StatusInternalServerError)
				return
			}
			store.fail.Store(true)
			if _, err := h.call(r.Context(), name("b"), ""); err != nil {
				io.WriteString(w, "refused: "+err.Error())
				return
			}
			io.WriteString(w, "called")
		},
		"b": func(http.ResponseWriter, *http.Request, hook) { called.Add(1) },
	})
	got, err := fetchBody(t, ns.Get(ns.IDFromName(name("a"))), "http://x/")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(got, "refused: ") || !strings.Contains(got, "durable") {
		t.Errorf("a call after a failed commit: %q, want it refused", got)
	}
	if n := called.Load(); n != 0 {
		t.Errorf("the callee ran %d times after the caller's commit failed", n)
	}
}

// TestReleaseWaitsForEventsAwaitingCalls: a release waits for an event
// that awaits a call with its gate open; past its deadline it tears the
// object down and the event learns that its object was reset.
func TestReleaseWaitsForEventsAwaitingCalls(t *testing.T) {
	var (
		mu      sync.Mutex
		called  chan struct{}
		release chan struct{}
	)
	arm := func() (chan struct{}, chan struct{}) {
		mu.Lock()
		defer mu.Unlock()
		called, release = make(chan struct{}), make(chan struct{})
		return called, release
	}
	var name func(string) string
	rt, ns, name := hookRuntime(t, nil, map[string]hookFunc{
		"a": func(w http.ResponseWriter, r *http.Request, h hook) {
			if _, err := h.call(r.Context(), name("b"), ""); err != nil {
				io.WriteString(w, "call: "+err.Error())
				return
			}
			if err := h.s.Storage.Put(r.Context(), "after", []byte("v")); err != nil {
				io.WriteString(w, "put: "+err.Error())
				return
			}
			io.WriteString(w, "ok")
		},
		"b": func(http.ResponseWriter, *http.Request, hook) {
			mu.Lock()
			c, rel := called, release
			mu.Unlock()
			close(c)
			select {
			case <-rel:
			case <-time.After(10 * time.Second):
			}
		},
	})
	a := ns.Get(ns.IDFromName(name("a")))
	start := func() <-chan string {
		out := make(chan string, 1)
		go func() {
			got, err := fetchBody(t, a, "http://x/")
			if err != nil {
				got = err.Error()
			}
			out <- got
		}()
		return out
	}

	c, rel := arm()
	first := start()
	<-c
	type released struct {
		ok  bool
		err error
	}
	done := make(chan released, 1)
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		ok, err := rt.Release(ctx, a.ID())
		done <- released{ok, err}
	}()
	select {
	case r := <-done:
		t.Fatalf("Release returned (%v, %v) while an event awaited a call", r.ok, r.err)
	case <-time.After(200 * time.Millisecond):
	}
	close(rel)
	if got := <-first; got != "ok" {
		t.Errorf("the event awaiting a call during a release: %q, want ok", got)
	}
	if r := <-done; !r.ok || r.err != nil {
		t.Errorf("Release = %v, %v; want true, nil", r.ok, r.err)
	}

	c, rel = arm()
	second := start()
	<-c
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	ok, err := rt.Release(ctx, a.ID())
	cancel()
	if !ok || !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("Release past its deadline = %v, %v; want true and the deadline", ok, err)
	}
	close(rel)
	if got := <-second; !strings.Contains(got, worker.ErrObjectReset.Error()) {
		t.Errorf("the event whose object was released under it: %q, want %q", got, worker.ErrObjectReset)
	}
	// The object starts afresh for the next event.
	c, rel = arm()
	third := start()
	<-c
	close(rel)
	if got := <-third; got != "ok" {
		t.Errorf("the event after the release: %q, want ok", got)
	}
}

// TestReleaseLetsACallBackFinish: while a release waits for an event that
// awaits a call, a call back into the object from that call (A→B→A) runs
// on the instance being released, so the event, and then the release,
// finish at once instead of at a deadline.
func TestReleaseLetsACallBackFinish(t *testing.T) {
	called, release := make(chan struct{}), make(chan struct{})
	var name func(string) string
	rt, ns, name := hookRuntime(t, nil, map[string]hookFunc{
		"a": func(w http.ResponseWriter, r *http.Request, h hook) {
			if r.URL.Query().Get("back") != "" {
				io.WriteString(w, "back")
				return
			}
			got, err := h.call(r.Context(), name("b"), "")
			if err != nil {
				got = err.Error()
			}
			io.WriteString(w, got)
		},
		"b": func(w http.ResponseWriter, r *http.Request, h hook) {
			close(called)
			<-release
			got, err := h.call(r.Context(), name("a"), "back=1")
			if err != nil {
				got = err.Error()
			}
			io.WriteString(w, got)
		},
	})
	a := ns.Get(ns.IDFromName(name("a")))
	first := make(chan string, 1)
	go func() {
		got, err := fetchBody(t, a, "http://x/")
		if err != nil {
			got = err.Error()
		}
		first <- got
	}()
	<-called
	type released struct {
		ok  bool
		err error
	}
	done := make(chan released, 1)
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer cancel()
		ok, err := rt.Release(ctx, a.ID())
		done <- released{ok, err}
	}()
	// The release detaches the object (a and b were in memory) and waits.
	wait.For(t, "the release to detach the object", func() bool { return rt.ActiveObjects() == 1 })
	close(release)
	select {
	case got := <-first:
		if got != "back" {
			t.Errorf("A→B→A during a release answered %q, want back", got)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("A→B→A during a release did not finish")
	}
	if r := <-done; !r.ok || r.err != nil {
		t.Errorf("Release = %v, %v; want true, nil", r.ok, r.err)
	}
}

// goBackground is a worker.Background that runs work in goroutines.
type goBackground struct{ wg sync.WaitGroup }

var _ worker.Background = (*goBackground)(nil)

func (b *goBackground) Go(parent context.Context, fn func(context.Context)) error {
	b.wg.Add(1)
	go func() {
		defer b.wg.Done()
		fn(context.WithoutCancel(parent))
	}()
	return nil
}

// TestWaitUntilWorkKeepsTheGateClosed: a call made by work an event
// started with WaitUntil does not open the event's input gate while the
// event's own code runs.
func TestWaitUntilWorkKeepsTheGateClosed(t *testing.T) {
	called, release := make(chan struct{}), make(chan struct{})
	var (
		rt   *objects.Runtime
		name func(string) string
	)
	rt, ns, name := hookRuntime(t, nil, map[string]hookFunc{
		"a": func(w http.ResponseWriter, r *http.Request, h hook) {
			err := worker.WaitUntil(r.Context(), func(ctx context.Context) {
				if _, err := h.call(ctx, name("b"), ""); err != nil {
					t.Errorf("the call made by waitUntil work: %v", err)
				}
			})
			if err != nil {
				http.Error(w, err.Error(), http.StatusInternalServerError)
				return
			}
			select {
			case <-called:
			case <-time.After(10 * time.Second):
				http.Error(w, "the waitUntil work made no call", http.StatusInternalServerError)
				return
			}
			fmt.Fprint(w, rt.Stats().GateOpens)
		},
		"b": func(http.ResponseWriter, *http.Request, hook) {
			close(called)
			select {
			case <-release:
			case <-time.After(10 * time.Second):
			}
		},
	})
	bg := &goBackground{}
	ctx := worker.WithBackground(context.Background(), bg)
	req, _ := http.NewRequest(http.MethodGet, "http://x/", nil)
	resp, err := ns.Get(ns.IDFromName(name("a"))).Fetch(ctx, req)
	close(release)
	bg.wg.Wait()
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if string(body) != "0" {
		t.Errorf("gate opens while the event ran beside its waitUntil call: %q, want 0", body)
	}
}
