package wasm

import (
	"math"
	"math/big"

	"github.com/dop251/goja"
)

// Converting values between JavaScript and WebAssembly, as the JS API's
// ToWebAssemblyValue and ToJSValue do: numbers for i32, f32 and f64, BigInt
// for i64, any value for externref, exported WebAssembly functions (or
// null) for funcref. v128 has no JavaScript value: using it throws a
// TypeError.

// typeName is the JavaScript API's name of a value type.
func typeName(t byte) string {
	switch t {
	case typeI32:
		return "i32"
	case typeI64:
		return "i64"
	case typeF32:
		return "f32"
	case typeF64:
		return "f64"
	case typeV128:
		return "v128"
	case typeFuncref:
		return "anyfunc"
	case typeExternref:
		return "externref"
	}
	return "unknown"
}

// parseType is the value type a JavaScript API name stands for.
func parseType(name string) (byte, bool) {
	switch name {
	case "i32":
		return typeI32, true
	case "i64":
		return typeI64, true
	case "f32":
		return typeF32, true
	case "f64":
		return typeF64, true
	case "v128":
		return typeV128, true
	case "anyfunc", "funcref":
		return typeFuncref, true
	case "externref":
		return typeExternref, true
	}
	return 0, false
}

// toWasm converts v to a value of type t, throwing a TypeError when it
// cannot. keep, for funcref, is what the reference must keep alive.
func (s *state) toWasm(v goja.Value, t byte) uint64 {
	switch t {
	case typeI32:
		return uint64(uint32(toInt32(s.toNumber(v))))
	case typeI64:
		return s.toInt64(v)
	case typeF32:
		return uint64(math.Float32bits(float32(s.toNumber(v))))
	case typeF64:
		return math.Float64bits(s.toNumber(v))
	case typeExternref:
		return s.refs.put(v)
	case typeFuncref:
		return s.funcToRef(v)
	}
	panic(s.rt.NewTypeError("type incompatibility when transforming from/to JS: %s has no JavaScript value", typeName(t)))
}

// fromWasm converts x, a value of type t, to JavaScript. keep is what a
// function reference's wrapper keeps alive (see funcFromRef).
func (s *state) fromWasm(x uint64, t byte, keep any) goja.Value {
	switch t {
	case typeI32:
		return s.rt.ToValue(int32(uint32(x)))
	case typeI64:
		return s.rt.ToValue(big.NewInt(int64(x)))
	case typeF32:
		return s.rt.ToValue(float64(math.Float32frombits(uint32(x))))
	case typeF64:
		return s.rt.ToValue(math.Float64frombits(x))
	case typeExternref:
		return s.refs.get(x)
	case typeFuncref:
		return s.funcFromRef(x, keep)
	}
	panic(s.rt.NewTypeError("type incompatibility when transforming from/to JS: %s has no JavaScript value", typeName(t)))
}

// toNumber is ECMAScript's ToNumber, which throws for a BigInt.
func (s *state) toNumber(v goja.Value) float64 {
	if goja.IsBigInt(v) {
		panic(s.rt.NewTypeError("Cannot convert a BigInt value to a number"))
	}
	return v.ToFloat()
}

// toInt32 is ECMAScript's ToInt32 of a number.
func toInt32(f float64) int32 {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return 0
	}
	return int32(uint32(int64(math.Mod(math.Trunc(f), 1<<32))))
}

var mask64 = new(big.Int).SetUint64(math.MaxUint64)

// toInt64 is ToBigInt64: a BigInt modulo 2^64; other values go through
// ToBigInt (the prelude's toBigInt), which rejects numbers.
func (s *state) toInt64(v goja.Value) uint64 {
	if !goja.IsBigInt(v) {
		r, err := s.toBigInt(goja.Undefined(), v)
		if err != nil {
			panic(err)
		}
		v = r
	}
	b, _ := v.Export().(*big.Int)
	if b == nil {
		return 0
	}
	if b.IsInt64() {
		return uint64(b.Int64())
	}
	return new(big.Int).And(b, mask64).Uint64()
}

// results converts the results of a call to JavaScript: undefined, one
// value, or an array of them.
func (s *state) results(stack []uint64, types []byte, keep any) goja.Value {
	switch len(types) {
	case 0:
		return goja.Undefined()
	case 1:
		return s.fromWasm(stack[0], types[0], keep)
	}
	vals := make([]any, len(types))
	for i, t := range types {
		vals[i] = s.fromWasm(stack[i], t, keep)
	}
	return s.rt.NewArray(vals...)
}
