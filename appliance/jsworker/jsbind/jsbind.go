package jsbind

import (
	"context"
	_ "embed"
	"errors"
	"strings"

	"github.com/dop251/goja"

	"github.com/dwk/fleet/appliance/jsworker/jsrt"
	"github.com/dwk/fleet/appliance/worker"
)

var (
	//go:embed kv.js
	kvJS string
	//go:embed objects.js
	objectsJS string
	//go:embed storage.js
	storageJS string
	//go:embed d1.js
	d1JS string
	//go:embed queue.js
	queueJS string
	//go:embed r2.js
	r2JS string
)

// Extension installs the binding classes. It runs after fetch.
var Extension = jsrt.Extension{
	Name:    "bindings",
	Install: install,
	JS:      strings.Join([]string{kvJS, objectsJS, storageJS, d1JS, queueJS, r2JS}, "\n"),
}

func install(iso *jsrt.Isolate, host *goja.Object) error {
	b := iso.Runtime().NewObject()
	host.Set("bindings", b)
	installKV(iso, b)
	installObjects(iso, b)
	installStorage(iso, b)
	installD1(iso, b)
	installQueue(iso, b)
	installR2(iso, b)
	return nil
}

// call runs fn for a binding: on a goroutine of its own, as an awaited
// call of an object's event (worker.Await), settling a promise.
func call(iso *jsrt.Isolate, fn func(ctx context.Context) (jsrt.Settle, error)) goja.Value {
	return iso.Async(func(ctx context.Context) (jsrt.Settle, error) {
		var s jsrt.Settle
		err := worker.Await(ctx, func() error {
			var err error
			s, err = fn(ctx)
			return err
		})
		return s, err
	})
}

// construct calls internal[name](args...), a binding class's constructor
// helper.
func construct(iso *jsrt.Isolate, name string, args ...goja.Value) goja.Value {
	f, ok := goja.AssertFunction(iso.Internal().Get(name))
	if !ok {
		panic(errors.New("jsbind: the bindings extension is not installed (no internal." + name + ")"))
	}
	v, err := f(goja.Undefined(), args...)
	if err != nil {
		panic(err)
	}
	return v
}

// bytesArg is the bytes of a string, ArrayBuffer or view argument (a
// copy: it outlives the call).
func bytesArg(iso *jsrt.Isolate, v goja.Value) ([]byte, bool) {
	if b, ok := iso.Bytes(v); ok {
		return append([]byte(nil), b...), true
	}
	if s, ok := v.Export().(string); ok {
		return []byte(s), true
	}
	return nil, false
}

// undefinedOr reports whether v is undefined or null.
func absent(v goja.Value) bool { return v == nil || goja.IsUndefined(v) || goja.IsNull(v) }
