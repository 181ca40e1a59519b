package jsworker

import (
	"context"
	"errors"
	"sync/atomic"

	"github.com/dop251/goja"

	"github.com/dwk/fleet/appliance/jsworker/jsrt"
	"github.com/dwk/fleet/appliance/worker"
)

// invocation is one handler call and the work it hands to ctx.waitUntil.
// Its event ends when the handler is done and every promise given to
// waitUntil has settled.
type invocation struct {
	ev *jsrt.Event
	// ctx is the handler's context, which carries the host's keeper of
	// background work (worker.WaitUntil).
	ctx  context.Context
	refs atomic.Int32
}

func newInvocation(ev *jsrt.Event, ctx context.Context) *invocation {
	inv := &invocation{ev: ev, ctx: ctx}
	inv.refs.Store(1)
	return inv
}

// done ends the handler's part.
func (inv *invocation) done() { inv.release() }

func (inv *invocation) release() {
	if inv.refs.Add(-1) == 0 {
		inv.ev.End()
	}
}

// waitUntil keeps the replica (and the event) alive until p settles.
// Called on the loop.
func (inv *invocation) waitUntil(p goja.Value) {
	inv.refs.Add(1)
	settled := make(chan struct{})
	iso := inv.ev.Isolate()
	iso.OnSettled(p, func(_ goja.Value, err error) {
		if err != nil {
			var je *jsrt.Error
			if errors.As(err, &je) {
				iso.Logger().Error("a promise passed to waitUntil rejected", "err", je.Message, "stack", je.Stack)
			}
		}
		close(settled)
	})
	err := worker.WaitUntil(inv.ctx, func(bctx context.Context) {
		defer inv.release()
		select {
		case <-settled:
		case <-bctx.Done():
		}
	})
	if err != nil {
		// No keeper (an object's forwarded event) or the replica drained:
		// the promise still runs, only nothing waits for it.
		go func() {
			<-settled
			inv.release()
		}()
	}
}
