package objects_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/dwk/fleet/appliance/bindings/objects"
	"github.com/dwk/fleet/appliance/process/clock/clocktest"
	"github.com/dwk/fleet/appliance/worker"
	"github.com/dwk/fleet/test/wait"
)

func fetchBody(t *testing.T, s worker.Stub, target string) (string, error) {
	t.Helper()
	req := httptest.NewRequest(http.MethodGet, target, nil)
	resp, err := s.Fetch(context.Background(), req)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return string(b), err
}

func TestConfigValidate(t *testing.T) {
	err := objects.Config{}.Validate()
	if err == nil {
		t.Fatal("empty config validated")
	}
	for _, want := range []string{"secret", "store", "alarm index"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not mention %s", err, want)
		}
	}
	rt := objects.New(objects.Config{})
	if err := rt.Open(context.Background()); err == nil {
		t.Error("Open with an invalid config succeeded")
	}
}

func TestNamespaceRejectsBadClasses(t *testing.T) {
	rt := newRuntime(t, nil)
	if _, err := rt.Namespace("X", "objects_test.NotRegistered"); !errors.Is(err, objects.ErrUnknownClass) {
		t.Errorf("unregistered class: err = %v, want ErrUnknownClass", err)
	}
	if _, err := rt.Namespace("X", "../etc"); err == nil {
		t.Error("class name with a path accepted")
	}
}

func TestLifecycleErrors(t *testing.T) {
	rt := objects.New(objects.Config{Secret: []byte("s")})
	ns, err := rt.Namespace("ECHO", echoClass)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := fetchBody(t, ns.Get(ns.IDFromName("a")), "http://x/"); !errors.Is(err, objects.ErrNotOpen) {
		t.Errorf("before Open: err = %v, want ErrNotOpen", err)
	}
	rt = newRuntime(t, nil)
	ns, _ = rt.Namespace("ECHO", echoClass)
	if err := rt.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	if _, err := fetchBody(t, ns.Get(ns.IDFromName("a")), "http://x/"); !errors.Is(err, objects.ErrClosed) {
		t.Errorf("after Close: err = %v, want ErrClosed", err)
	}
	if err := rt.Close(context.Background()); err != nil {
		t.Errorf("second Close: %v", err)
	}
}

func TestCallCycleIsAnError(t *testing.T) {
	var ns worker.ObjectNamespace
	rt := newRuntime(t, func(c *objects.Config) {
		c.Env = func(string) *worker.Env {
			return worker.NewEnv("cycle", worker.Bindings{Objects: map[string]worker.ObjectNamespace{"SELF": ns}})
		}
	})
	ns, _ = rt.Namespace("SELF", cycleClass)
	got, err := fetchBody(t, ns.Get(ns.IDFromName("loop")), "http://x/")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(got, objects.ErrCallCycle.Error()) {
		t.Errorf("self-call answered %q, want the call-cycle error", got)
	}
}

func TestForwardsWhenObjectRunsElsewhere(t *testing.T) {
	placer := &fakePlacer{elsewhere: "10.0.0.2:8081"}
	fwd := &fakeForwarder{}
	rt := newRuntime(t, func(c *objects.Config) { c.Placer, c.Forwarder = placer, fwd })
	ns, _ := rt.Namespace("ECHO", echoClass)
	s := ns.Get(ns.IDFromName("remote"))
	got, err := fetchBody(t, s, "http://x/")
	if err != nil || got != "forwarded to 10.0.0.2:8081" {
		t.Errorf("Fetch = %q, %v", got, err)
	}
	rec := httptest.NewRecorder()
	s.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "http://x/", nil))
	if rec.Body.String() != "forwarded to 10.0.0.2:8081" {
		t.Errorf("ServeHTTP wrote %q", rec.Body.String())
	}
	if n := rt.ActiveObjects(); n != 0 {
		t.Errorf("%d instances kept for a remote object", n)
	}
}

func TestLostLeaseStopsInstance(t *testing.T) {
	placer := &fakePlacer{}
	rt := newRuntime(t, func(c *objects.Config) { c.Placer = placer })
	ns, _ := rt.Namespace("ECHO", echoClass)
	s := ns.Get(ns.IDFromName("leased"))
	if _, err := fetchBody(t, s, "http://x/"); err != nil {
		t.Fatal(err)
	}
	placer.mu.Lock()
	first := placer.leases[0]
	placer.mu.Unlock()
	close(first.lost)
	select {
	case <-first.released:
	case <-time.After(10 * time.Second):
		t.Fatal("lost lease was not released")
	}
	wait.For(t, "the instance to stop", func() bool { return rt.ActiveObjects() == 0 })
	if _, err := fetchBody(t, s, "http://x/"); err != nil {
		t.Fatal(err)
	}
	placer.mu.Lock()
	defer placer.mu.Unlock()
	if placer.claims != 2 {
		t.Errorf("claims = %d, want 2 (the next event claims again)", placer.claims)
	}
}

func TestInvalidStub(t *testing.T) {
	rt := newRuntime(t, nil)
	ns, _ := rt.Namespace("ECHO", echoClass)
	forged := worker.NewObjectID(echoClass, "", [32]byte{1})
	if _, err := fetchBody(t, ns.Get(forged), "http://x/"); !errors.Is(err, worker.ErrInvalidObjectID) {
		t.Errorf("forged id: err = %v, want ErrInvalidObjectID", err)
	}
	rec := httptest.NewRecorder()
	ns.Get(forged).ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "http://x/", nil))
	if rec.Code != http.StatusBadRequest {
		t.Errorf("forged id via ServeHTTP: status %d, want 400", rec.Code)
	}
}

// TestAlarmBackoff checks the default schedule with a fake clock: retries
// 2 s, 4 s, 8 s, 16 s, 32 s and 64 s after each failed attempt, then the
// alarm is dropped.
func TestAlarmBackoff(t *testing.T) {
	clock := clocktest.NewFake(time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC))
	setFailerClock(clock)
	idx := newMemIndex()
	rt := newRuntime(t, func(c *objects.Config) {
		c.Clock, c.Alarms = clock, idx
		c.AlarmPollInterval, c.AlarmRetryBase = 0, 0 // defaults: 1 s, 2 s
	})
	ns, _ := rt.Namespace("FAILER", failerClass)
	s := ns.Get(ns.NewUniqueID())
	start := clock.Now()
	if _, err := fetchBody(t, s, "http://x/?at="+url.QueryEscape(start.Format(http.TimeFormat))); err != nil {
		t.Fatal(err)
	}
	// Time moves in steps of 250 ms; each step, note the retry booked.
	const step = 250 * time.Millisecond
	booked := map[int]time.Time{}
	deadline := time.Now().Add(20 * time.Second)
	for {
		if e, ok := idx.get(s.ID()); ok && e.Retries > 0 {
			if _, seen := booked[e.Retries]; !seen {
				booked[e.Retries] = e.At
			}
		}
		_, pending := idx.get(s.ID())
		if len(failerAttempts(s.ID())) == 7 && !pending {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("timed out: attempts at %v, retries booked %v", failerAttempts(s.ID()), booked)
		}
		// Advance only once the scheduler and the janitor both wait on the
		// clock, every attempt made has booked its retry (or given up),
		// and no alarm is due without its attempt having begun, so a
		// loaded machine cannot make the runtime fall behind fake time.
		settled := func() bool {
			st := rt.Stats()
			if e, ok := idx.get(s.ID()); ok && !e.At.After(clock.Now()) {
				return false // due: its attempt has not booked a retry yet
			}
			return len(clock.Timers()) >= 2 && int64(len(failerAttempts(s.ID()))) == st.AlarmsRetried+st.AlarmsFailed
		}
		for wait := time.Now().Add(time.Second); !settled() && time.Now().Before(wait); {
			time.Sleep(time.Millisecond)
		}
		clock.Advance(step)
		time.Sleep(2 * time.Millisecond)
	}
	attempts := failerAttempts(s.ID())
	for i, delay := range []time.Duration{2, 4, 8, 16, 32, 64} {
		delay *= time.Second
		at, ok := booked[i+1]
		if !ok {
			t.Errorf("retry %d never booked", i+1)
			continue
		}
		// The delay counts from the failure, and time stands still from
		// the attempt until its retry is booked.
		if d := at.Sub(attempts[i]); d != delay {
			t.Errorf("retry %d booked %s after attempt %d, want %s", i+1, d, i+1, delay)
		}
		if attempts[i+1].Before(at) {
			t.Errorf("retry %d ran at %s, before its time %s", i+1, attempts[i+1].Sub(start), at.Sub(start))
		}
		if late := attempts[i+1].Sub(at); late > time.Second+4*step {
			t.Errorf("retry %d ran %s late", i+1, late)
		}
	}
	if got := rt.Stats().AlarmsFailed; got != 1 {
		t.Errorf("AlarmsFailed = %d, want 1", got)
	}
}
