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
	rt := iso.Runtime()
	out := make([]any, len(rows))
	for k, r := range rows {
		vals := make([]any, len(r))
		for j, x := range r {
			vals[j] = sqlValue(iso, x)
		}
		out[k] = rt.NewArray(vals...)
	}
	return rt.NewArray(out...)
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
