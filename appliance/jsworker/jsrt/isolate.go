package jsrt

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"time"

	"github.com/dop251/goja"
)

// DefaultCPULimit is the CPU time an event may use when Config.CPULimit is
// zero: Cloudflare's default for paid plans.
const DefaultCPULimit = 30 * time.Second

// Errors of the runtime.
var (
	// ErrClosed is returned for work posted to an isolate that was closed.
	ErrClosed = errors.New("jsrt: the isolate is closed")
	// ErrCPULimit fails an event whose JavaScript ran longer than its CPU
	// limit (Config.CPULimit).
	ErrCPULimit = errors.New("the event exceeded its CPU time limit")
	// ErrHung fails an event whose promise can never settle: nothing it
	// could be waiting for (a host call, a timer, a socket) is pending in
	// its isolate. Cloudflare reports it as "the script will never
	// generate a response".
	ErrHung = errors.New("the script will never generate a response: nothing its promise awaits is pending")
	// ErrMemoryLimit fails the events of an isolate that was stopped
	// because the process ran past its JavaScript memory limit.
	ErrMemoryLimit = errors.New("the isolate exceeded its memory limit and was restarted")
)

// Config configures an Isolate.
type Config struct {
	// Name identifies the isolate in logs, e.g. "hello#0".
	Name string
	// Extensions install the globals, in order.
	Extensions []Extension
	// CPULimit bounds the CPU time of one event. Default: DefaultCPULimit.
	CPULimit time.Duration
	// Logger receives console output and uncaught errors. Default:
	// slog.Default().
	Logger *slog.Logger
	// DetectHangs fails events whose promise can never settle (ErrHung).
	// Isolates whose events wait for one another (objects) leave it off.
	DetectHangs bool
	// MemoryLimit bounds how much one job may grow the live heap. Past it
	// the job is interrupted, every event of the isolate fails with
	// ErrMemoryLimit and the isolate closes, so that its owner starts a
	// fresh one. Default: DefaultMemoryLimit.
	MemoryLimit int64
}

// DefaultMemoryLimit is Config.MemoryLimit's default: Cloudflare's limit
// of an isolate's memory.
const DefaultMemoryLimit = 128 << 20

// Isolate is one goja runtime and the loop that runs all of its
// JavaScript, one job at a time. The loop is the isolate's goroutine, or a
// caller that found the isolate idle and runs its queue itself (see
// postAndRun); "on the loop" means inside a job, whichever goroutine runs
// it. Its methods are safe for concurrent use unless they say they must
// be called on the loop.
type Isolate struct {
	cfg      Config
	log      *slog.Logger
	rt       *goja.Runtime
	host     *goja.Object
	internal *goja.Object

	mu      sync.Mutex
	queue   []job
	spare   []job
	running bool // a goroutine is running the queue: the loop, or a caller (see postAndRun)
	closed  bool
	closeEr error
	wake    chan struct{} // capacity 1
	stopped chan struct{} // closed when the loop has exited

	// The running job, read by the watchdog under sliceMu.
	sliceMu    sync.Mutex
	sliceStart time.Time
	sliceHeap  uint64 // live heap when the slice started
	sliceEvent *Event
	interrupt  error // set by the watchdog when it interrupted the slice

	// Loop-thread state.
	cur        *frame // the frame JavaScript runs in now
	base       *frame // the frame of the running job
	pending    int    // host calls and timers in flight
	sources    int    // external sources that may start events (sockets)
	waiting    map[*waiter]struct{}
	timers     timers
	rejections []*goja.Promise // rejected with no handler during this job
	then       goja.Callable   // Promise.prototype.then
	u8         goja.Constructor
	locals     map[any]any // extensions' per-isolate values (Local)

	events atomic.Int64 // events in flight, for placement
}

// job is a piece of JavaScript to run on the loop for an event.
type job struct {
	fr *frame
	fn func()
}

// New creates an isolate: a runtime with cfg's extensions installed and
// their preludes run, and its loop. Close it when done.
func New(cfg Config) (*Isolate, error) {
	if cfg.CPULimit <= 0 {
		cfg.CPULimit = DefaultCPULimit
	}
	if cfg.MemoryLimit <= 0 {
		cfg.MemoryLimit = DefaultMemoryLimit
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	prelude, err := compilePrelude(append([]Extension{coreExtension}, cfg.Extensions...))
	if err != nil {
		return nil, err
	}
	i := &Isolate{
		cfg:     cfg,
		log:     cfg.Logger,
		rt:      goja.New(),
		wake:    make(chan struct{}, 1),
		stopped: make(chan struct{}),
		waiting: map[*waiter]struct{}{},
	}
	i.rt.SetFieldNameMapper(goja.UncapFieldNameMapper())
	i.rt.SetAsyncContextTracker(tracker{i})
	i.rt.SetPromiseRejectionTracker(i.trackRejection)
	i.host = i.rt.NewObject()
	i.internal = i.rt.NewObject()
	i.base = &frame{ev: &Event{iso: i, ctx: context.Background()}}
	i.cur = i.base
	if err := i.setup(prelude); err != nil {
		return nil, err
	}
	go i.loop()
	return i, nil
}

// setup installs the natives and runs the prelude, before the loop
// starts.
func (i *Isolate) setup(prelude *goja.Program) error {
	then, ok := goja.AssertFunction(i.rt.Get("Promise").ToObject(i.rt).Get("prototype").ToObject(i.rt).Get("then"))
	if !ok {
		return errors.New("jsrt: no Promise.prototype.then")
	}
	i.then = then
	i.u8, _ = goja.AssertConstructor(i.rt.Get("Uint8Array"))
	for _, e := range append([]Extension{coreExtension}, i.cfg.Extensions...) {
		if e.Install == nil {
			continue
		}
		if err := e.Install(i, i.host); err != nil {
			return fmt.Errorf("jsrt: install %s: %w", e.Name, err)
		}
	}
	fn, err := i.rt.RunProgram(prelude)
	if err != nil {
		return fmt.Errorf("jsrt: run the prelude: %w", err)
	}
	call, _ := goja.AssertFunction(fn)
	if _, err := call(goja.Undefined(), i.host, i.internal, i.rt.GlobalObject()); err != nil {
		return fmt.Errorf("jsrt: run the prelude: %w", err)
	}
	i.flushRejections()
	return nil
}

// Name is the isolate's name from its Config.
func (i *Isolate) Name() string { return i.cfg.Name }

// Runtime is the isolate's goja runtime. Use it only on the loop.
func (i *Isolate) Runtime() *goja.Runtime { return i.rt }

// Internal is the object the preludes share for what is not global. Use
// it only on the loop.
func (i *Isolate) Internal() *goja.Object { return i.internal }

// Logger is the isolate's logger.
func (i *Isolate) Logger() *slog.Logger { return i.log }

// InFlight is the number of events running in the isolate.
func (i *Isolate) InFlight() int64 { return i.events.Load() }

// post queues fn to run on the loop in frame fr. It reports false when the
// isolate is closed.
func (i *Isolate) post(fr *frame, fn func()) bool {
	i.mu.Lock()
	if i.closed {
		i.mu.Unlock()
		return false
	}
	i.queue = append(i.queue, job{fr: fr, fn: fn})
	i.mu.Unlock()
	i.signal()
	return true
}

// postAndRun is post for a goroutine that runs no job: a host caller about
// to wait for its result, or a goroutine that finished Go work for the
// isolate. When no goroutine is running the queue, the caller runs it
// itself, so that a request costs no hand-off between goroutines (and,
// on another core, no wake-up of a parked thread). A goroutine inside a
// job must use post: running another isolate's queue there could make
// the job wait on JavaScript that waits for the job's own isolate.
func (i *Isolate) postAndRun(fr *frame, fn func(), stop func() bool) bool {
	i.mu.Lock()
	if i.closed {
		i.mu.Unlock()
		return false
	}
	i.queue = append(i.queue, job{fr: fr, fn: fn})
	if i.running {
		i.mu.Unlock()
		return true // the runner takes it before it lets go
	}
	i.running = true
	i.mu.Unlock()
	i.drain(true, stop)
	return true
}

func (i *Isolate) signal() {
	select {
	case i.wake <- struct{}{}:
	default:
	}
}

// Close stops the loop once the jobs already queued have run; events still
// waiting fail with ErrClosed. It waits for the loop to exit.
func (i *Isolate) Close() {
	i.close(ErrClosed)
	<-i.stopped
}

func (i *Isolate) close(err error) {
	i.mu.Lock()
	if !i.closed {
		i.closed = true
		i.closeEr = err
	}
	i.mu.Unlock()
	i.signal()
}

// Done is closed when the isolate's loop has exited.
func (i *Isolate) Done() <-chan struct{} { return i.stopped }

func (i *Isolate) loop() {
	defer close(i.stopped)
	watch(i)
	defer unwatch(i)
	for {
		i.mu.Lock()
		for i.running || (len(i.queue) == 0 && !i.closed) {
			i.mu.Unlock()
			<-i.wake
			i.mu.Lock()
		}
		if len(i.queue) == 0 && i.closed {
			err := i.closeEr
			i.mu.Unlock()
			i.shutdown(err)
			return
		}
		i.running = true
		i.mu.Unlock()
		i.drain(false, nil)
	}
}

// drain runs the queue until it is empty, then lets go of the isolate. The
// caller set i.running. A caller that is not the loop goroutine (once)
// runs one batch, the jobs queued when it took the isolate, and hands
// what was queued since to the loop: it has its own request to answer.
// It stops early, handing the rest of the batch to the loop, once stop
// (nil for never) reports true after a job: its answer is there, or its
// context ended.
func (i *Isolate) drain(once bool, stop func() bool) {
	released := false
	defer func() {
		if !released { // a panic past protect: never leave the isolate held
			i.mu.Lock()
			i.running = false
			i.mu.Unlock()
			i.signal()
		}
	}()
	release := func(more bool) {
		i.mu.Lock()
		i.running = false
		// A job queued since more was read found the isolate held and
		// left it to this runner: the loop must take it.
		more = more || len(i.queue) > 0
		closed := i.closed
		i.mu.Unlock()
		released = true
		if more || closed {
			i.signal() // the loop takes the rest, or shuts the isolate down
		}
	}
	for {
		i.mu.Lock()
		jobs := i.queue
		i.queue = i.spare[:0]
		i.mu.Unlock()
		for k := range jobs {
			i.run(jobs[k])
			jobs[k] = job{}
			if once && stop != nil && k+1 < len(jobs) && stop() {
				rest := append([]job(nil), jobs[k+1:]...)
				clear(jobs[k+1:])
				i.mu.Lock()
				i.queue = append(rest, i.queue...)
				i.spare = jobs[:0]
				i.mu.Unlock()
				release(true)
				return
			}
		}
		i.mu.Lock()
		i.spare = jobs
		more := len(i.queue) > 0
		i.mu.Unlock()
		if more && !once {
			continue
		}
		if !more {
			i.idle()
		}
		i.mu.Lock()
		more = len(i.queue) > 0
		i.mu.Unlock()
		if more && !once {
			continue
		}
		release(more)
		return
	}
}

// run runs one job as a slice of its event.
func (i *Isolate) run(j job) {
	ev := j.fr.ev
	if ev.err != nil {
		return // a failed event runs no more JavaScript
	}
	i.base, i.cur = j.fr, j.fr
	start := time.Now()
	heap := liveHeap()
	i.sliceMu.Lock()
	i.sliceStart, i.sliceEvent, i.sliceHeap = start, ev, heap
	i.sliceMu.Unlock()
	// Reporting a rejection may run JavaScript (a getter, a toString):
	// it runs in the slice, under the watchdog and the panic guard.
	if p := i.protect(func() { j.fn(); i.flushRejections() }); p != nil {
		// A Go panic in a native left the runtime in an unknown state:
		// fail every event and close the isolate, so that a fresh one
		// takes its place.
		i.log.Error("isolate restarted: a native function panicked", "isolate", i.cfg.Name, "panic", fmt.Sprint(p.value), "stack", p.stack)
		i.sliceMu.Lock()
		i.sliceEvent = nil
		i.sliceMu.Unlock()
		for w := range i.waiting {
			i.fail(w.ev, errPanic)
		}
		i.fail(ev, errPanic)
		i.close(errPanic)
		i.base, i.cur = nil, nil
		return
	}
	i.sliceMu.Lock()
	intr := i.interrupt
	i.interrupt, i.sliceEvent = nil, nil
	if intr != nil {
		i.rt.ClearInterrupt()
	}
	i.sliceMu.Unlock()
	ev.cpu.Add(int64(time.Since(start)))
	i.base, i.cur = nil, nil
	switch {
	case intr == ErrMemoryLimit:
		// The isolate's heap may hold what the job grew: drop it all.
		i.log.Error("isolate restarted: a job grew the heap past the memory limit", "isolate", i.cfg.Name, "limit", i.cfg.MemoryLimit)
		for w := range i.waiting {
			i.fail(w.ev, intr)
		}
		i.close(intr)
	case intr != nil:
		i.log.Error("event interrupted", "isolate", i.cfg.Name, "err", intr, "cpu", time.Duration(ev.cpu.Load()))
		i.fail(ev, intr)
	}
}

// errPanic fails the events of an isolate whose native panicked.
var errPanic = errors.New("the isolate stopped: a host function failed (see the log); it was restarted")

// panicked is a recovered panic and where it happened.
type panicked struct {
	value any
	stack string
}

// protect runs fn and returns what it panicked with, if it did.
func (i *Isolate) protect(fn func()) (p *panicked) {
	defer func() {
		if v := recover(); v != nil {
			p = &panicked{value: v, stack: string(debug.Stack())}
		}
	}()
	fn()
	return nil
}

// Closed reports whether the isolate was closed (by Close, or because it
// ran past its memory limit).
func (i *Isolate) Closed() bool {
	i.mu.Lock()
	defer i.mu.Unlock()
	return i.closed
}

// idle runs when the queue is empty: with DetectHangs, events that wait
// for a promise nothing can settle fail with ErrHung.
func (i *Isolate) idle() {
	if !i.cfg.DetectHangs || i.pending > 0 || i.sources > 0 || len(i.waiting) == 0 {
		return
	}
	for w := range i.waiting {
		if w.hang {
			i.fail(w.ev, ErrHung)
		}
	}
}

// shutdown fails every waiter and stops the timers.
func (i *Isolate) shutdown(err error) {
	i.timers.stopAll()
	for w := range i.waiting {
		delete(i.waiting, w)
		w.deliver(result{err: err})
	}
}

// fail ends ev with err: its waiters get err, and its JavaScript runs no
// more.
func (i *Isolate) fail(ev *Event, err error) {
	if ev.err == nil {
		ev.err = err
	}
	for w := range i.waiting {
		if w.ev == ev {
			delete(i.waiting, w)
			w.deliver(result{err: err})
		}
	}
	i.timers.stopEvent(i, ev)
}

// Local returns the value an extension kept in the isolate under key
// (SetLocal), or nil. Call it on the loop.
func (i *Isolate) Local(key any) any { return i.locals[key] }

// SetLocal keeps v in the isolate under key, for an extension's
// per-isolate state (cached functions, say). Call it on the loop.
func (i *Isolate) SetLocal(key, v any) {
	if i.locals == nil {
		i.locals = map[any]any{}
	}
	i.locals[key] = v
}

// CPULimit is the CPU time one event of the isolate may use.
func (i *Isolate) CPULimit() time.Duration { return i.cfg.CPULimit }
