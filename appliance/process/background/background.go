// Package background keeps the work that worker handlers start with
// worker.WaitUntil, so that a draining replica waits for it.
//
// Under failure: a task still running when the drain's budget ends has its
// context cancelled and is logged (worker, event, how long it ran); Drain
// then waits a short grace for it to return and logs the ones that did not
// as abandoned. A panicking task is recovered and logged. After Drain
// returns, Go refuses new work with worker.ErrWaitUntilClosed.
package background

import (
	"context"
	"fmt"
	"log/slog"
	"runtime/debug"
	"sort"
	"sync"
	"time"

	"github.com/dwk/fleet/appliance/worker"
)

// Grace is how long Drain waits, after cancelling the tasks still running
// at its deadline, for them to return.
const Grace = 500 * time.Millisecond

// Tracker keeps the running background tasks of one replica. It is safe
// for concurrent use.
type Tracker struct {
	log    *slog.Logger
	ctx    context.Context // cancelled when Drain gives up on the tasks
	cancel context.CancelFunc

	mu     sync.Mutex
	closed bool
	tasks  map[*task]struct{}
	// ended is closed (and replaced) each time a task returns.
	ended chan struct{}
}

// task is one running fn.
type task struct {
	worker, event string
	started       time.Time
}

// New returns an empty tracker that logs to log.
func New(log *slog.Logger) *Tracker {
	ctx, cancel := context.WithCancel(context.Background())
	return &Tracker{log: log, ctx: ctx, cancel: cancel, tasks: map[*task]struct{}{}, ended: make(chan struct{})}
}

// For returns the worker.Background that a handler call of workerName
// receives; event says what the call was ("GET /path", "queue q",
// "cron */5 * * * *") for the logs.
func (t *Tracker) For(workerName, event string) worker.Background {
	return origin{t: t, worker: workerName, event: event}
}

// Running is the number of tasks running now.
func (t *Tracker) Running() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return len(t.tasks)
}

type origin struct {
	t             *Tracker
	worker, event string
}

var _ worker.Background = origin{}

func (o origin) Go(parent context.Context, fn func(context.Context)) error {
	return o.t.start(parent, &task{worker: o.worker, event: o.event, started: time.Now()}, fn)
}

func (t *Tracker) start(parent context.Context, tk *task, fn func(context.Context)) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.closed {
		return fmt.Errorf("worker %q (%s): %w", tk.worker, tk.event, worker.ErrWaitUntilClosed)
	}
	t.tasks[tk] = struct{}{}
	ctx, cancel := context.WithCancel(context.WithoutCancel(parent))
	stop := context.AfterFunc(t.ctx, cancel)
	go func() {
		defer func() {
			stop()
			cancel()
			t.mu.Lock()
			delete(t.tasks, tk)
			close(t.ended)
			t.ended = make(chan struct{})
			t.mu.Unlock()
		}()
		defer func() {
			if r := recover(); r != nil {
				t.log.Error("waitUntil task panicked", "worker", tk.worker, "event", tk.event, "panic", r, "stack", string(debug.Stack()))
			}
		}()
		fn(ctx)
	}()
	return nil
}

// Drain waits for every task, including tasks started while it waits (by
// a request still finishing, or by another task), until ctx ends. Then it
// cancels the tasks still running, logs each, and waits up to Grace for
// them to return. From then on Go refuses work. Drain returns an error
// naming how many tasks were cut short; it is safe to call more than once.
func (t *Tracker) Drain(ctx context.Context) error {
	if t.wait(ctx) {
		return nil
	}
	cut := t.snapshot()
	for _, tk := range cut {
		t.log.Warn("waitUntil task cancelled: still running at the end of the drain budget",
			"worker", tk.worker, "event", tk.event, "ran", time.Since(tk.started).Round(time.Millisecond))
	}
	t.cancel()
	grace, cancel := context.WithTimeout(context.Background(), Grace)
	defer cancel()
	if !t.wait(grace) {
		for _, tk := range t.snapshot() {
			t.log.Error("waitUntil task abandoned: it did not return after its context was cancelled",
				"worker", tk.worker, "event", tk.event, "ran", time.Since(tk.started).Round(time.Millisecond))
		}
	}
	if len(cut) > 0 {
		return fmt.Errorf("%d waitUntil task(s) cancelled at the drain deadline", len(cut))
	}
	return nil
}

// wait waits until no task runs, closing the tracker to new work at that
// moment, or until ctx ends (closing it too); it reports whether none runs.
func (t *Tracker) wait(ctx context.Context) bool {
	for {
		t.mu.Lock()
		if len(t.tasks) == 0 {
			t.closed = true
			t.mu.Unlock()
			return true
		}
		ended := t.ended
		t.mu.Unlock()
		select {
		case <-ended:
		case <-ctx.Done():
			t.mu.Lock()
			t.closed = true
			t.mu.Unlock()
			return false
		}
	}
}

// snapshot lists the running tasks, oldest first.
func (t *Tracker) snapshot() []*task {
	t.mu.Lock()
	defer t.mu.Unlock()
	out := make([]*task, 0, len(t.tasks))
	for tk := range t.tasks {
		out = append(out, tk)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].started.Before(out[j].started) })
	return out
}
