package objects

import (
	"context"
	"time"
)

// janitorLoop evicts idle instances and stops instances whose lease was
// lost, until Close.
func (rt *Runtime) janitorLoop() {
	defer rt.wg.Done()
	every := rt.cfg.IdleTimeout / 2
	if every > time.Second {
		every = time.Second
	}
	if every < time.Millisecond {
		every = time.Millisecond
	}
	for {
		select {
		case <-rt.stop:
			return
		case <-rt.cfg.Clock.After(every):
		}
		rt.sweep()
	}
}

// sweep evicts every instance that has had no event for IdleTimeout and has
// no open WebSocket, hibernates (in their turn) the ones with sockets whose
// class allows it, and stops (in their turn) instances whose lease was
// lost.
func (rt *Runtime) sweep() {
	now := rt.cfg.Clock.Now()
	var idle, lost, sleepy []*instance
	rt.mu.Lock()
	for _, in := range rt.instances {
		switch {
		case in.pending == 0 && len(in.sockets) == 0 && now.Sub(in.lastUsed) >= rt.cfg.IdleTimeout:
			rt.detachLocked(in)
			idle = append(idle, in)
		case isClosed(in.lost):
			lost = append(lost, in)
		case in.pending == 0 && !in.asleep.Load() && now.Sub(in.lastUsed) >= rt.cfg.IdleTimeout:
			// Only its sockets are open: it may hibernate.
			sleepy = append(sleepy, in)
		}
	}
	rt.mu.Unlock()
	ctx, cancel := context.WithTimeout(rt.ctx, 10*time.Second)
	defer cancel()
	for _, in := range idle {
		// Detached with no event pending: nothing can take its turn now.
		in.teardown(ctx, 0, "")
		rt.stats.instancesEvicted.Add(1)
	}
	for _, in := range sleepy {
		in.hibernateInTurn(ctx)
	}
	for _, in := range lost {
		if !rt.enterExisting(in) {
			continue
		}
		// load notices the lost lease and stops the instance.
		in.run(ctx, func(context.Context, *instance) error { return nil })
	}
}

func isClosed(ch <-chan struct{}) bool {
	if ch == nil {
		return false
	}
	select {
	case <-ch:
		return true
	default:
		return false
	}
}

// hibernateInTurn takes the instance's turn (no event runs, and the last
// one's writes are committed) and hibernates it. It bypasses run: closing
// the storage must not happen inside an event's output gate.
func (in *instance) hibernateInTurn(ctx context.Context) {
	rt := in.rt
	if !rt.enterExisting(in) {
		return
	}
	defer rt.leave(in)
	select {
	case in.turn <- struct{}{}:
	case <-ctx.Done():
		return
	}
	defer func() { <-in.turn }()
	if quiet, _ := in.quietState(); !quiet || in.isGone() || !in.loaded || in.obj == nil {
		return
	}
	in.hibernate()
}
