package jsbind

import (
	"math"
	"math/big"

	"github.com/dop251/goja"

	"github.com/dwk/fleet/appliance/jsworker/jsrt"
)

// maxSafeInteger is the largest integer a JavaScript number holds exactly.
const maxSafeInteger = 1<<53 - 1

// sqlArg turns a JavaScript value bound to a SQL statement into the Go
// value the host's SQL takes (nil, int64, float64, string, []byte), as D1
// and Durable Object SQL convert them: booleans are 1 and 0, integral
// numbers INTEGER, other numbers REAL, BigInts INTEGER, buffers BLOB.
func sqlArg(iso *jsrt.Isolate, v goja.Value) (any, error) {
	if absent(v) {
		return nil, nil
	}
	switch x := v.Export().(type) {
	case bool:
		if x {
			return int64(1), nil
		}
		return int64(0), nil
	case int64:
		return x, nil
	case float64:
		if x == math.Trunc(x) && math.Abs(x) <= maxSafeInteger && !(x == 0 && math.Signbit(x)) {
			return int64(x), nil
		}
		return x, nil
	case string:
		return x, nil
	case *big.Int:
		if !x.IsInt64() {
			return nil, jsrt.Errorf("RangeError", "a BigInt bound to SQL must fit in 64 bits: %s", x)
		}
		return x.Int64(), nil
	}
	if b, ok := iso.Bytes(v); ok {
		return append([]byte(nil), b...), nil
	}
	return nil, jsrt.Errorf("TypeError", "SQL cannot bind a value of type %s (bind null, a number, a bigint, a string, a boolean or an ArrayBuffer)", typeOf(v))
}

// sqlArgs converts every argument from index from on.
func sqlArgs(iso *jsrt.Isolate, args []goja.Value) ([]any, error) {
	out := make([]any, len(args))
	for k, a := range args {
		v, err := sqlArg(iso, a)
		if err != nil {
			return nil, err
		}
		out[k] = v
	}
	return out, nil
}

// sqlValue is a SQL result value in JavaScript: numbers, strings, null,
// and an ArrayBuffer for a BLOB.
func sqlValue(iso *jsrt.Isolate, v any) any {
	switch x := v.(type) {
	case []byte:
		return iso.NewArrayBuffer(append([]byte(nil), x...))
	case int64:
		return x
	}
	return v
}

// sqlRows is rows as an array of arrays.
func sqlRows(iso *jsrt.Isolate, rows [][]any) goja.Value {
	return rowsOf(iso, rows, sqlValue)
}

// rowsOf is rows as an array of arrays of what value makes of each value.
func rowsOf(iso *jsrt.Isolate, rows [][]any, value func(*jsrt.Isolate, any) any) goja.Value {
	rt := iso.Runtime()
	out := make([]any, len(rows))
	for k, r := range rows {
		vals := make([]any, len(r))
		for j, x := range r {
			vals[j] = value(iso, x)
		}
		out[k] = rt.NewArray(vals...)
	}
	return rt.NewArray(out...)
}

// d1Arg is sqlArg as D1's bind() takes values: a BigInt is refused (D1
// does not take them yet), so is undefined, and an array of byte values
// (numbers 0 to 255) is a BLOB, as a buffer is. Errors carry the text of
// Cloudflare's D1_TYPE_ERROR.
func d1Arg(iso *jsrt.Isolate, v goja.Value) (any, error) {
	refuse := func() (any, error) {
		return nil, jsrt.Errorf("Error", "Type '%s' not supported for value '%s'", jsTypeOf(v), jsString(v))
	}
	if v == nil || goja.IsUndefined(v) {
		return refuse()
	}
	if _, ok := v.Export().(*big.Int); ok {
		return refuse()
	}
	if o, ok := v.(*goja.Object); ok {
		if b, ok := iso.Bytes(o); ok {
			return append([]byte(nil), b...), nil
		}
		if b, ok := byteArray(o); ok {
			return b, nil
		}
		return refuse()
	}
	a, err := sqlArg(iso, v)
	if err != nil {
		return refuse()
	}
	return a, nil
}

// byteArray is the bytes of a JavaScript array whose elements are all
// integers from 0 to 255.
func byteArray(o *goja.Object) ([]byte, bool) {
	if o.ClassName() != "Array" {
		return nil, false
	}
	elems, ok := o.Export().([]any)
	if !ok {
		return nil, false
	}
	out := make([]byte, len(elems))
	for k, e := range elems {
		var n float64
		switch x := e.(type) {
		case int64:
			n = float64(x)
		case float64:
			n = x
		default:
			return nil, false
		}
		if n < 0 || n > 255 || n != math.Trunc(n) {
			return nil, false
		}
		out[k] = byte(n)
	}
	return out, true
}

// d1Value is a D1 result value in JavaScript, as D1 returns it: numbers,
// strings, null, and a BLOB as an array of byte values (Cloudflare's
// results travel as JSON, which has no binary type).
func d1Value(iso *jsrt.Isolate, v any) any {
	if b, ok := v.([]byte); ok {
		out := make([]any, len(b))
		for k, c := range b {
			out[k] = int64(c)
		}
		return iso.Runtime().NewArray(out...)
	}
	return v
}

// jsTypeOf is JavaScript's typeof v.
func jsTypeOf(v goja.Value) string {
	switch {
	case v == nil || goja.IsUndefined(v):
		return "undefined"
	case goja.IsNull(v):
		return "object"
	}
	if o, ok := v.(*goja.Object); ok {
		if _, ok := goja.AssertFunction(o); ok {
			return "function"
		}
		return "object"
	}
	switch v.Export().(type) {
	case bool:
		return "boolean"
	case int64, float64:
		return "number"
	case string:
		return "string"
	case *big.Int:
		return "bigint"
	}
	if _, ok := v.(*goja.Symbol); ok {
		return "symbol"
	}
	return "object"
}

// jsString is String(v), or a placeholder where String would throw.
func jsString(v goja.Value) (s string) {
	if v == nil {
		return "undefined"
	}
	if sym, ok := v.(*goja.Symbol); ok {
		return sym.String()
	}
	defer func() {
		if recover() != nil {
			s = "[value]"
		}
	}()
	return v.String()
}

func typeOf(v goja.Value) string {
	if o, ok := v.(*goja.Object); ok {
		if o.ClassName() == "Function" {
			return "function"
		}
		return "object"
	}
	return v.ExportType().String()
}
