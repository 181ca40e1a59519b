package batch

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"
)

// recorder runs batches, recording each, and blocks every batch until
// release is closed.
type recorder struct {
	mu      sync.Mutex
	batches [][]int
	entered chan struct{} // gets a value as each batch starts
	release chan struct{}
}

func newRecorder() *recorder {
	return &recorder{entered: make(chan struct{}, 100), release: make(chan struct{})}
}

func (r *recorder) run(ctx context.Context, items []int) ([]string, []error) {
	r.mu.Lock()
	r.batches = append(r.batches, slices.Clone(items))
	r.mu.Unlock()
	r.entered <- struct{}{}
	<-r.release
	res, errs := make([]string, len(items)), make([]error, len(items))
	for i, it := range items {
		res[i] = fmt.Sprint(it)
		if it < 0 {
			errs[i] = fmt.Errorf("negative %d", it)
		}
	}
	return res, errs
}

func (r *recorder) seen() [][]int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.batches)
}

// waitQueued polls until n calls wait in g's queue.
func waitQueued[T, R any](t *testing.T, g *Group[T, R], n int) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		q := g.Waiting()
		if q == n {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d calls queued, want %d", q, n)
		}
		time.Sleep(time.Millisecond)
	}
}

func TestCallsThatArriveDuringABatchRunTogether(t *testing.T) {
	r := newRecorder()
	g := New(3, r.run)
	ctx := context.Background()
	var wg sync.WaitGroup
	got := make([]string, 6)
	errs := make([]error, 6)
	do := func(i int) {
		defer wg.Done()
		got[i], errs[i] = g.Do(ctx, i)
	}
	wg.Add(1)
	go do(0)
	<-r.entered // the first call runs alone, at once
	for i := 1; i < 6; i++ {
		wg.Add(1)
		go do(i)
	}
	waitQueued(t, g, 5)
	close(r.release)
	wg.Wait()
	for i := range got {
		if got[i] != fmt.Sprint(i) || errs[i] != nil {
			t.Errorf("call %d: %q, %v", i, got[i], errs[i])
		}
	}
	b := r.seen()
	if len(b) != 3 || len(b[0]) != 1 || len(b[1]) != 3 || len(b[2]) != 2 {
		t.Fatalf("batches %v, want one of 1, then 3 (the most), then 2", b)
	}
}

func TestEachCallGetsItsOwnError(t *testing.T) {
	r := newRecorder()
	close(r.release)
	g := New(10, r.run)
	if _, err := g.Do(context.Background(), -1); err == nil || err.Error() != "negative -1" {
		t.Fatalf("err %v", err)
	}
	if s, err := g.Do(context.Background(), 2); s != "2" || err != nil {
		t.Fatalf("%q, %v", s, err)
	}
}

func TestACallerThatLeavesBeforeItsBatchIsNotRun(t *testing.T) {
	r := newRecorder()
	g := New(10, r.run)
	go g.Do(context.Background(), 1)
	<-r.entered
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error)
	go func() {
		_, err := g.Do(ctx, 2)
		done <- err
	}()
	waitQueued(t, g, 1)
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("err %v, want context.Canceled", err)
	}
	close(r.release)
	if _, err := g.Do(context.Background(), 3); err != nil {
		t.Fatal(err)
	}
	if b := r.seen(); !slices.EqualFunc(b, [][]int{{1}, {3}}, slices.Equal) {
		t.Fatalf("batches %v, want [[1] [3]]", b)
	}
}

// TestACallerThatLeavesDuringItsBatchGetsItsResult: once its batch took
// it, a caller whose context ends still waits for, and gets, the result.
func TestACallerThatLeavesDuringItsBatchGetsItsResult(t *testing.T) {
	r := newRecorder()
	g := New(10, r.run)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error)
	var got string
	go func() {
		var err error
		got, err = g.Do(ctx, 1)
		done <- err
	}()
	<-r.entered
	cancel()
	select {
	case err := <-done:
		t.Fatalf("Do returned (%v) while its batch ran", err)
	case <-time.After(50 * time.Millisecond):
	}
	close(r.release)
	if err := <-done; err != nil || got != "1" {
		t.Fatalf("%q, %v; want the batch's result", got, err)
	}
}

func TestABatchRunsUnderTheLatestDeadlineWithTheFirstCallersValues(t *testing.T) {
	type key struct{}
	var gotDeadline time.Time
	var gotValue any
	g := New(10, func(ctx context.Context, items []int) ([]int, []error) {
		gotDeadline, _ = ctx.Deadline()
		gotValue = ctx.Value(key{})
		return items, make([]error, len(items))
	})
	base := time.Now().Add(time.Hour)
	first, c1 := context.WithDeadline(context.WithValue(context.Background(), key{}, "first"), base)
	defer c1()
	// A lone call: its own deadline.
	if _, err := g.Do(first, 1); err != nil {
		t.Fatal(err)
	}
	if !gotDeadline.Equal(base) || gotValue != "first" {
		t.Fatalf("deadline %v value %v", gotDeadline, gotValue)
	}
	calls := []*call[int, int]{{ctx: first}, {ctx: context.Background()}}
	ctx, cancel := batchContext(calls)
	if _, ok := ctx.Deadline(); ok {
		t.Error("a batch with a caller without a deadline has one")
	}
	cancel()
	later, c2 := context.WithDeadline(context.Background(), base.Add(time.Minute))
	defer c2()
	ctx, cancel = batchContext([]*call[int, int]{{ctx: first}, {ctx: later}})
	defer cancel()
	if d, _ := ctx.Deadline(); !d.Equal(base.Add(time.Minute)) || ctx.Value(key{}) != "first" {
		t.Errorf("deadline %v value %v, want the later deadline and the first caller's value", d, ctx.Value(key{}))
	}
}

func TestAMiscountedBatchFailsItsCalls(t *testing.T) {
	g := New(10, func(ctx context.Context, items []int) ([]int, []error) { return nil, nil })
	if _, err := g.Do(context.Background(), 1); err == nil {
		t.Fatal("no error")
	}
}
