package objects

import (
	"context"
	"fmt"

	"github.com/dwk/fleet/appliance/worker"
)

// Release hands object id back: once the events that are running or
// queued ahead of it have finished (and those of a Gated class that await
// calls, in either order), the object's instance on this replica
// stops — its WebSockets are closed with 1012 (service restart) so their
// clients reconnect, its storage is closed and its lease released, so
// that another replica may take the object at once. It reports whether
// this replica was running the object; an object that is not running
// here, or is already stopping, is not an error.
//
// Release does not keep the object away: the next event for it starts it
// again wherever placement puts it, this replica included. It is bounded
// by ctx while it waits for the object's turn and for its active events;
// when ctx ends during the latter, the instance is torn down anyway (those
// events fail with worker.ErrObjectReset) and the error says so. Once it
// has begun, the teardown runs to its end.
func (rt *Runtime) Release(ctx context.Context, id worker.ObjectID) (bool, error) {
	rt.mu.Lock()
	in := rt.instances[keyOf(id)]
	rt.mu.Unlock()
	if in == nil || !rt.enterExisting(in) {
		return false, nil
	}
	defer rt.leave(in)
	if holdsTurn(ctx, in) {
		return false, ErrCallCycle
	}
	select {
	case in.turn <- struct{}{}:
	case <-ctx.Done():
		return false, fmt.Errorf("objects: release %s: %w", id, ctx.Err())
	}
	if in.isGone() || !in.loaded {
		// Stopping, or not started yet: the events queued behind this
		// call start it, so there is nothing to hand back.
		<-in.turn
		return false, nil
	}
	if quiet, _ := in.quietState(); quiet {
		in.stop(ctx, worker.CloseServiceRestart, "object released")
		<-in.turn
		return true, nil
	}
	// Events of a Gated class await calls: no new event starts here (it
	// waits for this instance to stop), and those finish first.
	rt.mu.Lock()
	rt.detachLocked(in)
	rt.mu.Unlock()
	<-in.turn
	in.stopWhenQuiet(ctx, worker.CloseServiceRestart, "object released")
	if err := ctx.Err(); err != nil {
		return true, fmt.Errorf("objects: release %s: events still awaiting calls were cut short: %w", id, err)
	}
	return true, nil
}

// ReleaseName is Release for the object that IDFromName(name) addresses in
// any namespace of class. It fails with ErrUnknownClass for a class this
// binary does not register.
func (rt *Runtime) ReleaseName(ctx context.Context, class, name string) (bool, error) {
	if !classNameRE.MatchString(class) {
		return false, fmt.Errorf("objects: release: invalid class name %q: %w", class, ErrUnknownClass)
	}
	if _, ok := worker.LookupObject(class); !ok {
		return false, fmt.Errorf("objects: release: class %q: %w", class, ErrUnknownClass)
	}
	ns := &namespace{rt: rt, class: class}
	return rt.Release(ctx, ns.IDFromName(name))
}
