package jsworker

import (
	"context"
	"errors"

	"github.com/dop251/goja"

	"github.com/dwk/fleet/appliance/jsworker/jsrt"
	"github.com/dwk/fleet/appliance/worker"
)

// installObjectNatives adds what DurableObjectState calls on the host.
func installObjectNatives(iso *jsrt.Isolate, cf *goja.Object) {
	rt := iso.Runtime()
	object := func(v goja.Value) *jsObject {
		o, ok := v.Export().(*jsObject)
		if !ok {
			panic(rt.NewTypeError("not a Durable Object's state"))
		}
		return o
	}
	cf.Set("objBlock", func(c goja.FunctionCall) goja.Value {
		o := object(c.Argument(0))
		fn, ok := goja.AssertFunction(c.Argument(1))
		if !ok {
			panic(rt.NewTypeError("blockConcurrencyWhile() needs a function"))
		}
		return o.blockConcurrencyWhile(fn)
	})
	cf.Set("objWaitUntil", func(c goja.FunctionCall) goja.Value {
		settled := make(chan struct{})
		iso.OnSettled(c.Argument(1), func(goja.Value, error) { close(settled) })
		err := worker.WaitUntil(iso.Current().Context(), func(ctx context.Context) {
			select {
			case <-settled:
			case <-ctx.Done():
			}
		})
		if err != nil && !errors.Is(err, worker.ErrNoWaitUntil) {
			iso.Logger().Debug("waitUntil from an object", "err", err)
		}
		return goja.Undefined()
	})
	cf.Set("objSockets", func(c goja.FunctionCall) goja.Value {
		o := object(c.Argument(0))
		socks := o.state.GetWebSockets(c.Argument(1).String())
		open, _ := goja.AssertFunction(iso.Internal().Get("wsOpen"))
		out := make([]any, 0, len(socks))
		for _, ws := range socks {
			if ws.Closed() {
				continue
			}
			// A socket whose close is being handled is not listed.
			s := o.socket(rt, ws)
			if ok, err := open(goja.Undefined(), s); err == nil && ok.ToBoolean() {
				out = append(out, s)
			}
		}
		return rt.NewArray(out...)
	})
	cf.Set("objAutoResponse", func(c goja.FunctionCall) goja.Value {
		object(c.Argument(0)).state.SetWebSocketAutoResponse(c.Argument(1).String(), c.Argument(2).String())
		return goja.Undefined()
	})
}

// blockConcurrencyWhile runs fn with no other event of the object
// running (State.BlockConcurrencyWhile) and returns a promise of its
// result. From the constructor, fn runs before the object's first event.
// Called on the loop.
func (o *jsObject) blockConcurrencyWhile(fn goja.Callable) goja.Value {
	iso := o.st.iso
	rt := iso.Runtime()
	p, resolve, reject := rt.NewPromise()
	run := func(ctx context.Context) error {
		ev := o.newEvent(iso, ctx)
		defer ev.End()
		_, err := jsrt.Call(ev, jsrt.CallOptions{}, func(rt *goja.Runtime) (goja.Value, error) {
			return fn(goja.Undefined())
		}, func(rt *goja.Runtime, v goja.Value) (struct{}, error) {
			resolve(v)
			return struct{}{}, nil
		})
		if err != nil {
			ev.Post(func(*goja.Runtime) { reject(iso.ErrorValue(err)) })
		}
		return err
	}
	if o.rebuilding.Load() {
		// Constructed again after an isolate restart, inside one of the
		// object's events: isolate runs it in that event's turn.
		o.inits = append(o.inits, run)
		return rt.ToValue(p)
	}
	ctx := iso.Current().Context()
	if o.constructing.Load() {
		// Queued by the object runtime: it runs once the constructor has
		// returned, before the first event.
		if err := o.state.BlockConcurrencyWhile(ctx, run); err != nil {
			reject(iso.ErrorValue(err))
		}
		return rt.ToValue(p)
	}
	go func() {
		if err := o.state.BlockConcurrencyWhile(ctx, run); err != nil {
			iso.Logger().Debug("blockConcurrencyWhile", "object", o.state.ID, "err", err)
		}
	}()
	return rt.ToValue(p)
}
