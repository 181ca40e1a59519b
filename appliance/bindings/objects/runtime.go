package objects

import (
	"context"
	"fmt"
	"log/slog"
	"regexp"
	"sort"
	"sync"

	"github.com/dwk/fleet/appliance/fleet/objectid"
	"github.com/dwk/fleet/appliance/worker"
)

// Runtime runs the Durable Objects of one replica. Bind each object
// namespace with Namespace and put the result into worker.Bindings.Objects.
type Runtime struct {
	cfg   Config
	log   *slog.Logger
	stats stats

	// ctx is the parent of every event the runtime starts itself (alarms,
	// WebSocket messages); cancelled by Close.
	ctx    context.Context
	cancel context.CancelFunc
	stop   chan struct{} // closed by Close: stops the scheduler and janitor
	kick   chan struct{} // wakes the scheduler early; capacity 1
	wg     sync.WaitGroup

	mu        sync.Mutex
	state     runState
	classes   map[string]boundClass // bound classes by name
	instances map[objKey]*instance
	unloading map[objKey]*instance // stopped instances still closing
	inflight  int                  // events waiting for or holding a turn
	idle      chan struct{}        // closed when inflight drops to 0
	alarming  map[objKey]bool      // alarms being run
	// pollSeq numbers scheduler polls; finished records, per object, the
	// poll during which its last alarm run ended. A poll skips objects
	// whose run ended after it began: its index read may predate the
	// run's bookkeeping.
	pollSeq  uint64
	finished map[objKey]uint64

	timer alarmTimer // alarm times armed on this replica (alarmtimer.go)
}

type runState int

const (
	stateNew runState = iota
	stateOpen
	stateDraining
	stateClosed
)

// boundClass is an object class bound by Namespace.
type boundClass struct {
	ctor        worker.ObjectClass
	concurrency worker.Concurrency
}

// objKey identifies an object independently of how its id was made.
type objKey struct {
	ns string
	id objectid.ID
}

func keyOf(id worker.ObjectID) objKey { return objKey{ns: id.Namespace(), id: id.Bytes()} }

// New returns a runtime with cfg's defaults filled in. It starts nothing;
// call Open.
func New(cfg Config) *Runtime {
	cfg = cfg.withDefaults()
	return &Runtime{
		cfg:       cfg,
		log:       cfg.Logger.With("component", "objects"),
		stop:      make(chan struct{}),
		kick:      make(chan struct{}, 1),
		classes:   map[string]boundClass{},
		instances: map[objKey]*instance{},
		unloading: map[objKey]*instance{},
		alarming:  map[objKey]bool{},
		finished:  map[objKey]uint64{},
	}
}

// Open validates the configuration and starts the alarm scheduler and the
// idle janitor. Alarms set before a restart fire once their namespace is
// bound.
func (rt *Runtime) Open(ctx context.Context) error {
	if err := rt.cfg.Validate(); err != nil {
		return err
	}
	rt.mu.Lock()
	defer rt.mu.Unlock()
	if rt.state != stateNew {
		return fmt.Errorf("objects: open: runtime already opened")
	}
	rt.state = stateOpen
	rt.ctx, rt.cancel = context.WithCancel(context.WithoutCancel(ctx))
	rt.wg.Add(2)
	go rt.schedulerLoop()
	go rt.janitorLoop()
	return nil
}

// classNameRE restricts class names to what is safe in file names, URLs and
// database names.
var classNameRE = regexp.MustCompile(`^[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}$`)

// Namespace binds the object class className (registered with
// worker.RegisterObject) and returns its namespace for the binding
// bindingName. The id namespace is the class name, so every binding of one
// class, in any worker, addresses the same objects.
func (rt *Runtime) Namespace(bindingName, className string) (worker.ObjectNamespace, error) {
	if !classNameRE.MatchString(className) {
		return nil, fmt.Errorf("objects: binding %q: invalid class name %q", bindingName, className)
	}
	ctor, ok := worker.LookupObject(className)
	if !ok {
		return nil, fmt.Errorf("objects: binding %q: class %q: %w", bindingName, className, ErrUnknownClass)
	}
	rt.mu.Lock()
	rt.classes[className] = boundClass{ctor: ctor, concurrency: worker.ObjectConcurrency(className)}
	rt.mu.Unlock()
	rt.wake()
	return &namespace{rt: rt, binding: bindingName, class: className}, nil
}

// ActiveObjects is the number of object instances in memory.
func (rt *Runtime) ActiveObjects() int {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	return len(rt.instances)
}

// Asleep is the number of loaded objects that hibernate: out of memory,
// their WebSockets open (worker.Hibernatable).
func (rt *Runtime) Asleep() int {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	n := 0
	for _, in := range rt.instances {
		if in.asleep.Load() {
			n++
		}
	}
	return n
}

// boundClasses lists the bound class names in order.
func (rt *Runtime) boundClasses() []string {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	out := make([]string, 0, len(rt.classes))
	for c := range rt.classes {
		out = append(out, c)
	}
	sort.Strings(out)
	return out
}

// wake makes the scheduler poll now.
func (rt *Runtime) wake() {
	select {
	case rt.kick <- struct{}{}:
	default:
	}
}

// Close drains the runtime (if Drain was not called), stops its goroutines
// and waits for them, bounded by ctx. It does not close Config.Store or
// Config.Alarms; their owner does, after Close.
func (rt *Runtime) Close(ctx context.Context) error {
	rt.mu.Lock()
	st := rt.state
	rt.mu.Unlock()
	if st == stateClosed {
		return nil
	}
	var first error
	if st == stateOpen || st == stateDraining {
		first = rt.Drain(ctx)
	}
	rt.mu.Lock()
	rt.state = stateClosed
	rt.mu.Unlock()
	close(rt.stop)
	if rt.cancel != nil {
		rt.cancel()
	}
	done := make(chan struct{})
	go func() { rt.wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-ctx.Done():
		if first == nil {
			first = fmt.Errorf("objects: close: %w", ctx.Err())
		}
	}
	return first
}
