package jsrt

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/dop251/goja"
)

// Event is one invocation of the application: a request, a cron tick, a
// queue batch, an object's alarm or message, a method call. Its JavaScript
// runs with its context and is charged to its CPU time.
type Event struct {
	iso *Isolate
	ctx context.Context
	cpu atomic.Int64 // nanoseconds of loop time
	// err is set (on the loop) when the event failed: it runs no more
	// JavaScript and its waiters get err.
	err   error
	ended atomic.Bool

	mu       sync.Mutex
	deferred []func()

	// timers, when set, owns the timers the event's JavaScript sets (see
	// RunTimersWith).
	timers TimerOwner
}

// TimerOwner owns the timers an event's JavaScript sets: it knows how
// many are armed and runs the callbacks of those that fire after their
// event ended (one that fires while its event runs is part of it). An object runs them in its own
// turn, so that a callback's storage writes are gated and committed like
// an event's, and stays awake while one is armed.
type TimerOwner interface {
	// Armed is called with +1 when a timer is set and -1 when it fired
	// for the last time or was cleared. It is called on the loop.
	Armed(delta int)
	// RunTimer runs a timer's callback: run posts it to the loop as a
	// new event and waits for it. It is called on a goroutine of its
	// own.
	RunTimer(run func(ctx context.Context) error)
}

// RunTimersWith makes o own the timers set by this event's JavaScript
// (and by the events their callbacks start): o runs their callbacks
// instead of the loop. Call it before the event runs.
func (e *Event) RunTimersWith(o TimerOwner) { e.timers = o }

// NewEvent starts an event of the isolate with ctx, the context host calls
// made for it run with. End it with End.
func (i *Isolate) NewEvent(ctx context.Context) *Event {
	i.events.Add(1)
	return &Event{iso: i, ctx: ctx}
}

// End marks the event finished, for the isolate's load count, and runs
// what Defer queued, last first. Its timers and host calls go on.
func (e *Event) End() {
	if !e.ended.CompareAndSwap(false, true) {
		return
	}
	if e.iso != nil {
		e.iso.events.Add(-1)
	}
	e.mu.Lock()
	fns := e.deferred
	e.deferred = nil
	e.mu.Unlock()
	for k := len(fns) - 1; k >= 0; k-- {
		fns[k]()
	}
}

// Defer queues fn to run when the event ends (at once if it has): for
// releasing what the event's JavaScript opened and may not close, such
// as an unread response body. fn runs on the goroutine that calls End, not
// on the loop.
func (e *Event) Defer(fn func()) {
	e.mu.Lock()
	if !e.ended.Load() {
		e.deferred = append(e.deferred, fn)
		e.mu.Unlock()
		return
	}
	e.mu.Unlock()
	fn()
}

// Context is the event's context.
func (e *Event) Context() context.Context { return e.ctx }

// Isolate is the isolate the event runs in.
func (e *Event) Isolate() *Isolate { return e.iso }

// CPU is the loop time the event's JavaScript has used so far.
func (e *Event) CPU() time.Duration { return time.Duration(e.cpu.Load()) }

// frame is what JavaScript runs in: its event and its AsyncLocalStorage
// values. Frames are immutable; a change makes a new one.
type frame struct {
	ev  *Event
	als *alsEntry
}

// alsEntry is one AsyncLocalStorage value in a frame's list.
type alsEntry struct {
	key   *goja.Object
	value goja.Value
	next  *alsEntry
}

func (f *frame) lookup(key *goja.Object) (goja.Value, bool) {
	for e := f.als; e != nil; e = e.next {
		if e.key == key {
			return e.value, true
		}
	}
	return nil, false
}

// tracker carries frames across promise reactions.
type tracker struct{ i *Isolate }

func (t tracker) Grab() any { return t.i.cur }

func (t tracker) Resumed(o any) {
	if f, ok := o.(*frame); ok && f != nil {
		t.i.cur = f
	}
}

func (t tracker) Exited() { t.i.cur = t.i.base }

// Current is the event whose JavaScript is running. Call it on the loop.
func (i *Isolate) Current() *Event {
	if i.cur == nil {
		return i.base.ev
	}
	return i.cur.ev
}

// logContext is the context to log under on the loop: the running
// event's, so that a tail gathers the line into its request's event.
func (i *Isolate) logContext() context.Context {
	if i.cur == nil && i.base == nil {
		return context.Background()
	}
	return i.Current().ctx
}

// result is what a waiter receives.
type result struct {
	v   any
	err error
}

// waiter is a Go caller of Call waiting for its result.
type waiter struct {
	ev   *Event
	ch   chan result // capacity 1
	hang bool        // may fail with ErrHung
	done bool
}

func (w *waiter) deliver(r result) {
	if w.done {
		return
	}
	w.done = true
	w.ch <- r
}

// CallOptions tune one Call.
type CallOptions struct {
	// MayWaitForever exempts the call from hang detection: it waits for
	// something outside the isolate (a response body that another event
	// feeds, say).
	MayWaitForever bool
}

// Call runs start on the loop for ev and waits until the value it returns
// settles (a promise) or is there (any other value); done converts it, on
// the loop, into what Call returns. A rejected promise or a thrown
// exception is returned as an *Error. Call returns early with ev's
// context's error, ErrClosed, or the error that failed the event
// (ErrCPULimit, ErrHung). done is not called then.
func Call[T any](ev *Event, opts CallOptions, start func(rt *goja.Runtime) (goja.Value, error), done func(rt *goja.Runtime, v goja.Value) (T, error)) (T, error) {
	var zero T
	i := ev.iso
	w := &waiter{ev: ev, ch: make(chan result, 1), hang: !opts.MayWaitForever}
	ok := i.postAndRun(&frame{ev: ev}, func() {
		if ev.err != nil {
			w.deliver(result{err: ev.err})
			return
		}
		i.waiting[w] = struct{}{}
		finish := func(v goja.Value, err error) {
			var ie *goja.InterruptedError
			if w.done || errors.As(err, &ie) {
				return // interrupted: the job's end fails the event
			}
			delete(i.waiting, w)
			if err != nil {
				w.deliver(result{err: err})
				return
			}
			out, err := done(i.rt, v)
			w.deliver(result{v: out, err: err})
		}
		v, err := start(i.rt)
		if err != nil {
			finish(nil, i.asError(err))
			return
		}
		i.await(v, finish)
	}, func() bool { return len(w.ch) > 0 || ev.ctx.Err() != nil })
	if !ok {
		return zero, ErrClosed
	}
	// The job may have run on this goroutine (postAndRun): a context that
	// ended meanwhile wins over what it settled with, as it would have
	// had the loop run it.
	abandon := func() (T, error) {
		i.post(&frame{ev: ev}, func() {
			delete(i.waiting, w)
			w.done = true
		})
		return zero, context.Cause(ev.ctx)
	}
	if ev.ctx.Err() != nil {
		return abandon()
	}
	select {
	case r := <-w.ch:
		if r.err != nil {
			return zero, r.err
		}
		return r.v.(T), nil
	case <-ev.ctx.Done():
		return abandon()
	case <-i.stopped:
		return zero, ErrClosed
	}
}

// OnSettled calls then with v's value once v settles: at once for a
// value that is not a promise, else when the promise is fulfilled or
// rejected (with the rejection as an *Error). Call it on the loop.
func (i *Isolate) OnSettled(v goja.Value, then func(goja.Value, error)) { i.await(v, then) }

func (i *Isolate) await(v goja.Value, then func(goja.Value, error)) {
	p, ok := v.Export().(*goja.Promise)
	if !ok {
		then(v, nil)
		return
	}
	switch p.State() {
	case goja.PromiseStateFulfilled:
		then(p.Result(), nil)
		return
	case goja.PromiseStateRejected:
		i.handled(p)
		then(nil, i.asError(p.Result()))
		return
	}
	onFul := i.rt.ToValue(func(c goja.FunctionCall) goja.Value {
		then(c.Argument(0), nil)
		return goja.Undefined()
	})
	onRej := i.rt.ToValue(func(c goja.FunctionCall) goja.Value {
		then(nil, i.asError(c.Argument(0)))
		return goja.Undefined()
	})
	if _, err := i.then(v, onFul, onRej); err != nil {
		then(nil, i.asError(err))
	}
}

// Do runs fn on the loop in a new event with ctx and waits for it. It is
// for setup: running a bundle, reading its exports.
func (i *Isolate) Do(ctx context.Context, fn func(rt *goja.Runtime) error) error {
	ev := i.NewEvent(ctx)
	defer ev.End()
	_, err := Call(ev, CallOptions{MayWaitForever: true}, func(rt *goja.Runtime) (goja.Value, error) {
		return goja.Undefined(), fn(rt)
	}, func(*goja.Runtime, goja.Value) (struct{}, error) { return struct{}{}, nil })
	return err
}

// Post queues fn to run on the loop as part of ev without waiting for it.
// It reports false when the isolate is closed.
func (ev *Event) Post(fn func(rt *goja.Runtime)) bool {
	return ev.iso.post(&frame{ev: ev}, func() { fn(ev.iso.rt) })
}

// errInterrupted is the value the watchdog interrupts with.
var errInterrupted = errors.New("interrupted")

// asError turns what JavaScript threw (a goja error or a thrown value)
// into an *Error, keeping uncatchable ones (interrupts) as they are.
func (i *Isolate) asError(x any) error {
	switch e := x.(type) {
	case nil:
		return nil
	case *Error:
		return e
	case *goja.InterruptedError:
		return e
	case *goja.Exception:
		return i.errorOf(e.Value(), e)
	case goja.Value:
		return i.errorOf(e, nil)
	case error:
		return e
	}
	return fmt.Errorf("%v", x)
}
