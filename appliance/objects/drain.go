package objects

import (
	"context"
	"fmt"
)

// Drain prepares the runtime for exit: it stops taking events and alarms
// (they get ErrDraining: HTTP 503 with X-Dwk-Retry, so the front door
// replays them on another replica), waits for in-flight events
// to finish, then stops every instance — closing its WebSockets with 1012
// (service restart) so clients reconnect elsewhere, closing its storage and
// releasing its lease. Bounded by ctx: when ctx ends, remaining
// connections are dropped and ctx's error is returned. Calling Drain again
// is harmless.
func (rt *Runtime) Drain(ctx context.Context) error {
	rt.mu.Lock()
	switch rt.state {
	case stateNew:
		rt.state = stateDraining
		rt.mu.Unlock()
		return nil
	case stateClosed:
		rt.mu.Unlock()
		return ErrClosed
	}
	rt.state = stateDraining
	rt.mu.Unlock()

	first := rt.waitIdle(ctx)

	rt.mu.Lock()
	all := make([]*instance, 0, len(rt.instances))
	for _, in := range rt.instances {
		rt.detachLocked(in)
		all = append(all, in)
	}
	rt.mu.Unlock()

	var socks []*socket
	for _, in := range all {
		// Take the turn so no event runs while the instance stops; events
		// still queued find it gone and fail with ErrDraining.
		select {
		case in.turn <- struct{}{}:
			socks = append(socks, in.teardown(ctx, 1012, "service restart")...)
			<-in.turn
		case <-ctx.Done():
			socks = append(socks, in.teardown(ctx, 1012, "service restart")...)
		}
	}
	waitSockets(ctx, socks)
	if first == nil && ctx.Err() != nil {
		first = ctx.Err()
	}
	if first != nil {
		return fmt.Errorf("objects: drain: %w", first)
	}
	return nil
}

// waitIdle waits until no event is waiting for or holding a turn.
func (rt *Runtime) waitIdle(ctx context.Context) error {
	for {
		rt.mu.Lock()
		if rt.inflight == 0 {
			rt.mu.Unlock()
			return nil
		}
		idle := rt.idle
		rt.mu.Unlock()
		select {
		case <-idle:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}
