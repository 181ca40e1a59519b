package jsrt

import (
	"context"
	"math"
	"time"

	"github.com/dop251/goja"
)

// timers are an isolate's setTimeout and setInterval timers. They are used
// only on the loop.
type timers struct {
	next int64
	m    map[int64]*timer
}

type timer struct {
	id       int64
	fr       *frame
	t        *time.Timer
	fn       goja.Callable
	args     []goja.Value
	interval time.Duration // 0 for a timeout
}

// maxTimerDelay is the longest delay a timer takes, as in browsers: a
// longer one fires at once.
const maxTimerDelay = math.MaxInt32 * time.Millisecond

// set arms a timer that calls fn(args...) after delay in the current
// frame, again every delay when repeat is set, and returns its id.
func (i *Isolate) setTimer(fn goja.Callable, delay time.Duration, repeat bool, args []goja.Value) int64 {
	if delay < 0 || delay > maxTimerDelay {
		delay = 0
	}
	if repeat && delay < time.Millisecond {
		delay = time.Millisecond
	}
	ts := &i.timers
	if ts.m == nil {
		ts.m = map[int64]*timer{}
	}
	ts.next++
	t := &timer{id: ts.next, fr: i.cur, fn: fn, args: args}
	if repeat {
		t.interval = delay
	}
	if t.fr == nil {
		t.fr = i.base
	}
	ts.m[t.id] = t
	i.pending++
	if o := t.fr.ev.timers; o != nil {
		o.Armed(1)
	}
	id := t.id
	t.t = time.AfterFunc(delay, func() { i.postAndRun(t.fr, func() { i.fire(id) }, nil) })
	return id
}

// fire runs timer id, if it still exists.
func (i *Isolate) fire(id int64) {
	t, ok := i.timers.m[id]
	if !ok {
		return
	}
	if t.interval > 0 {
		t.t.Reset(t.interval)
	} else {
		i.drop(t)
	}
	// A timer whose event is still running is part of it (an await of a
	// sleep): it runs here. Once its event ended, its owner runs it.
	if o := t.fr.ev.timers; o != nil && t.fr.ev.ended.Load() {
		go o.RunTimer(func(ctx context.Context) error { return i.runTimer(ctx, t, o) })
		return
	}
	if _, err := t.fn(goja.Undefined(), t.args...); err != nil {
		i.uncaught(err)
	}
}

// runTimer runs t's callback as an event of its own with ctx, for its
// owner o (which the event passes on to the timers it sets).
func (i *Isolate) runTimer(ctx context.Context, t *timer, o TimerOwner) error {
	ev := i.NewEvent(ctx)
	ev.timers = o
	defer ev.End()
	_, err := Call(ev, CallOptions{MayWaitForever: true}, func(rt *goja.Runtime) (goja.Value, error) {
		if _, err := t.fn(goja.Undefined(), t.args...); err != nil {
			i.uncaught(err)
		}
		return goja.Undefined(), nil
	}, func(*goja.Runtime, goja.Value) (struct{}, error) { return struct{}{}, nil })
	return err
}

// drop forgets t, which fired for the last time or was stopped.
func (i *Isolate) drop(t *timer) {
	if _, ok := i.timers.m[t.id]; !ok {
		return
	}
	delete(i.timers.m, t.id)
	i.pending--
	if o := t.fr.ev.timers; o != nil {
		o.Armed(-1)
	}
}

// clear stops timer id; an unknown id is ignored.
func (i *Isolate) clearTimer(id int64) {
	if t, ok := i.timers.m[id]; ok {
		t.t.Stop()
		i.drop(t)
	}
}

// stopEvent stops the timers set by ev's JavaScript.
func (ts *timers) stopEvent(i *Isolate, ev *Event) {
	for _, t := range ts.m {
		if t.fr.ev == ev {
			t.t.Stop()
			i.drop(t)
		}
	}
}

// StopTimers stops every timer owner o owns (an object that left
// memory). It runs on the loop, later.
func (i *Isolate) StopTimers(o TimerOwner) {
	i.post(&frame{ev: &Event{iso: i, ctx: context.Background()}}, func() {
		for _, t := range i.timers.m {
			if t.fr.ev.timers == o {
				t.t.Stop()
				i.drop(t)
			}
		}
	})
}

func (ts *timers) stopAll() {
	for id, t := range ts.m {
		t.t.Stop()
		delete(ts.m, id)
	}
}

// installTimers adds the natives behind setTimeout and friends.
func (i *Isolate) installTimers(host *goja.Object) {
	rt := i.rt
	set := func(repeat bool) func(goja.FunctionCall) goja.Value {
		return func(c goja.FunctionCall) goja.Value {
			fn, ok := goja.AssertFunction(c.Argument(0))
			if !ok {
				panic(rt.NewTypeError("the first argument of setTimeout and setInterval must be a function (code strings are not allowed)"))
			}
			ms := c.Argument(1).ToFloat()
			if math.IsNaN(ms) {
				ms = 0
			}
			var args []goja.Value
			if len(c.Arguments) > 2 {
				args = append(args, c.Arguments[2:]...)
			}
			return rt.ToValue(i.setTimer(fn, time.Duration(ms*float64(time.Millisecond)), repeat, args))
		}
	}
	clear := func(c goja.FunctionCall) goja.Value {
		if v := c.Argument(0); !goja.IsUndefined(v) && !goja.IsNull(v) {
			i.clearTimer(v.ToInteger())
		}
		return goja.Undefined()
	}
	host.Set("setTimeout", set(false))
	host.Set("setInterval", set(true))
	host.Set("clearTimer", clear)
}
