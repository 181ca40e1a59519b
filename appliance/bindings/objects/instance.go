package objects

import (
	"context"
	"errors"
	"fmt"
	"runtime/debug"
	"sync/atomic"
	"time"

	"github.com/gorilla/websocket"

	"github.com/dwk/fleet/appliance/worker"
)

// instance is one object in memory. Its turn is a token in a channel of
// capacity one: whoever holds the token runs; it is the object's input
// gate (gates.go). Go queues blocked senders in FIFO order, so events run
// in arrival order.
type instance struct {
	rt       *Runtime
	key      objKey
	ctor     worker.ObjectClass
	strict   bool // worker.Strict: an event keeps the turn while it awaits calls
	turn     chan struct{}
	prev     *instance     // earlier instance of the object still stopping
	unloaded chan struct{} // closed when teardown finished

	// Guarded by rt.mu.
	pending  int           // events counted by enter, up to leave
	active   int           // events that got the turn and have not ended (gates.go)
	quiet    chan struct{} // closed when active drops to 0
	lastUsed time.Time
	gone     bool // out of rt.instances; waiting events retry elsewhere
	down     bool // torn down (teardown ran)
	sockets  []*socket
	lost     <-chan struct{} // the lease's Lost channel once loaded
	// autoRequest and autoResponse: SetWebSocketAutoResponse.
	autoRequest, autoResponse string

	// Guarded by the turn.
	id     worker.ObjectID
	loaded bool
	lease  Lease
	db     ObjectDB
	obj    worker.Object

	constructing atomic.Bool
	initFns      []func(context.Context) error // queued by BlockConcurrencyWhile in the constructor
	// asleep: hibernated, loaded (lease and sockets kept) with no object
	// in memory and its storage closed; the next event opens and
	// constructs it again.
	asleep atomic.Bool
	// gate is the output gate of the open storage (nil when it has none,
	// or none is open), for WebSocket sends from any goroutine.
	gate atomic.Pointer[gateRef]
}

// gateRef holds an OutputGate in an atomic pointer.
type gateRef struct{ OutputGate }

// setDB makes db the instance's storage (nil: none). Runs in the turn.
func (in *instance) setDB(db ObjectDB) {
	in.db = db
	if g, ok := db.(OutputGate); ok {
		in.gate.Store(&gateRef{g})
	} else {
		in.gate.Store(nil)
	}
}

// enter finds or creates the instance of id and counts an event on it. A
// call back into an object whose event up ctx's call chain awaits it joins
// that event's instance (see awaitingInstance).
func (rt *Runtime) enter(ctx context.Context, id worker.ObjectID) (*instance, error) {
	k := keyOf(id)
	rt.mu.Lock()
	defer rt.mu.Unlock()
	switch rt.state {
	case stateNew:
		return nil, ErrNotOpen
	case stateClosed:
		return nil, ErrClosed
	}
	if in := awaitingInstance(ctx, k); in != nil && !in.down {
		rt.countEventLocked(in)
		return in, nil
	}
	if rt.state == stateDraining {
		// Existing objects too: a drain must reach idle quickly so their
		// leases can be handed back; the caller replays elsewhere.
		return nil, ErrDraining
	}
	in := rt.instances[k]
	if in == nil {
		class, ok := rt.classes[k.ns]
		if !ok {
			return nil, fmt.Errorf("objects: class %q: %w", k.ns, ErrUnknownClass)
		}
		in = &instance{
			rt: rt, key: k, ctor: class.ctor, strict: class.concurrency == worker.Strict, id: id,
			turn: make(chan struct{}, 1), unloaded: make(chan struct{}),
			prev: rt.unloading[k], lastUsed: rt.cfg.Clock.Now(),
		}
		rt.instances[k] = in
	}
	rt.countEventLocked(in)
	return in, nil
}

// enterExisting counts an event on in unless it is gone.
func (rt *Runtime) enterExisting(in *instance) bool {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	if in.gone || rt.state == stateClosed {
		return false
	}
	rt.countEventLocked(in)
	return true
}

func (rt *Runtime) countEventLocked(in *instance) {
	in.pending++
	if rt.inflight == 0 {
		rt.idle = make(chan struct{})
	}
	rt.inflight++
}

// leave ends an event counted by enter.
func (rt *Runtime) leave(in *instance) {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	in.pending--
	in.lastUsed = rt.cfg.Clock.Now()
	rt.inflight--
	if rt.inflight == 0 {
		close(rt.idle)
	}
}

// event runs fn in the turn of object id, starting its instance if needed.
func (rt *Runtime) event(ctx context.Context, id worker.ObjectID, fn func(context.Context, *instance) error) error {
	for {
		in, err := rt.enter(ctx, id)
		if err != nil {
			return err
		}
		err = in.run(ctx, fn)
		if !errors.Is(err, errGone) {
			return err
		}
	}
}

// run takes the turn, loads the object and runs fn as an event that, for
// a Gated class, gives the turn up while it awaits calls (gates.go). The
// event must have been counted (enter or enterExisting); run ends it.
func (in *instance) run(ctx context.Context, fn func(context.Context, *instance) error) error {
	return in.runEvent(ctx, !in.strict, fn)
}

// runEvent is run; gated says whether the event may give its turn up.
func (in *instance) runEvent(ctx context.Context, gated bool, fn func(context.Context, *instance) error) (err error) {
	defer in.rt.leave(in)
	if holdsTurn(ctx, in) {
		return ErrCallCycle
	}
	if callDepth(ctx) >= MaxCallDepth {
		return ErrCallDepth
	}
	select {
	case in.turn <- struct{}{}:
	case <-ctx.Done():
		return ctx.Err()
	}
	if in.isGone() && awaitingInstance(ctx, in.key) != in {
		<-in.turn
		return errGone
	}
	if err := in.load(ctx); err != nil {
		<-in.turn
		return err
	}
	tctx, c := withTurn(ctx, in, gated)
	in.begin()
	defer func() {
		held := c.end()
		err = in.finish(ctx, held, err)
		if held {
			<-in.turn
		}
	}()
	return fn(tctx, in)
}

// commitTimeout bounds the commit that ends an event, which runs even
// when the event's caller has gone away.
const commitTimeout = 10 * time.Second

// confirm commits the writes made so far, when the object's storage holds
// them (see OutputGate). It reads the gate atomically, so any goroutine of
// an event may call it.
func (in *instance) confirm(ctx context.Context) error {
	g := in.gate.Load()
	if g == nil {
		return nil
	}
	cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), commitTimeout)
	defer cancel()
	return g.Confirm(cctx)
}

func (in *instance) isGone() bool {
	in.rt.mu.Lock()
	defer in.rt.mu.Unlock()
	return in.gone
}

// load starts the object if it is not running: claim, open, construct, run
// the constructor's BlockConcurrencyWhile callbacks. On failure the
// instance is discarded so the next event starts afresh. Runs in the turn.
func (in *instance) load(ctx context.Context) error {
	rt := in.rt
	if in.loaded {
		select {
		case <-in.lease.Lost():
			rt.log.Warn("object lease lost; stopping instance", "object", in.id)
			in.stop(ctx, worker.CloseServiceRestart, "lease lost")
			return errGone
		default:
		}
		if in.obj == nil {
			return in.wake(ctx)
		}
		return nil
	}
	if in.prev != nil {
		select {
		case <-in.prev.unloaded:
			in.prev = nil
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	lease, err := rt.cfg.Placer.Claim(ctx, in.id)
	if err != nil {
		in.stop(ctx, 0, "")
		return fmt.Errorf("claim object %s: %w", in.id, err)
	}
	in.lease = lease
	db, err := rt.cfg.Store.Open(ctx, in.id, lease)
	if err != nil {
		in.stop(ctx, 0, "")
		return fmt.Errorf("open storage of object %s: %w", in.id, err)
	}
	in.setDB(db)
	obj, err := in.newObject(ctx)
	if err != nil {
		in.stop(ctx, 0, "")
		return fmt.Errorf("start object %s: %w", in.id, err)
	}
	in.obj, in.loaded = obj, true
	rt.mu.Lock()
	in.lost = lease.Lost()
	rt.mu.Unlock()
	rt.stats.instancesStarted.Add(1)
	return nil
}

// newObject builds the object's State over its open storage and constructs
// it. Runs in the turn.
func (in *instance) newObject(ctx context.Context) (worker.Object, error) {
	storage := worker.NewStorage(in.db, &alarmStore{in: in})
	state := worker.NewState(in.id, storage, in)
	// The constructor's BlockConcurrencyWhile callbacks keep the gate
	// closed.
	tctx, c := withTurn(ctx, in, false)
	defer c.end()
	return in.construct(tctx, state)
}

// wake constructs a hibernated object again, for the event that woke it;
// its sockets, lease and storage are where they were. An object that
// fails to start again is stopped, its sockets closed with 1011. Runs in
// the turn.
func (in *instance) wake(ctx context.Context) error {
	db, err := in.rt.cfg.Store.Open(ctx, in.id, in.lease)
	if err != nil {
		in.stop(ctx, worker.CloseServiceRestart, "object storage unavailable")
		return fmt.Errorf("wake object %s: open storage: %w", in.id, err)
	}
	in.setDB(db)
	obj, err := in.newObject(ctx)
	if err != nil {
		in.stop(ctx, websocket.CloseInternalServerErr, "object failed to start")
		return fmt.Errorf("wake object %s: %w", in.id, err)
	}
	in.obj = obj
	in.asleep.Store(false)
	in.rt.stats.objectsWoken.Add(1)
	return nil
}

// hibernate drops the object from memory and closes its storage when its
// class allows it, keeping its lease and sockets. Runs in the turn, with
// no event active.
func (in *instance) hibernate() {
	h, ok := in.obj.(worker.Hibernatable)
	if !ok || !h.Hibernatable() {
		return
	}
	if err := in.db.Close(); err != nil {
		// Closing commits nothing (every event's writes are committed by
		// its end): keep the object awake rather than guess.
		in.rt.log.Error("close object storage to hibernate", "object", in.id, "err", err)
		return
	}
	in.setDB(nil)
	in.dispose()
	in.asleep.Store(true)
	in.rt.stats.objectsHibernated.Add(1)
}

// dispose drops the object from memory, telling it first when it holds
// what Go's collector cannot free (worker.Disposer). Runs in the turn, or
// with no event running.
func (in *instance) dispose() {
	if d, ok := in.obj.(worker.Disposer); ok {
		d.Dispose()
	}
	in.obj = nil
}

// construct calls the class constructor and then the callbacks it queued
// with BlockConcurrencyWhile.
func (in *instance) construct(ctx context.Context, state *worker.State) (obj worker.Object, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("panic in constructor: %v\n%s", p, debug.Stack())
		}
	}()
	in.constructing.Store(true)
	obj = in.ctor(state, in.rt.cfg.Env(in.key.ns))
	in.constructing.Store(false)
	if obj == nil {
		return nil, errors.New("constructor returned nil")
	}
	fns := in.initFns
	in.initFns = nil
	for _, fn := range fns {
		if err := fn(ctx); err != nil {
			return nil, fmt.Errorf("blockConcurrencyWhile in constructor: %w", err)
		}
	}
	return obj, nil
}

// detach removes in from the runtime's map so that new events start a new
// instance (which waits for this one's teardown). It reports whether in was
// still attached.
func (rt *Runtime) detachLocked(in *instance) bool {
	if in.gone {
		return false
	}
	in.gone = true
	if rt.instances[in.key] == in {
		delete(rt.instances, in.key)
	}
	rt.unloading[in.key] = in
	return true
}

// stop detaches and tears down the instance. Runs in the turn. code is the
// close code for its WebSockets; their read loops end on their own.
func (in *instance) stop(ctx context.Context, code int, reason string) {
	in.rt.mu.Lock()
	in.rt.detachLocked(in)
	in.rt.mu.Unlock()
	in.notifyClose(ctx, code, reason)
	in.teardown(ctx, code, reason)
}

// notifyClose tells an awake object that the host is about to close its
// sockets with code (its WebSocketClose, once per socket), so that it can
// say goodbye or record who left. A hibernated object is not woken for it.
// The instance must be detached (its read loops no longer deliver closes)
// and the caller must hold its turn.
func (in *instance) notifyClose(ctx context.Context, code int, reason string) {
	h, ok := in.obj.(worker.WebSocketCloseHandler)
	if code == 0 || !ok {
		return
	}
	in.rt.mu.Lock()
	socks := append([]*socket(nil), in.sockets...)
	in.rt.mu.Unlock()
	tctx, c := withTurn(ctx, in, false)
	defer c.end()
	for _, s := range socks {
		if err := in.call(func() { h.WebSocketClose(tctx, s.ws, code, reason) }); err != nil {
			in.rt.log.Error("object WebSocketClose panicked", "object", in.id, "err", err)
		}
	}
}

// teardown starts closing the instance's sockets (with code, or dropping
// them if 0), closes its database and releases its lease; it returns the
// sockets so a caller that does not hold the turn can wait for them. The
// instance must be detached, and the caller must hold its turn or know that
// no event runs (or accept cutting the running ones short: a drain past
// its deadline). It runs once; later calls return nothing.
func (in *instance) teardown(ctx context.Context, code int, reason string) []*socket {
	rt := in.rt
	rt.mu.Lock()
	if in.down {
		rt.mu.Unlock()
		return nil
	}
	in.down = true
	socks := in.sockets
	in.sockets = nil
	rt.mu.Unlock()
	closeSockets(socks, code, reason)
	if in.db != nil {
		if err := in.db.Close(); err != nil {
			rt.log.Error("close object storage", "object", in.id, "err", err)
		}
		in.setDB(nil)
	}
	if in.lease != nil {
		if err := in.lease.Release(ctx); err != nil {
			rt.log.Error("release object lease", "object", in.id, "err", err)
		}
		in.lease = nil
	}
	if in.loaded {
		rt.stats.instancesStopped.Add(1)
	}
	in.dispose()
	in.loaded = false
	rt.mu.Lock()
	if rt.unloading[in.key] == in {
		delete(rt.unloading, in.key)
	}
	rt.mu.Unlock()
	close(in.unloaded)
	return socks
}
