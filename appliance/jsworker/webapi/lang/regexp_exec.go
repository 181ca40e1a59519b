package lang

import (
	"math"
	"strconv"

	"github.com/dop251/goja"

	"github.com/dwk/fleet/appliance/jsworker/jsrt"
)

// exec is RegExp.prototype.exec for the regexps whose pattern was
// translated (they have it as an own property): goja's exec on the
// translated pattern, plus .groups; with the d flag, a match in Go that
// also yields .indices. In Go because routers call it on every request.
func (n *natives) exec(c goja.FunctionCall) goja.Value {
	this, _ := c.This.(*goja.Object)
	var p *pattern
	if this != nil {
		if v := this.GetSymbol(n.kPattern); v != nil {
			p, _ = v.Export().(*pattern)
		}
	}
	if p == nil {
		return n.nativeExecCall(c.This, c.Argument(0))
	}
	if p.hasIndices {
		return n.execIndices(this, p, stringArg(c.Argument(0)))
	}
	m := n.nativeExecCall(this, c.Argument(0))
	if mo, ok := m.(*goja.Object); ok {
		mo.Set("groups", n.groups(p, func(i int) goja.Value { return mo.Get(strconv.Itoa(i)) }))
	}
	return m
}

func (n *natives) nativeExecCall(this, arg goja.Value) goja.Value {
	v, err := n.nativeExec(this, arg)
	if err != nil {
		panic(err)
	}
	return v
}

// groups builds a match's groups object (null prototype, in the order the
// names appear), or undefined when the pattern has no named groups.
func (n *natives) groups(p *pattern, group func(int) goja.Value) goja.Value {
	if p.names == nil {
		return goja.Undefined()
	}
	g := n.rt.NewObject()
	g.SetPrototype(nil)
	for k, name := range p.groupNames {
		var v goja.Value = goja.Undefined()
		for _, i := range p.groupIndex[k] {
			if x := group(i); x != nil && !goja.IsUndefined(x) {
				v = x
				break
			}
		}
		g.Set(name, v)
	}
	return g
}

// execIndices is exec for the d flag.
func (n *natives) execIndices(this *goja.Object, p *pattern, s goja.String) goja.Value {
	gy := p.global || p.sticky
	last := 0
	if gy {
		l := toLength(this.Get("lastIndex"))
		if l > int64(s.Length()) {
			this.Set("lastIndex", 0)
			return goja.Null()
		}
		last = int(l)
	}
	r, err := p.matchIndices(s, last)
	if err != nil {
		n.iso.Throw(jsrt.Errorf("SyntaxError", "Invalid regular expression: /%s/%s: %v", p.source, p.flags, err))
	}
	if r == nil || p.sticky && r[0] != last {
		if gy {
			this.Set("lastIndex", 0)
		}
		return goja.Null()
	}
	if gy {
		this.Set("lastIndex", r[1])
	}
	k := len(r) / 2
	matches := make([]any, k)
	pairs := make([]any, k)
	for i := range k {
		a, b := r[2*i], r[2*i+1]
		if a < 0 {
			matches[i], pairs[i] = goja.Undefined(), goja.Undefined()
			continue
		}
		matches[i] = s.Substring(a, b)
		pairs[i] = n.rt.NewArray(a, b)
	}
	m := n.rt.NewArray(matches...)
	indices := n.rt.NewArray(pairs...)
	m.Set("index", r[0])
	m.Set("input", s)
	m.Set("groups", n.groups(p, func(i int) goja.Value { return n.rt.ToValue(matches[i]) }))
	indices.Set("groups", n.groups(p, func(i int) goja.Value { return n.rt.ToValue(pairs[i]) }))
	m.Set("indices", indices)
	return m
}

// toLength is ECMAScript's ToLength.
func toLength(v goja.Value) int64 {
	f := v.ToFloat()
	switch {
	case f != f || f <= 0:
		return 0
	case f >= 1<<53-1:
		return 1<<53 - 1
	}
	return int64(math.Trunc(f))
}
