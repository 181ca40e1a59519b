package wasm

import (
	"context"
	"errors"
	"fmt"

	"github.com/dop251/goja"

	"github.com/dwk/fleet/appliance/jsworker/jsrt"
)

// natives are the functions the prelude calls, as host.wasm.
func (s *state) natives() *goja.Object {
	o := s.rt.NewObject()
	set := func(name string, fn func(goja.FunctionCall) goja.Value) { o.Set(name, fn) }
	set("init", s.nativeInit)
	set("compile", func(c goja.FunctionCall) goja.Value {
		who := c.Argument(1).String()
		cm, err := compileModule(context.Background(), s.bytes(c.Argument(0)), false)
		if err != nil {
			s.throwCompile(who, err)
		}
		return s.rt.ToValue(&module{c: cm})
	})
	set("compileAsync", func(c goja.FunctionCall) goja.Value {
		b := append([]byte(nil), s.bytes(c.Argument(0))...)
		return s.iso.Async(func(ctx context.Context) (jsrt.Settle, error) {
			cm, err := compileModule(ctx, b, false)
			return func(*goja.Runtime) (goja.Value, error) {
				if err != nil {
					return nil, &jsrt.Error{Value: s.newError(s.compileError, "WebAssembly.compile(): "+compileMessage(err))}
				}
				return s.moduleObject(cm), nil
			}, nil
		})
	})
	set("validate", func(c goja.FunctionCall) goja.Value {
		_, err := compileModule(context.Background(), s.bytes(c.Argument(0)), false)
		return s.rt.ToValue(err == nil)
	})
	set("moduleExports", func(c goja.FunctionCall) goja.Value { return s.moduleExports(handle[*module](s, c, 0)) })
	set("moduleImports", func(c goja.FunctionCall) goja.Value { return s.moduleImports(handle[*module](s, c, 0)) })
	set("customSections", func(c goja.FunctionCall) goja.Value {
		return s.customSections(handle[*module](s, c, 0), c.Argument(1).String())
	})
	set("instantiate", func(c goja.FunctionCall) goja.Value {
		var values []goja.Value
		if err := s.rt.ExportTo(c.Argument(1), &values); err != nil {
			panic(s.rt.NewTypeError("import values: %v", err))
		}
		return s.instantiate(handle[*module](s, c, 0), values)
	})
	s.memoryNatives(set)
	s.tableNatives(set)
	s.globalNatives(set)
	return o
}

// nativeInit takes the prelude's classes and helpers.
func (s *state) nativeInit(c goja.FunctionCall) goja.Value {
	o := c.Argument(0).ToObject(s.rt)
	fn := func(name string) goja.Callable {
		f, ok := goja.AssertFunction(o.Get(name))
		if !ok {
			panic(s.rt.NewTypeError("wasm init: %s is not a function", name))
		}
		return f
	}
	s.compileError, s.linkError, s.runtimeError = o.Get("CompileError"), o.Get("LinkError"), o.Get("RuntimeError")
	s.jsModule, s.jsMemory, s.jsTable, s.jsGlobal = fn("Module"), fn("Memory"), fn("Table"), fn("Global")
	s.toBigInt, s.toList = fn("toBigInt"), fn("toList")
	return goja.Undefined()
}

// handle is argument i as a Go record of type T.
func handle[T any](s *state, c goja.FunctionCall, i int) T {
	h, ok := c.Argument(i).Export().(T)
	if !ok {
		var zero T
		panic(s.rt.NewTypeError("expected a %T record, got %s", zero, c.Argument(i)))
	}
	return h
}

// bytes is the bytes of v, a Uint8Array the prelude made (a view).
func (s *state) bytes(v goja.Value) []byte {
	b, ok := s.iso.Bytes(v)
	if !ok {
		panic(s.rt.NewTypeError("expected bytes"))
	}
	return b
}

// compileMessage is the message of a CompileError for err.
func compileMessage(err error) string {
	var ce *CompileError
	if errors.As(err, &ce) {
		return firstLine(ce.Msg)
	}
	return firstLine(err.Error())
}

func (s *state) throwCompile(who string, err error) {
	var ce *CompileError
	if !errors.As(err, &ce) {
		s.iso.Throw(err)
	}
	s.throw(s.compileError, who+": "+compileMessage(err))
}

// throwRange throws a RangeError.
func (s *state) throwRange(format string, args ...any) {
	s.iso.Throw(jsrt.Errorf("RangeError", format, args...))
}

// moduleObject makes the WebAssembly.Module of c.
func (s *state) moduleObject(c *compiled) goja.Value {
	v, err := s.jsModule(goja.Undefined(), s.rt.ToValue(&module{c: c}))
	if err != nil {
		panic(err)
	}
	return v
}

// kindName is the JavaScript API's name of an external kind.
func kindName(k byte) string {
	switch k {
	case kindFunc:
		return "function"
	case kindTable:
		return "table"
	case kindMemory:
		return "memory"
	case kindGlobal:
		return "global"
	case kindTag:
		return "tag"
	}
	return fmt.Sprintf("kind %d", k)
}

func (s *state) moduleExports(m *module) goja.Value {
	var out []any
	for _, e := range m.c.info.exports {
		if isReserved(e.name) {
			continue
		}
		out = append(out, map[string]any{"name": e.name, "kind": kindName(e.kind)})
	}
	return s.rt.NewArray(out...)
}

func (s *state) moduleImports(m *module) goja.Value {
	out := make([]any, len(m.c.info.imports))
	for i, imp := range m.c.info.imports {
		out[i] = map[string]any{"module": imp.module, "name": imp.name, "kind": kindName(imp.kind)}
	}
	return s.rt.NewArray(out...)
}

func (s *state) customSections(m *module, name string) goja.Value {
	var out []any
	for _, cs := range m.c.info.customs {
		if cs.name == name {
			out = append(out, s.iso.NewArrayBuffer(append([]byte(nil), cs.data...)))
		}
	}
	return s.rt.NewArray(out...)
}

func (s *state) memoryNatives(set func(string, func(goja.FunctionCall) goja.Value)) {
	set("newMemory", func(c goja.FunctionCall) goja.Value {
		l := limitsArg(c.Argument(1), c.Argument(2))
		m, err := s.newMemory(l)
		if err != nil {
			s.iso.Throw(fmt.Errorf("WebAssembly.Memory(): %w", err))
		}
		m.obj = c.Argument(0).ToObject(s.rt)
		return s.rt.ToValue(m)
	})
	set("memoryBuffer", func(c goja.FunctionCall) goja.Value { return s.buffer(handle[*memory](s, c, 0)) })
	set("memoryGrow", func(c goja.FunctionCall) goja.Value {
		m := handle[*memory](s, c, 0)
		delta := uint32(c.Argument(1).ToInteger())
		old, ok := s.grow(m, delta)
		if !ok {
			s.throwRange("WebAssembly.Memory.grow(): Maximum memory size exceeded")
		}
		return s.rt.ToValue(old)
	})
}

// limitsArg reads the limits the prelude checked: maximum -1 is none.
func limitsArg(initial, maximum goja.Value) limits {
	l := limits{min: uint32(initial.ToInteger())}
	if m := maximum.ToInteger(); m >= 0 {
		l.max, l.hasMax = uint32(m), true
	}
	return l
}

func (s *state) tableNatives(set func(string, func(goja.FunctionCall) goja.Value)) {
	set("newTable", func(c goja.FunctionCall) goja.Value {
		elem, _ := parseType(c.Argument(1).String())
		t, err := s.newTable(tableType{elem: elem, limits: limitsArg(c.Argument(2), c.Argument(3))})
		if err != nil {
			s.iso.Throw(fmt.Errorf("WebAssembly.Table(): %w", err))
		}
		t.obj = c.Argument(0).ToObject(s.rt)
		v := s.defaultRef(elem, c.Argument(4), c.Argument(5).ToBoolean())
		if raw := s.toWasm(v, elem); raw != 0 {
			keep := s.refKeep(v, elem)
			for i := uint32(0); i < t.typ.min; i++ {
				if err := t.rawSet(i, raw, keep); err != nil {
					s.iso.Throw(err)
				}
				keep = nil // held once is enough
			}
		}
		return s.rt.ToValue(t)
	})
	set("tableLength", func(c goja.FunctionCall) goja.Value {
		return s.rt.ToValue(s.tableLength(handle[*table](s, c, 0)))
	})
	set("tableGet", func(c goja.FunctionCall) goja.Value {
		return s.tableGet(handle[*table](s, c, 0), uint32(c.Argument(1).ToInteger()))
	})
	set("tableSet", func(c goja.FunctionCall) goja.Value {
		t := handle[*table](s, c, 0)
		s.tableSet(t, uint32(c.Argument(1).ToInteger()), s.defaultRef(t.typ.elem, c.Argument(2), c.Argument(3).ToBoolean()))
		return goja.Undefined()
	})
	set("tableGrow", func(c goja.FunctionCall) goja.Value {
		t := handle[*table](s, c, 0)
		return s.rt.ToValue(s.tableGrow(t, uint32(c.Argument(1).ToInteger()), s.defaultRef(t.typ.elem, c.Argument(2), c.Argument(3).ToBoolean())))
	})
}

// defaultRef is v, or the default value of a reference type when v is
// missing: null for funcref, undefined for externref.
func (s *state) defaultRef(t byte, v goja.Value, has bool) goja.Value {
	if has {
		return v
	}
	if t == typeFuncref {
		return goja.Null()
	}
	return goja.Undefined()
}

func (s *state) globalNatives(set func(string, func(goja.FunctionCall) goja.Value)) {
	set("newGlobal", func(c goja.FunctionCall) goja.Value {
		name := c.Argument(1).String()
		t, ok := parseType(name)
		if !ok {
			panic(s.rt.NewTypeError("WebAssembly.Global(): Descriptor property 'value' must be a WebAssembly type, not %q", name))
		}
		if t == typeV128 {
			panic(s.rt.NewTypeError("WebAssembly.Global(): v128 globals have no JavaScript value"))
		}
		typ := globalType{val: t, mutable: c.Argument(2).ToBoolean()}
		v, has := c.Argument(3), c.Argument(4).ToBoolean()
		var bits uint64
		switch {
		case !has && (t != typeExternref || !typ.mutable):
			// the default: zero, or null (for an immutable externref,
			// null rather than undefined: see Differences)
		default:
			bits = s.toWasm(v, t)
		}
		if bits != 0 && !typ.mutable && (t == typeExternref || t == typeFuncref) {
			panic(s.rt.NewTypeError("WebAssembly.Global(): an immutable %s global can only hold null here; make it mutable", typeName(t)))
		}
		g, err := s.newGlobal(typ, bits)
		if err != nil {
			s.iso.Throw(fmt.Errorf("WebAssembly.Global(): %w", err))
		}
		g.held = s.refKeep(v, t)
		g.obj = c.Argument(0).ToObject(s.rt)
		return s.rt.ToValue(g)
	})
	set("globalGet", func(c goja.FunctionCall) goja.Value { return s.globalGet(handle[*global](s, c, 0)) })
	set("globalSet", func(c goja.FunctionCall) goja.Value {
		s.globalSet(handle[*global](s, c, 0), c.Argument(1))
		return goja.Undefined()
	})
}
