package wasm

import (
	"context"
	"errors"
	"strings"

	"github.com/dop251/goja"
	"github.com/tetratelabs/wazero/api"
)

// module is a WebAssembly.Module of an isolate: a compiled module of the
// process's cache.
type module struct {
	c *compiled
}

// instance is a WebAssembly.Instance.
type instance struct {
	self    *modRef
	stop    api.MutableGlobal
	imports *importSet
}

// instantiate instantiates m with the import values the prelude gathered
// (one per import) and returns its exports as [name, value, …].
func (s *state) instantiate(m *module, values []goja.Value) goja.Value {
	c := m.c
	s.addSigs(c.info.types)
	resolve, set, keep, err := s.resolveImports(c, values)
	if err != nil {
		s.throwLink(err)
	}
	mods := map[string]api.Module{}
	deps := []any{c, set}
	for ns, r := range resolve {
		mods[ns] = r.mod
		deps = append(deps, r)
	}
	deps = append(deps, keep...)
	ctx := withResolver(context.Background(), mods)

	// The start function runs now, and may call JavaScript.
	s.enter()
	mod, err := wazeroRuntime().InstantiateModule(ctx, c.mod, instanceConfig)
	stopped := s.leave()
	s.syncMemories()
	if err != nil {
		var jt *jsThrow
		if stopped == nil && !errors.As(err, &jt) && isLinkFailure(err) {
			s.throwLink(importFailure(err, importWheres(c.info)))
		}
		s.throwCallError(err, stopped)
	}
	in := &instance{self: newModRef(mod, nil, deps...), imports: set}
	set.keep = in.self
	if c.stoppable {
		if g, ok := mod.ExportedGlobal(stopExport).(api.MutableGlobal); ok {
			s.addStoppable(in, g)
		}
	}
	return s.exportsOf(in, c.info, values)
}

// isLinkFailure tells a failure to link (a LinkError) from a trap while
// instantiating (a RuntimeError: an out-of-bounds segment, a trapping
// start function).
func isLinkFailure(err error) bool {
	msg := err.Error()
	return !strings.Contains(msg, "wasm error:") && !strings.Contains(msg, "out of bounds") && !strings.Contains(msg, "start ")
}

// throwLink throws err as a LinkError.
func (s *state) throwLink(err error) {
	var le *linkError
	if errors.As(err, &le) {
		s.throw(s.linkError, "WebAssembly.Instance(): "+le.msg)
	}
	s.throw(s.linkError, "WebAssembly.Instance(): "+firstLine(err.Error()))
}

func firstLine(s string) string {
	if n := strings.IndexByte(s, '\n'); n >= 0 {
		return s[:n]
	}
	return s
}

// exportsOf returns the exports of in as [name, value, …]. An export of
// an import is the imported value itself; an index exported twice is the
// same object twice.
func (s *state) exportsOf(in *instance, info *moduleInfo, values []goja.Value) goja.Value {
	importOf := func(kind byte, index uint32) (goja.Value, bool) {
		var n uint32
		for i, imp := range info.imports {
			if imp.kind != kind {
				continue
			}
			if n == index {
				if i < len(values) {
					return values[i], true
				}
				return goja.Undefined(), true
			}
			n++
		}
		return nil, false
	}
	type key struct {
		kind  byte
		index uint32
	}
	made := map[key]goja.Value{}
	var out []any
	for _, e := range info.exports {
		if isReserved(e.name) {
			continue
		}
		k := key{e.kind, e.index}
		v, ok := made[k]
		if !ok {
			v = s.exportValue(in, info, e, importOf)
			made[k] = v
		}
		out = append(out, e.name, v)
	}
	s.registerExternTables(in, info)
	return s.rt.NewArray(out...)
}

// exportValue makes the JavaScript value of export e.
func (s *state) exportValue(in *instance, info *moduleInfo, e exportEntry, importOf func(byte, uint32) (goja.Value, bool)) goja.Value {
	if v, ok := importOf(e.kind, e.index); ok {
		switch e.kind {
		case kindMemory:
			if m, ok := v.Export().(*memory); ok {
				return s.wrapMemory(m)
			}
		case kindTable:
			if t, ok := v.Export().(*table); ok {
				return s.wrapTable(t)
			}
		case kindGlobal:
			if g, ok := v.Export().(*global); ok {
				return s.wrapGlobal(g)
			}
			return s.wrapGlobal(exportedGlobal(in.self, e.name, info.globals[e.index]))
		}
		return v
	}
	switch e.kind {
	case kindFunc:
		sig, _ := info.funcSig(e.index)
		return s.wrapFunction(exportedFunction(in.self, e.name, e.index, sig))
	case kindMemory:
		return s.wrapMemory(exportedMemory(in.self, e.name))
	case kindTable:
		return s.wrapTable(&table{owner: in.self, name: e.name, typ: info.tables[e.index]})
	case kindGlobal:
		return s.wrapGlobal(exportedGlobal(in.self, e.name, info.globals[e.index]))
	}
	return goja.Undefined() // tags: WebAssembly.Tag is not supported
}

// registerExternTables makes in a root of the externref collector if it
// has externref tables or globals.
func (s *state) registerExternTables(in *instance, info *moduleInfo) {
	root := false
	for i, t := range info.tables {
		if t.elem != typeExternref {
			continue
		}
		root = true
		if in.self.mod.ExportedGlobal(stopExport) == nil {
			continue // not instrumented: its tables are not exported
		}
		in.self.extTables = append(in.self.extTables, &table{owner: in.self, name: tableExport(i), typ: t})
	}
	for _, g := range info.globals {
		if g.val == typeExternref {
			root = true
		}
	}
	if root {
		s.addRoot(in.self)
	}
}
