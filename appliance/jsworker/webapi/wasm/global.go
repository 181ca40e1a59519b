package wasm

import (
	"github.com/dop251/goja"
	"github.com/tetratelabs/wazero/api"
)

// global is a WebAssembly.Global: one an instance exports, or one
// JavaScript made (a generated module defines it; an immutable one is
// compiled with its value, a mutable one is set after).
type global struct {
	owner *modRef
	name  string
	typ   globalType
	g     api.Global
	obj   *goja.Object
	// held keeps alive what a function reference set from JavaScript
	// points into.
	held any
}

// newGlobal makes a global of type t with the value bits.
func (s *state) newGlobal(t globalType, bits uint64) (*global, error) {
	init := bits
	if t.mutable || t.val == typeFuncref || t.val == typeExternref {
		init = 0
	}
	r, err := instantiateGenerated(globalModule(t, init), nil)
	if err != nil {
		return nil, err
	}
	g := &global{owner: r, name: ownedName, typ: t, g: r.mod.ExportedGlobal(ownedName)}
	if t.mutable && bits != 0 {
		g.g.(api.MutableGlobal).Set(bits)
	}
	if t.val == typeExternref {
		s.addRoot(r)
	}
	return g, nil
}

// exportedGlobal is the global owner exports as name, of type t.
func exportedGlobal(owner *modRef, name string, t globalType) *global {
	return &global{owner: owner, name: name, typ: t, g: owner.mod.ExportedGlobal(name)}
}

// wrapGlobal returns the JavaScript Global of g, making it once.
func (s *state) wrapGlobal(g *global) *goja.Object {
	if g.obj == nil {
		v, err := s.jsGlobal(goja.Undefined(), s.rt.ToValue(g))
		if err != nil {
			panic(err)
		}
		g.obj = v.(*goja.Object)
	}
	return g.obj
}

// globalGet is the value of Global.prototype.value.
func (s *state) globalGet(g *global) goja.Value {
	return s.fromWasm(g.g.Get(), g.typ.val, g)
}

// globalSet sets Global.prototype.value.
func (s *state) globalSet(g *global, v goja.Value) {
	mg, ok := g.g.(api.MutableGlobal)
	if !g.typ.mutable || !ok {
		panic(s.rt.NewTypeError("Can't set the value of an immutable global."))
	}
	raw := s.toWasm(v, g.typ.val)
	if keep := s.refKeep(v, g.typ.val); keep != nil {
		g.held = keep
	}
	mg.Set(raw)
}
