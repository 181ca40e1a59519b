package jsrt

import (
	"github.com/dop251/goja"
)

// Bytes returns the memory of an ArrayBuffer, a typed array or a
// DataView: a view of it, not a copy, valid while JavaScript does not
// change it. ok is false for any other value. Call it on the loop.
func (i *Isolate) Bytes(v goja.Value) (b []byte, ok bool) {
	o, isObj := v.(*goja.Object)
	if !isObj {
		return nil, false
	}
	switch x := o.Export().(type) {
	case goja.ArrayBuffer:
		return x.Bytes(), true
	case []byte:
		if err := i.rt.ExportTo(o, &b); err == nil {
			return b, true
		}
	}
	switch o.ClassName() {
	case "Object":
		// typed arrays other than Uint8Array, and DataViews, export as
		// other types; ExportTo to []byte views their bytes.
		if i.rt.ExportTo(o, &b) == nil && isView(i.rt, o) {
			return b, true
		}
	}
	return nil, false
}

func isView(rt *goja.Runtime, o *goja.Object) bool {
	ab, ok := rt.Get("ArrayBuffer").(*goja.Object)
	if !ok {
		return false
	}
	f, ok := goja.AssertFunction(ab.Get("isView"))
	if !ok {
		return false
	}
	r, err := f(ab, o)
	return err == nil && r.ToBoolean()
}

// NewUint8Array returns a Uint8Array over b (not a copy: b must not be
// used by Go afterwards). Call it on the loop.
func (i *Isolate) NewUint8Array(b []byte) goja.Value {
	if b == nil {
		b = []byte{}
	}
	o, err := i.u8(nil, i.rt.ToValue(i.rt.NewArrayBuffer(b)))
	if err != nil {
		panic(err)
	}
	return o
}

// NewArrayBuffer returns an ArrayBuffer over b (not a copy). Call it on
// the loop.
func (i *Isolate) NewArrayBuffer(b []byte) goja.Value {
	if b == nil {
		b = []byte{}
	}
	return i.rt.ToValue(i.rt.NewArrayBuffer(b))
}
