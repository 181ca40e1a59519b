package webcrypto

import (
	"errors"

	"github.com/dop251/goja"

	"github.com/dwk/fleet/appliance/jsworker/jsrt"
)

// The names of the errors Web Crypto throws. All but TypeError are
// DOMException names.
const (
	notSupported  = "NotSupportedError"
	invalidAccess = "InvalidAccessError"
	dataError     = "DataError"
	operationErr  = "OperationError"
	syntaxError   = "SyntaxError"
	typeError     = "TypeError"
)

// domNames are the DOMException names this package throws. An error with
// one of them reaches JavaScript as a DOMException; "SyntaxError" here is
// the DOMException, never JavaScript's SyntaxError.
var domNames = map[string]bool{
	notSupported:         true,
	invalidAccess:        true,
	dataError:            true,
	operationErr:         true,
	syntaxError:          true,
	"QuotaExceededError": true,
	"TypeMismatchError":  true,
	"InvalidStateError":  true,
}

// errorValue is the JavaScript value thrown for err: a DOMException for a
// jsrt.TypedError with a DOMException name (an Error of that name when no
// DOMException global exists), else what the isolate makes of err. Call it
// on the loop.
func errorValue(iso *jsrt.Isolate, err error) goja.Value {
	var te *jsrt.TypedError
	if !errors.As(err, &te) || !domNames[te.Name] {
		return iso.ErrorValue(err)
	}
	rt := iso.Runtime()
	if ctor, ok := goja.AssertConstructor(rt.Get("DOMException")); ok {
		if v, cerr := ctor(nil, rt.ToValue(te.Message), rt.ToValue(te.Name)); cerr == nil {
			return v
		}
	}
	v := iso.ErrorValue(jsrt.Errorf("Error", "%s", te.Message))
	if o, ok := v.(*goja.Object); ok {
		o.Set("name", te.Name)
	}
	return v
}

// throw throws err into the JavaScript that called the running native.
func throw(iso *jsrt.Isolate, err error) {
	panic(errorValue(iso, err))
}
