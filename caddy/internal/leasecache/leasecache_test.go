package leasecache

import (
	"context"
	"errors"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/dwk/fleet/appliance/fleet/objectid"
	"github.com/dwk/fleet/appliance/process/clock/clocktest"
	"github.com/dwk/fleet/test/wait"
)

// fakeLookup answers from a map and records every call.
type fakeLookup struct {
	mu      sync.Mutex
	holders map[Key]string
	calls   [][]Key
	err     error
	block   chan struct{} // when set, Holders waits on it
}

var _ Lookup = (*fakeLookup)(nil)

func (f *fakeLookup) Holders(ctx context.Context, keys []Key) ([]string, error) {
	f.mu.Lock()
	block := f.block
	f.calls = append(f.calls, slices.Clone(keys))
	f.mu.Unlock()
	if block != nil {
		select {
		case <-block:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.err != nil {
		return nil, f.err
	}
	out := make([]string, len(keys))
	for i, k := range keys {
		out[i] = f.holders[k]
	}
	return out, nil
}

func (f *fakeLookup) set(k Key, holder string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.holders[k] = holder
}

func (f *fakeLookup) ncalls() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.calls)
}

func key(name string) Key {
	return Key{Namespace: "Counter", ID: objectid.FromName([]byte("secret"), "Counter", name)}
}

func newCache(t *testing.T, l Lookup, clk *clocktest.Fake) *Cache {
	t.Helper()
	c, err := New(l, Options{TTL: time.Second, MaxStale: 10 * time.Second, Timeout: 5 * time.Second, Now: clk.Now})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := c.Close(context.Background()); err != nil {
			t.Error(err)
		}
	})
	return c
}

func TestHolderCachesAnswers(t *testing.T) {
	ctx := context.Background()
	clk := clocktest.NewFake(time.Unix(1000, 0))
	a, b := key("a"), key("b")
	l := &fakeLookup{holders: map[Key]string{a: "m1"}}
	c := newCache(t, l, clk)

	for range 3 {
		if got, ok := c.Holder(ctx, a); got != "m1" || !ok {
			t.Fatalf("Holder(a) = %q, %v; want m1, true", got, ok)
		}
		if got, ok := c.Holder(ctx, b); got != "" || !ok {
			t.Fatalf("Holder(b) = %q, %v; want \"\", true (absent, cached)", got, ok)
		}
	}
	if n := l.ncalls(); n != 2 {
		t.Errorf("lookups = %d, want 2 (one per key)", n)
	}

	// Not started: an answer past its TTL is read again synchronously.
	l.set(a, "m2")
	clk.Advance(1500 * time.Millisecond)
	if got, _ := c.Holder(ctx, a); got != "m2" {
		t.Errorf("after TTL, Holder(a) = %q, want m2", got)
	}
}

func TestStaleAnswersRefreshInBackground(t *testing.T) {
	ctx := context.Background()
	clk := clocktest.NewFake(time.Unix(1000, 0))
	a, b := key("a"), key("b")
	l := &fakeLookup{holders: map[Key]string{a: "m1", b: "m1"}}
	c := newCache(t, l, clk)
	c.Start()
	c.Holder(ctx, a)
	c.Holder(ctx, b)

	l.set(a, "m2")
	clk.Advance(2 * time.Second)
	// Stale but within MaxStale: served at once, re-read in the background.
	if got, ok := c.Holder(ctx, a); got != "m1" || !ok {
		t.Fatalf("stale Holder(a) = %q, %v; want m1, true", got, ok)
	}
	wait.For(t, "the background refresh", func() bool { got, _ := c.Holder(ctx, a); return got == "m2" })

	// Past MaxStale: read synchronously.
	l.set(b, "m3")
	clk.Advance(20 * time.Second)
	if got, _ := c.Holder(ctx, b); got != "m3" {
		t.Errorf("Holder(b) past MaxStale = %q, want m3", got)
	}
}

func TestFailedLookupIsUnknownAndNotCached(t *testing.T) {
	ctx := context.Background()
	clk := clocktest.NewFake(time.Unix(1000, 0))
	a := key("a")
	l := &fakeLookup{holders: map[Key]string{a: "m1"}, err: errors.New("down")}
	c := newCache(t, l, clk)
	if got, ok := c.Holder(ctx, a); ok || got != "" {
		t.Fatalf("Holder with the store down = %q, %v; want \"\", false", got, ok)
	}
	l.mu.Lock()
	l.err = nil
	l.mu.Unlock()
	if got, ok := c.Holder(ctx, a); got != "m1" || !ok {
		t.Fatalf("Holder after recovery = %q, %v; want m1, true", got, ok)
	}
}

func TestConcurrentMissesShareOneLookup(t *testing.T) {
	ctx := context.Background()
	clk := clocktest.NewFake(time.Unix(1000, 0))
	a := key("a")
	l := &fakeLookup{holders: map[Key]string{a: "m1"}, block: make(chan struct{})}
	c := newCache(t, l, clk)
	var wg sync.WaitGroup
	results := make([]string, 8)
	for i := range results {
		wg.Go(func() { results[i], _ = c.Holder(ctx, a) })
	}
	wait.For(t, "the first lookup", func() bool { return l.ncalls() == 1 })
	// Every other caller is waiting on the leader's call by now or will
	// find the answer cached.
	close(l.block)
	wg.Wait()
	for i, r := range results {
		if r != "m1" {
			t.Errorf("caller %d got %q, want m1", i, r)
		}
	}
	if n := l.ncalls(); n != 1 {
		t.Errorf("lookups = %d, want 1", n)
	}
}

// TestMissesOfManyKeysShareRoundTrips has keys first seen while a read is
// in flight wait for it and then go together in one read.
func TestMissesOfManyKeysShareRoundTrips(t *testing.T) {
	ctx := context.Background()
	clk := clocktest.NewFake(time.Unix(1000, 0))
	keys := []Key{key("a"), key("b"), key("c"), key("d")}
	l := &fakeLookup{holders: map[Key]string{keys[0]: "m1", keys[2]: "m2"}, block: make(chan struct{})}
	c := newCache(t, l, clk)
	results := make([]string, len(keys))
	oks := make([]bool, len(keys))
	var wg sync.WaitGroup
	wg.Go(func() { results[0], oks[0] = c.Holder(ctx, keys[0]) })
	wait.For(t, "the first read", func() bool { return l.ncalls() == 1 })
	for i := 1; i < len(keys); i++ {
		wg.Go(func() { results[i], oks[i] = c.Holder(ctx, keys[i]) })
	}
	wait.For(t, "the other misses to queue", func() bool { return c.firsts.Waiting() == len(keys)-1 })
	close(l.block)
	wg.Wait()
	want := []string{"m1", "", "m2", ""}
	for i := range keys {
		if results[i] != want[i] || !oks[i] {
			t.Errorf("key %d: %q, %v; want %q, true", i, results[i], oks[i], want[i])
		}
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.calls) != 2 || len(l.calls[0]) != 1 || len(l.calls[1]) != 3 {
		t.Errorf("reads %v, want one of the first key, then one of the other three", l.calls)
	}
}

func TestTimeoutIsUnknown(t *testing.T) {
	clk := clocktest.NewFake(time.Unix(1000, 0))
	a := key("a")
	l := &fakeLookup{holders: map[Key]string{a: "m1"}, block: make(chan struct{})}
	defer close(l.block)
	c, err := New(l, Options{Timeout: 20 * time.Millisecond, Now: clk.Now})
	if err != nil {
		t.Fatal(err)
	}
	if got, ok := c.Holder(context.Background(), a); ok || got != "" {
		t.Errorf("Holder past its timeout = %q, %v; want \"\", false", got, ok)
	}
}

func TestEvictAndMaxEntries(t *testing.T) {
	ctx := context.Background()
	clk := clocktest.NewFake(time.Unix(1000, 0))
	l := &fakeLookup{holders: map[Key]string{}}
	c, err := New(l, Options{MaxEntries: 2, Now: clk.Now})
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range []string{"a", "b", "c"} {
		c.Holder(ctx, key(n))
	}
	if got := c.Len(); got != 2 {
		t.Errorf("Len = %d, want 2 (MaxEntries)", got)
	}
	clk.Advance(5 * time.Second)
	c.Holder(ctx, key("a")) // re-read (past TTL, not started) and used
	clk.Advance(6 * time.Second)
	c.evict(clk.Now())
	if got := c.Len(); got != 1 {
		t.Errorf("after evict Len = %d, want 1 (only a was used within MaxStale)", got)
	}
}

func TestOptions(t *testing.T) {
	for _, o := range []Options{{TTL: -1}, {TTL: 5 * time.Second, MaxStale: time.Second}, {MaxEntries: -1}} {
		if _, err := New(&fakeLookup{}, o); !errors.Is(err, ErrOptions) {
			t.Errorf("New(%+v) = %v, want ErrOptions", o, err)
		}
	}
	if _, err := New(nil, Options{}); !errors.Is(err, ErrOptions) {
		t.Errorf("New(nil) = %v, want ErrOptions", err)
	}
}
