package background

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dwk/fleet/appliance/worker"
)

type syncBuf struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuf) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuf) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func newTracker() (*Tracker, *syncBuf) {
	var buf syncBuf
	return New(slog.New(slog.NewTextHandler(&buf, nil))), &buf
}

func handlerCtx(t *Tracker) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancel(context.Background())
	return worker.WithBackground(ctx, t.For("w", "GET /x")), cancel
}

// A task outlives its handler's context and Drain waits for it, and for a
// task it starts while Drain waits.
func TestDrainWaitsForTasks(t *testing.T) {
	tr, _ := newTracker()
	ctx, cancel := handlerCtx(tr)
	release := make(chan struct{})
	var done, nested sync.WaitGroup
	done.Add(1)
	nested.Add(1)
	if err := worker.WaitUntil(ctx, func(ctx context.Context) {
		defer done.Done()
		<-release
		if ctx.Err() != nil {
			t.Errorf("task context ended with its handler: %v", ctx.Err())
		}
		if err := worker.WaitUntil(ctx, func(context.Context) { nested.Done() }); err != nil {
			t.Errorf("nested WaitUntil: %v", err)
		}
	}); err != nil {
		t.Fatal(err)
	}
	cancel() // the response is sent
	drained := make(chan error, 1)
	go func() {
		dctx, dcancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer dcancel()
		drained <- tr.Drain(dctx)
	}()
	select {
	case err := <-drained:
		t.Fatalf("Drain returned %v while a task runs", err)
	case <-time.After(50 * time.Millisecond):
	}
	close(release)
	if err := <-drained; err != nil {
		t.Fatalf("Drain = %v, want nil", err)
	}
	done.Wait()
	nested.Wait()
	if n := tr.Running(); n != 0 {
		t.Fatalf("%d tasks running after Drain", n)
	}
	if err := worker.WaitUntil(ctx, func(context.Context) {}); !errors.Is(err, worker.ErrWaitUntilClosed) {
		t.Fatalf("WaitUntil after Drain = %v, want ErrWaitUntilClosed", err)
	}
}

// A task still running at the deadline is cancelled and logged.
func TestDrainCancelsAtDeadline(t *testing.T) {
	tr, logs := newTracker()
	ctx, cancel := handlerCtx(tr)
	defer cancel()
	started := make(chan struct{})
	cancelled := make(chan struct{})
	if err := worker.WaitUntil(ctx, func(ctx context.Context) {
		close(started)
		<-ctx.Done()
		close(cancelled)
	}); err != nil {
		t.Fatal(err)
	}
	<-started
	dctx, dcancel := context.WithTimeout(context.Background(), 30*time.Millisecond)
	defer dcancel()
	err := tr.Drain(dctx)
	if err == nil || !strings.Contains(err.Error(), "1 waitUntil task") {
		t.Fatalf("Drain = %v, want one task cancelled", err)
	}
	select {
	case <-cancelled:
	default:
		t.Fatal("the task's context was not cancelled")
	}
	if l := logs.String(); !strings.Contains(l, "waitUntil task cancelled") || !strings.Contains(l, `event="GET /x"`) {
		t.Fatalf("log does not name the cancelled task:\n%s", l)
	}
}

// A task that ignores cancellation is logged as abandoned after Grace.
func TestDrainAbandonsStuckTask(t *testing.T) {
	tr, logs := newTracker()
	ctx, cancel := handlerCtx(tr)
	defer cancel()
	stuck := make(chan struct{})
	defer close(stuck)
	if err := worker.WaitUntil(ctx, func(context.Context) { <-stuck }); err != nil {
		t.Fatal(err)
	}
	dctx, dcancel := context.WithCancel(context.Background())
	dcancel()
	start := time.Now()
	if err := tr.Drain(dctx); err == nil {
		t.Fatal("Drain = nil with a stuck task")
	}
	if took := time.Since(start); took < Grace || took > Grace+2*time.Second {
		t.Fatalf("Drain took %v, want about %v", took, Grace)
	}
	if !strings.Contains(logs.String(), "waitUntil task abandoned") {
		t.Fatalf("no abandoned log:\n%s", logs.String())
	}
}

func TestPanicIsRecovered(t *testing.T) {
	tr, logs := newTracker()
	ctx, cancel := handlerCtx(tr)
	defer cancel()
	if err := worker.WaitUntil(ctx, func(context.Context) { panic("boom") }); err != nil {
		t.Fatal(err)
	}
	dctx, dcancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer dcancel()
	if err := tr.Drain(dctx); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(logs.String(), "boom") {
		t.Fatalf("panic not logged:\n%s", logs.String())
	}
}

func TestWaitUntilOutsideHandler(t *testing.T) {
	if err := worker.WaitUntil(context.Background(), func(context.Context) {}); !errors.Is(err, worker.ErrNoWaitUntil) {
		t.Fatalf("WaitUntil = %v, want ErrNoWaitUntil", err)
	}
}
