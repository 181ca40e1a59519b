package lang

import (
	"math"
	"math/big"

	"github.com/dop251/goja"

	"github.com/dwk/fleet/appliance/jsworker/jsrt"
)

// firstIllFormed returns the index of the first lone surrogate in s, or
// -1.
func firstIllFormed(s goja.String) int {
	n := s.Length()
	for i := 0; i < n; i++ {
		c := s.CharAt(i)
		switch {
		case c < 0xD800 || c > 0xDFFF:
		case c <= 0xDBFF && i+1 < n && s.CharAt(i+1) >= 0xDC00 && s.CharAt(i+1) <= 0xDFFF:
			i++
		default:
			return i
		}
	}
	return -1
}

func stringArg(v goja.Value) goja.String {
	if s, ok := v.(goja.String); ok {
		return s
	}
	s, _ := v.ToString().(goja.String)
	return s
}

// isWellFormed(string) reports whether the string has no lone surrogate.
func (n *natives) isWellFormed(c goja.FunctionCall) goja.Value {
	return n.rt.ToValue(firstIllFormed(stringArg(c.Argument(0))) < 0)
}

// toWellFormed(string) replaces each lone surrogate with U+FFFD.
func (n *natives) toWellFormed(c goja.FunctionCall) goja.Value {
	s := stringArg(c.Argument(0))
	first := firstIllFormed(s)
	if first < 0 {
		return s
	}
	units := make([]uint16, s.Length())
	for i := range units {
		units[i] = s.CharAt(i)
	}
	for i := first; i < len(units); i++ {
		c := units[i]
		switch {
		case c < 0xD800 || c > 0xDFFF:
		case c <= 0xDBFF && i+1 < len(units) && units[i+1] >= 0xDC00 && units[i+1] <= 0xDFFF:
			i++
		default:
			units[i] = 0xFFFD
		}
	}
	return goja.StringFromUTF16(units)
}

// transfer(buffer, newLength) moves the bytes of an ArrayBuffer into a new
// one of newLength bytes (the same memory when it is not longer) and
// detaches the old one.
func (n *natives) transfer(c goja.FunctionCall) goja.Value {
	ab, ok := c.Argument(0).Export().(goja.ArrayBuffer)
	if !ok {
		n.iso.Throw(jsrt.Errorf("TypeError", "ArrayBuffer.prototype.transfer called on something that is not an ArrayBuffer"))
	}
	if ab.Detached() {
		n.iso.Throw(jsrt.Errorf("TypeError", "Cannot transfer a detached ArrayBuffer"))
	}
	old := ab.Bytes()
	size := len(old)
	if v := c.Argument(1); !goja.IsUndefined(v) {
		f := v.ToFloat()
		if f < 0 || f > 1<<32 || f != f {
			n.iso.Throw(jsrt.Errorf("RangeError", "Invalid array buffer length"))
		}
		size = int(f)
	}
	var data []byte
	if size <= len(old) {
		data = old[:size:size]
	} else {
		data = make([]byte, size)
		copy(data, old)
	}
	ab.Detach()
	return n.rt.ToValue(n.rt.NewArrayBuffer(data))
}

// detached(buffer) reports whether an ArrayBuffer was detached.
func (n *natives) detached(c goja.FunctionCall) goja.Value {
	ab, ok := c.Argument(0).Export().(goja.ArrayBuffer)
	if !ok {
		n.iso.Throw(jsrt.Errorf("TypeError", "ArrayBuffer.prototype.detached called on something that is not an ArrayBuffer"))
	}
	return n.rt.ToValue(ab.Detached())
}

// callSites(skip) describes the JavaScript call stack above the native's
// caller, skipping skip more frames: an array of {fn, file, line, column,
// native}.
func (n *natives) callSites(c goja.FunctionCall) goja.Value {
	frames := n.rt.CaptureCallStack(0, nil)
	skip := int(c.Argument(0).ToInteger()) + 1 // the native itself
	var items []any
	for i, f := range frames {
		if i < skip {
			continue
		}
		o := n.rt.NewObject()
		pos := f.Position()
		o.Set("fn", f.FuncName())
		o.Set("file", pos.Filename)
		o.Set("line", pos.Line)
		o.Set("column", pos.Column)
		o.Set("native", f.SrcName() == "<native>")
		items = append(items, o)
	}
	return n.rt.NewArray(items...)
}

// sumPrecise(numbers) is Math.sumPrecise on an array of numbers: the sum
// computed exactly (a double's range fits in 2,200 bits) and rounded once.
func (n *natives) sumPrecise(c goja.FunctionCall) goja.Value {
	var xs []float64
	if err := n.rt.ExportTo(c.Argument(0), &xs); err != nil {
		n.iso.Throw(jsrt.Errorf("TypeError", "Math.sumPrecise: %v", err))
	}
	allNegZero := true
	posInf, negInf := false, false
	sum := new(big.Float).SetPrec(2300)
	for _, x := range xs {
		switch {
		case x != x:
			return n.rt.ToValue(math.NaN())
		case math.IsInf(x, 1):
			posInf = true
		case math.IsInf(x, -1):
			negInf = true
		}
		if x != 0 || !math.Signbit(x) {
			allNegZero = false
		}
		if !posInf && !negInf {
			sum.Add(sum, big.NewFloat(x))
		}
	}
	switch {
	case posInf && negInf:
		return n.rt.ToValue(math.NaN())
	case posInf:
		return n.rt.ToValue(math.Inf(1))
	case negInf:
		return n.rt.ToValue(math.Inf(-1))
	case allNegZero:
		return n.rt.ToValue(math.Copysign(0, -1))
	}
	f, _ := sum.Float64()
	return n.rt.ToValue(f)
}
