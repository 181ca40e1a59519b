package node

import (
	"github.com/dop251/goja"

	"github.com/dwk/fleet/appliance/jsworker/jsrt"
)

// codedError makes a JavaScript error of class name (Error, TypeError,
// RangeError) with a Node.js error code, as Node's own errors carry. Throw
// it with panic from a native.
func codedError(iso *jsrt.Isolate, name, code, message string) goja.Value {
	v := iso.ErrorValue(jsrt.Errorf(name, "%s", message))
	if o, ok := v.(*goja.Object); ok {
		o.Set("code", code)
	}
	return v
}
