package clone

import (
	_ "embed"
	"strings"

	"github.com/dop251/goja"

	"github.com/dwk/fleet/appliance/jsworker/jsrt"
)

// The prelude, in the order its parts depend on one another.
var (
	//go:embed kinds.js
	kindsJS string
	//go:embed structuredclone.js
	structuredCloneJS string
	//go:embed serialize.js
	serializeJS string
)

// Extension defines structuredClone and the serialization on internal
// (see the package doc). It needs the events and encoding extensions
// before it.
var Extension = jsrt.Extension{
	Name:    "clone",
	Install: install,
	JS:      strings.Join([]string{kindsJS, structuredCloneJS, serializeJS}, "\n"),
}

// install puts the natives on host.clone.
func install(iso *jsrt.Isolate, host *goja.Object) error {
	rt := iso.Runtime()
	n := rt.NewObject()
	buffer := func(v goja.Value) goja.ArrayBuffer {
		ab, ok := v.Export().(goja.ArrayBuffer)
		if !ok {
			iso.Throw(jsrt.Errorf("TypeError", "not an ArrayBuffer"))
		}
		return ab
	}
	objectProto := rt.Get("Object").ToObject(rt).Get("prototype").ToObject(rt)
	arrayProto := rt.Get("Array").ToObject(rt).Get("prototype").ToObject(rt)
	natives := map[string]func(goja.FunctionCall) goja.Value{
		// className(object) → the engine's class of the object: "Date",
		// "RegExp", "Error", "Boolean", "Number", "String", "Arguments",
		// "Function", or "Object" for the rest (Map, Set, buffers and
		// views among them).
		"className": func(c goja.FunctionCall) goja.Value {
			o, ok := c.Argument(0).(*goja.Object)
			if !ok {
				return goja.Undefined()
			}
			return rt.ToValue(o.ClassName())
		},
		// share(ab) → a new ArrayBuffer over the same memory, for a
		// transfer (the original is detached when the clone is done).
		"share": func(c goja.FunctionCall) goja.Value {
			return rt.ToValue(rt.NewArrayBuffer(buffer(c.Argument(0)).Bytes()))
		},
		// detach(ab) detaches an ArrayBuffer.
		"detach": func(c goja.FunctionCall) goja.Value {
			buffer(c.Argument(0)).Detach()
			return goja.Undefined()
		},
		// plainJSON(v) → whether JSON.stringify(v) says all of v.
		"plainJSON": func(c goja.FunctionCall) goja.Value {
			p := plainChecker{objectProto: objectProto, arrayProto: arrayProto, seen: map[*goja.Object]struct{}{}}
			return rt.ToValue(p.plain(c.Argument(0)))
		},
		// isDetached(ab) → whether the ArrayBuffer is detached.
		"isDetached": func(c goja.FunctionCall) goja.Value {
			return rt.ToValue(buffer(c.Argument(0)).Detached())
		},
	}
	for name, fn := range natives {
		if err := n.Set(name, fn); err != nil {
			return err
		}
	}
	return host.Set("clone", n)
}
