package jsrt_test

import (
	"context"
	"testing"

	"github.com/dop251/goja"

	"github.com/dwk/fleet/appliance/jsworker/jsrt"
	"github.com/dwk/fleet/appliance/jsworker/jsrt/jsrttest"
)

// BenchmarkCall measures one Call into an async handler and back: the
// bridge's cost per event.
func BenchmarkCall(b *testing.B) {
	iso := jsrttest.New(b)
	var handler goja.Callable
	if err := iso.Do(context.Background(), func(rt *goja.Runtime) error {
		v, err := rt.RunString("(async function fetch(req) { return { status: 200, body: 'hello ' + req } })")
		handler, _ = goja.AssertFunction(v)
		return err
	}); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			ev := iso.NewEvent(context.Background())
			_, err := jsrt.Call(ev, jsrt.CallOptions{}, func(rt *goja.Runtime) (goja.Value, error) {
				return handler(goja.Undefined(), rt.ToValue("x"))
			}, func(rt *goja.Runtime, v goja.Value) (string, error) {
				return v.(*goja.Object).Get("body").String(), nil
			})
			ev.End()
			if err != nil {
				b.Fatal(err)
			}
		}
	})
}
