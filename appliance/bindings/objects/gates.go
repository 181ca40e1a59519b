package objects

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/dwk/fleet/appliance/worker"
)

// Input and output gates (see worker.Concurrency). An instance's turn is
// its input gate: the event that holds it runs alone. An event of a Gated
// class gives the turn up while it awaits a call that leaves the object
// (Open), and waits for it again when the call returns (resume); the
// events that ran meanwhile are counted as active with it, so that the
// output gate, a release and hibernation wait for all of them.

// turnChain is the set of turns an event's context holds: the object
// handling it and every object up the chain of stub calls that led to it.
// A node stops counting when its event ends, so a context that escapes its
// event (kept by a goroutine) does not pretend to hold the turn, and
// while its event awaits a call with the gate open (parked).
type turnChain struct {
	in     *instance
	parent *turnChain
	// gated: the event may give its turn up while it awaits a call (an
	// event of a Gated class, run by run).
	gated bool

	mu       sync.Mutex  // guards awaiting, blocking and turn hand-overs
	awaiting int         // calls in flight with the gate open
	blocking int         // BlockConcurrencyWhile callbacks running
	parked   atomic.Bool // the turn is given up
	ended    atomic.Bool
}

var _ worker.Gate = (*turnChain)(nil)

type turnKey struct{}

// withTurn marks ctx as an event of in that holds its turn; gated says
// whether it may give the turn up while it awaits a call.
func withTurn(ctx context.Context, in *instance, gated bool) (context.Context, *turnChain) {
	parent, _ := ctx.Value(turnKey{}).(*turnChain)
	c := &turnChain{in: in, parent: parent, gated: gated}
	ctx = context.WithValue(ctx, turnKey{}, c)
	return worker.WithGate(ctx, c), c
}

// holding reports whether the node's event runs and holds the turn.
func (c *turnChain) holding() bool { return !c.ended.Load() && !c.parked.Load() }

// holdsTurn reports whether ctx belongs to an event that holds the turn of
// in, directly or up its call chain: waiting for that turn would
// deadlock.
func holdsTurn(ctx context.Context, in *instance) bool {
	c, _ := ctx.Value(turnKey{}).(*turnChain)
	for ; c != nil; c = c.parent {
		if c.in == in && c.holding() {
			return true
		}
	}
	return false
}

// awaitingInstance is the instance of object k that an event up ctx's
// call chain belongs to when that event awaits a call with its gate open.
// A call back into the object joins that instance even when it is being
// released or drained (detached: new events wait for it to stop), since
// the event it serves is in flight there and waits for it.
func awaitingInstance(ctx context.Context, k objKey) *instance {
	for c, _ := ctx.Value(turnKey{}).(*turnChain); c != nil; c = c.parent {
		if c.in.key == k && c.parked.Load() && !c.ended.Load() {
			return c.in
		}
	}
	return nil
}

// callDepth is the number of object events up ctx's call chain.
func callDepth(ctx context.Context) int {
	n := 0
	for c, _ := ctx.Value(turnKey{}).(*turnChain); c != nil; c = c.parent {
		n++
	}
	return n
}

// inTurnOf reports whether ctx is an event of in itself that holds its
// turn.
func inTurnOf(ctx context.Context, in *instance) bool {
	c, _ := ctx.Value(turnKey{}).(*turnChain)
	return c != nil && c.in == in && c.holding()
}

// Open implements worker.Gate: the output gate first (the writes made so
// far become durable before the call leaves), then, for a gated event
// outside BlockConcurrencyWhile, the input gate. Calls made side by side
// from goroutines of one event open it once; the last to return takes the
// turn back.
func (c *turnChain) Open(ctx context.Context) (func() error, error) {
	if c.ended.Load() {
		// A context kept past its event (a goroutine): nothing to hold.
		return func() error { return nil }, nil
	}
	if err := c.in.confirm(ctx); err != nil {
		return nil, fmt.Errorf("object %s: make its writes durable before the call: %w", c.in.id, err)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.gated || c.blocking > 0 || c.ended.Load() {
		return func() error { return nil }, nil
	}
	c.awaiting++
	if c.awaiting == 1 {
		c.parked.Store(true)
		<-c.in.turn
		c.in.rt.stats.gateOpens.Add(1)
	}
	return c.resume, nil
}

// Confirm implements worker.Gate: the output gate alone.
func (c *turnChain) Confirm(ctx context.Context) error {
	if c.ended.Load() {
		return nil
	}
	if err := c.in.confirm(ctx); err != nil {
		return fmt.Errorf("object %s: make its writes durable: %w", c.in.id, err)
	}
	return nil
}

// resume ends one call opened by Open; the last one waits for the turn
// again. It fails with worker.ErrObjectReset when the instance stopped
// meanwhile.
func (c *turnChain) resume() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.awaiting--
	if c.awaiting > 0 || c.ended.Load() {
		return nil
	}
	if !c.takeBackLocked() || c.in.isDown() {
		return fmt.Errorf("object %s: %w", c.in.id, worker.ErrObjectReset)
	}
	return nil
}

// isDown reports whether the instance was torn down.
func (in *instance) isDown() bool {
	in.rt.mu.Lock()
	defer in.rt.mu.Unlock()
	return in.down
}

// takeBackLocked waits for the turn of a parked node. It gives up when the
// instance was torn down (a drain or release past its deadline tears down
// without the turn), and reports whether it holds the turn. Waiting has no
// deadline of its own: the turn's holder is an event like this one, and
// the teardown that ends every instance is bounded.
func (c *turnChain) takeBackLocked() bool {
	if !c.parked.Load() {
		return true
	}
	select {
	case c.in.turn <- struct{}{}:
		c.parked.Store(false)
		return true
	case <-c.in.unloaded:
		return false
	}
}

// end marks the event over once it holds the turn again (a goroutine of
// the event may still await a call), and reports whether it holds it.
func (c *turnChain) end() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	held := c.takeBackLocked()
	c.ended.Store(true)
	return held
}

// block and unblock bracket a BlockConcurrencyWhile callback run inside
// the event: the gate stays closed.
func (c *turnChain) block() {
	c.mu.Lock()
	c.blocking++
	c.mu.Unlock()
}

func (c *turnChain) unblock() {
	c.mu.Lock()
	c.blocking--
	c.mu.Unlock()
}

// begin counts an event that got the turn as active: it stays active
// while it awaits calls. The first active event holds the output of the
// storage, so the writes of every active event are committed together
// at Confirm. Runs in the turn.
func (in *instance) begin() {
	in.rt.mu.Lock()
	in.active++
	first := in.active == 1
	if first {
		in.quiet = make(chan struct{})
	}
	in.rt.mu.Unlock()
	if g := in.gate.Load(); first && g != nil {
		g.Hold()
	}
}

// finish ends an active event: the last one releases the storage's
// output, the others confirm their writes. A failed commit stops the
// instance and becomes the event's error. Runs in the turn, or (held
// false) after the instance was torn down without it.
func (in *instance) finish(ctx context.Context, held bool, err error) error {
	in.rt.mu.Lock()
	in.active--
	last := in.active == 0
	in.rt.mu.Unlock()
	defer func() {
		if last {
			in.rt.mu.Lock()
			close(in.quiet)
			in.rt.mu.Unlock()
		}
	}()
	g := in.gate.Load()
	if !held || g == nil {
		return err
	}
	cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), commitTimeout)
	defer cancel()
	var cerr error
	if last {
		cerr = g.Release(cctx)
	} else {
		cerr = g.Confirm(cctx)
	}
	if cerr != nil {
		in.rt.log.Warn("object storage commit failed; stopping instance", "object", in.id, "err", cerr)
		in.stop(ctx, worker.CloseServiceRestart, "storage commit failed")
		if err == nil {
			err = fmt.Errorf("commit storage of object %s: %w", in.id, cerr)
		}
	}
	return err
}

// quietState is whether no event of in is active, and the channel closed
// when none is. Read it in the turn.
func (in *instance) quietState() (bool, <-chan struct{}) {
	in.rt.mu.Lock()
	defer in.rt.mu.Unlock()
	return in.active == 0, in.quiet
}

// stopWhenQuiet stops a detached instance once no event of it is active
// (events of a Gated class that await calls finish first), in its turn.
// When ctx ends first it tears the instance down without the turn: the
// events still active find it stopped when their calls return.
func (in *instance) stopWhenQuiet(ctx context.Context, code int, reason string) []*socket {
	for {
		select {
		case in.turn <- struct{}{}:
		case <-ctx.Done():
			return in.teardown(ctx, code, reason)
		}
		quiet, ch := in.quietState()
		if quiet {
			in.notifyClose(ctx, code, reason)
			socks := in.teardown(ctx, code, reason)
			<-in.turn
			return socks
		}
		<-in.turn
		select {
		case <-ch:
		case <-ctx.Done():
			return in.teardown(ctx, code, reason)
		}
	}
}
