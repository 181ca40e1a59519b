package objtest

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/dwk/fleet/appliance/worker"
	"github.com/dwk/fleet/test/wait"
)

func testIDs(t *testing.T, newStore func(*testing.T) Opener) {
	h := newHarness(t, newStore, nil)
	a, a2, b := h.ns.IDFromName("a"), h.ns.IDFromName("a"), h.ns.IDFromName("b")
	if a.String() != a2.String() || !a.Equal(a2) {
		t.Errorf("IDFromName not deterministic: %s vs %s", a, a2)
	}
	if a.Equal(b) {
		t.Error("different names gave the same id")
	}
	if len(a.String()) != 64 || a.Name() != "a" || a.Namespace() != ProbeClass {
		t.Errorf("id %s: name %q, namespace %q", a, a.Name(), a.Namespace())
	}
	if h.other.IDFromName("a").String() == a.String() {
		t.Error("the same name in two classes gave the same id")
	}
	parsed, err := h.ns.IDFromString(a.String())
	if err != nil || !parsed.Equal(a) {
		t.Errorf("IDFromString(%s) = %s, %v", a, parsed, err)
	}
	u1, u2 := h.ns.NewUniqueID(), h.ns.NewUniqueID()
	if u1.Equal(u2) || u1.IsZero() {
		t.Errorf("unique ids %s and %s", u1, u2)
	}
	if p, err := h.ns.IDFromString(u1.String()); err != nil || !p.Equal(u1) {
		t.Errorf("IDFromString(unique) = %s, %v", p, err)
	}
	for name, s := range map[string]string{
		"other class": h.other.IDFromName("a").String(),
		"malformed":   "not-an-id",
		"flipped":     "0" + a.String()[1:],
	} {
		if name == "flipped" && a.String()[0] == '0' {
			s = "1" + a.String()[1:]
		}
		if _, err := h.ns.IDFromString(s); !errors.Is(err, worker.ErrInvalidObjectID) {
			t.Errorf("%s: IDFromString err = %v, want ErrInvalidObjectID", name, err)
		}
	}
	if err := h.call(h.ns.Get(h.other.IDFromName("a")), func(context.Context, *probeObject) error { return nil }); err == nil {
		t.Error("a stub for another class's id reached an object")
	}
	// Unique ids address real objects.
	h.mustCall(h.ns.Get(u1), func(ctx context.Context, o *probeObject) error {
		if !o.State.ID.Equal(u1) {
			t.Errorf("State.ID = %s, want %s", o.State.ID, u1)
		}
		return nil
	})
}

// increment reads, then writes, in two statements: only serialized
// delivery makes n end up right.
func increment(ctx context.Context, o *probeObject) error {
	s := o.State.Storage
	if _, err := s.Exec(ctx, "CREATE TABLE IF NOT EXISTS c (k INTEGER PRIMARY KEY, n INTEGER NOT NULL)"); err != nil {
		return err
	}
	c, err := s.Exec(ctx, "SELECT n FROM c WHERE k = 0")
	if err != nil {
		return err
	}
	var n int64
	if c.Next() {
		n = c.Row()[0].(int64)
	}
	_, err = s.Exec(ctx, "INSERT INTO c (k, n) VALUES (0, ?) ON CONFLICT (k) DO UPDATE SET n = excluded.n", n+1)
	return err
}

func readCount(t *testing.T, h *harness, s worker.Stub) int64 {
	t.Helper()
	var n int64
	h.mustCall(s, func(ctx context.Context, o *probeObject) error {
		c, err := o.State.Storage.Exec(ctx, "SELECT n FROM c WHERE k = 0")
		if err != nil {
			return err
		}
		row, err := c.One()
		if err != nil {
			return err
		}
		n = row["n"].(int64)
		if o.overlap.Load() {
			t.Error("two events of the object ran at the same time")
		}
		return nil
	})
	return n
}

func testSerialization(t *testing.T, newStore func(*testing.T) Opener) {
	h := newHarness(t, newStore, nil)
	s := h.stub("counter")
	var wg sync.WaitGroup
	errs := make(chan error, 100)
	for range 100 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := h.call(s, increment); err != nil {
				errs <- err
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	if n := readCount(t, h, s); n != 100 {
		t.Errorf("counter = %d after 100 concurrent increments, want 100", n)
	}
}

func testBlockConcurrencyWhile(t *testing.T, newStore func(*testing.T) Opener) {
	h := newHarness(t, newStore, nil)
	h.probe.onConstruct = func(o *probeObject) {
		// Queued: runs before the first event, in the object's turn.
		o.State.BlockConcurrencyWhile(context.Background(), func(ctx context.Context) error {
			if _, err := o.State.Storage.Exec(ctx, "CREATE TABLE IF NOT EXISTS c (k INTEGER PRIMARY KEY, n INTEGER NOT NULL)"); err != nil {
				return err
			}
			o.ready = true
			return nil
		})
	}
	s := h.stub("bcw")
	var obj *probeObject
	h.mustCall(s, func(ctx context.Context, o *probeObject) error {
		if !o.ready {
			t.Error("first event ran before the constructor's BlockConcurrencyWhile callback")
		}
		obj = o
		// Inside an event it runs at once (no deadlock on our own turn).
		ran := false
		if err := o.State.BlockConcurrencyWhile(ctx, func(context.Context) error { ran = true; return nil }); err != nil || !ran {
			t.Errorf("BlockConcurrencyWhile in an event: ran=%v err=%v", ran, err)
		}
		return nil
	})
	// From other goroutines it takes the turn, interleaved with requests.
	var wg sync.WaitGroup
	errs := make(chan error, 40)
	for range 20 {
		wg.Add(2)
		go func() {
			defer wg.Done()
			errs <- obj.State.BlockConcurrencyWhile(context.Background(), func(ctx context.Context) error {
				obj.enter()
				defer obj.leave()
				return increment(ctx, obj)
			})
		}()
		go func() {
			defer wg.Done()
			errs <- h.call(s, increment)
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	if n := readCount(t, h, s); n != 40 {
		t.Errorf("counter = %d, want 40", n)
	}
}

func testConstructorInitFails(t *testing.T, newStore func(*testing.T) Opener) {
	h := newHarness(t, newStore, nil)
	var mu sync.Mutex
	failed := false
	h.probe.onConstruct = func(o *probeObject) {
		o.State.BlockConcurrencyWhile(context.Background(), func(ctx context.Context) error {
			mu.Lock()
			defer mu.Unlock()
			if !failed {
				failed = true
				return errors.New("init failed")
			}
			return nil
		})
	}
	s := h.stub("flaky")
	if err := h.call(s, func(context.Context, *probeObject) error { return nil }); err == nil {
		t.Fatal("event succeeded although the constructor's init failed")
	}
	// The failed instance was discarded: the next event starts afresh.
	h.mustCall(s, func(context.Context, *probeObject) error { return nil })
	if n := h.probe.constructed.Load(); n != 2 {
		t.Errorf("constructor ran %d times, want 2", n)
	}
}

func testIdleEviction(t *testing.T, newStore func(*testing.T) Opener) {
	h := newHarness(t, newStore, func(o *Options) { o.IdleTimeout = 50 * time.Millisecond })
	s := h.stub("sleepy")
	h.mustCall(s, func(ctx context.Context, o *probeObject) error {
		return o.State.Storage.Put(ctx, "k", []byte("kept"))
	})
	wait.For(t, "the idle object to be evicted", func() bool { return h.rt.ActiveObjects() == 0 })
	h.mustCall(s, func(ctx context.Context, o *probeObject) error {
		v, err := o.State.Storage.Get(ctx, "k")
		if err != nil || string(v) != "kept" {
			t.Errorf("after reload Get = %q, %v; want kept", v, err)
		}
		return nil
	})
	if n := h.probe.constructed.Load(); n != 2 {
		t.Errorf("constructor ran %d times, want 2 (evicted and reloaded)", n)
	}
}

func testRestart(t *testing.T, newStore func(*testing.T) Opener) {
	h := newHarness(t, newStore, nil)
	fired := make(chan string, 10)
	h.probe.setAlarm(func(ctx context.Context, o *probeObject, _ worker.AlarmInfo) error {
		v, err := o.State.Storage.Get(ctx, "k")
		if err != nil {
			return err
		}
		fired <- string(v)
		return nil
	})
	s := h.stub("durable")
	id := s.ID().String()
	h.mustCall(s, func(ctx context.Context, o *probeObject) error {
		if err := increment(ctx, o); err != nil {
			return err
		}
		if err := o.State.Storage.Put(ctx, "k", []byte("before restart")); err != nil {
			return err
		}
		return o.State.Storage.SetAlarm(ctx, nowPlus(400))
	})
	h.restart()
	select {
	case v := <-fired:
		if v != "before restart" {
			t.Errorf("alarm after restart read %q", v)
		}
	case <-timeout(10):
		t.Fatal("alarm set before the restart did not fire after it")
	}
	again := h.stub("durable")
	if again.ID().String() != id {
		t.Errorf("IDFromName changed across restart: %s vs %s", again.ID(), id)
	}
	if n := readCount(t, h, again); n != 1 {
		t.Errorf("SQL data after restart: counter = %d, want 1", n)
	}
}

func testDrain(t *testing.T, newStore func(*testing.T) Opener) {
	h := newHarness(t, newStore, nil)
	srv := h.wsServer()
	c := dial(t, srv, "drain", "x")
	wait.Within(t, 5*time.Second, "the socket to register", func() bool { return countSockets(t, h, "drain", "") == 1 })
	// The client reads while the runtime drains, as a live client would, so
	// it answers the closing handshake.
	closed := make(chan int, 1)
	go func() {
		code, _, _ := closeCode(c)
		closed <- code
	}()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := h.rt.Drain(ctx); err != nil {
		t.Fatalf("Drain: %v", err)
	}
	if code := <-closed; code != worker.CloseServiceRestart {
		t.Errorf("client got close code %d, want 1012", code)
	}
	// The object heard the close the host made, before it was made.
	select {
	case ev := <-h.probe.closed:
		if ev.code != worker.CloseServiceRestart || len(ev.tags) != 1 || ev.tags[0] != "x" {
			t.Errorf("WebSocketClose(%v, %d), want the socket tagged x and 1012", ev.tags, ev.code)
		}
	default:
		t.Error("the object's WebSocketClose was not called for the socket the drain closed")
	}
	rec := httptest.NewRecorder()
	req := httptest.NewRequest(http.MethodGet, "http://object/call/0", nil)
	h.stub("new after drain").ServeHTTP(rec, req)
	if rec.Code != http.StatusServiceUnavailable {
		t.Errorf("request after drain: status %d, want 503", rec.Code)
	}
	if err := h.call(h.stub("drain"), func(context.Context, *probeObject) error { return nil }); err == nil {
		t.Error("Stub.Fetch after drain succeeded")
	}
	if n := h.rt.ActiveObjects(); n != 0 {
		t.Errorf("%d objects in memory after drain", n)
	}
}
