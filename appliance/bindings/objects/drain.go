package objects

import (
	"context"
	"fmt"
	"sync"

	"github.com/dwk/fleet/appliance/worker"
)

// drainParallel bounds how many instances Drain stops at once.
const drainParallel = 32

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

	// Instances stop side by side, so the handback takes about one lease
	// release round trip rather than one per object.
	var (
		mu    sync.Mutex
		socks []*socket
		wg    sync.WaitGroup
		slots = make(chan struct{}, drainParallel)
	)
	for _, in := range all {
		slots <- struct{}{}
		wg.Add(1)
		go func() {
			defer func() { <-slots; wg.Done() }()
			s := in.stopForDrain(ctx)
			mu.Lock()
			socks = append(socks, s...)
			mu.Unlock()
		}()
	}
	wg.Wait()
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

// stopForDrain stops the instance in its turn once no event of it is
// active, so none runs while it stops (events still queued find it gone
// and fail with ErrDraining); when ctx ends first it tears down without
// the turn.
func (in *instance) stopForDrain(ctx context.Context) []*socket {
	return in.stopWhenQuiet(ctx, worker.CloseServiceRestart, "service restart")
}
