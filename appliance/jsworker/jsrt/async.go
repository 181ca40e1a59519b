package jsrt

import (
	"context"

	"github.com/dop251/goja"
)

// Settle converts the outcome of Go work into the value its promise is
// fulfilled with. It runs on the loop; a nil Settle means undefined.
type Settle func(rt *goja.Runtime) (goja.Value, error)

// Async runs work on a goroutine of its own with the current event's
// context and returns a promise that settles on the loop: fulfilled with
// what the Settle work returned makes, or rejected with work's error (see
// ErrorValue). The promise's reactions run in the frame Async was called
// in. Call it on the loop, from a native.
func (i *Isolate) Async(work func(ctx context.Context) (Settle, error)) goja.Value {
	p, resolve, reject := i.rt.NewPromise()
	fr := i.cur
	if fr == nil {
		fr = i.base
	}
	i.pending++
	go func() {
		settle, err := work(fr.ev.ctx)
		if !i.postAndRun(fr, func() {
			i.pending--
			if err != nil {
				reject(i.ErrorValue(err))
				return
			}
			v := goja.Undefined()
			if settle != nil {
				if v, err = settle(i.rt); err != nil {
					reject(i.ErrorValue(err))
					return
				}
			}
			resolve(v)
		}, nil) {
			return // closed: nobody waits for the promise any more
		}
	}()
	return i.rt.ToValue(p)
}

// Resolved returns a promise already fulfilled with v.
func (i *Isolate) Resolved(v goja.Value) goja.Value {
	p, resolve, _ := i.rt.NewPromise()
	resolve(v)
	return i.rt.ToValue(p)
}

// Rejected returns a promise already rejected with err (see ErrorValue).
func (i *Isolate) Rejected(err error) goja.Value {
	p, _, reject := i.rt.NewPromise()
	reject(i.ErrorValue(err))
	return i.rt.ToValue(p)
}

// AddSource counts an external source that may start events in the
// isolate (an open WebSocket, say): while any is counted, no event is
// failed as hung. Call it on the loop; RemoveSource undoes it.
func (i *Isolate) AddSource() { i.sources++ }

// RemoveSource undoes AddSource. Call it on the loop.
func (i *Isolate) RemoveSource() { i.sources-- }
