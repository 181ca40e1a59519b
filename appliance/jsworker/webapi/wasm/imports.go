package wasm

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"weak"

	"github.com/dop251/goja"
	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"
)

// Linking an instance to its import object. Each import becomes a link:
// an export of some module. An exported WebAssembly function, a Memory, a
// Table or a Global links to the module that exports it; a JavaScript
// function links to a host module made for this instance, one per import
// namespace, whose Go functions call back into JavaScript; a number for an
// immutable global links to a generated module that defines it. A
// namespace whose links all come from one module under their own names
// resolves to that module; any other gets a shim, a generated module that
// imports each link and exports it under the import's name.

// link is where an import comes from.
type link struct {
	from *modRef
	name string
	keep any // what the link needs alive (a record)
}

// importSet is what an instance's host functions call: the JavaScript
// functions of its imports. The host functions reach it through a weak
// pointer, since wazero's engine, a process-wide root, holds them.
type importSet struct {
	s    *state
	fns  []goja.Callable
	keep *modRef // the instance, which funcref arguments keep alive
}

// linkError is an import object that does not fit the module.
type linkError struct{ msg string }

func (e *linkError) Error() string { return e.msg }

func linkErrorf(format string, args ...any) error {
	return &linkError{msg: fmt.Sprintf(format, args...)}
}

// resolveImports links every import of c to values (one per import, as
// the prelude checked them) and returns the modules to resolve each
// namespace with, and the import set of its host functions.
func (s *state) resolveImports(c *compiled, values []goja.Value) (map[string]*modRef, *importSet, []any, error) {
	info := c.info
	set := &importSet{s: s}
	links := make([]link, len(info.imports))
	hosts := map[string]*hostBuilder{}
	var keep []any
	for i, imp := range info.imports {
		where := fmt.Sprintf("Import #%d %q %q", i, imp.module, imp.name)
		var v goja.Value = goja.Undefined()
		if i < len(values) {
			v = values[i]
		}
		l, err := s.linkOne(imp, v, where)
		if err != nil {
			return nil, nil, nil, err
		}
		if l.from == nil { // a JavaScript function
			fn, _ := goja.AssertFunction(v)
			h := hosts[imp.module]
			if h == nil {
				h = &hostBuilder{names: map[string]string{}}
				hosts[imp.module] = h
			}
			sig := info.types[imp.typeIndex]
			if prev, ok := h.names[imp.name]; ok {
				if prev != sig.key() {
					return nil, nil, nil, linkErrorf("%s: the module imports it twice with different signatures, which is not supported", where)
				}
				continue
			}
			h.names[imp.name] = sig.key()
			h.fns = append(h.fns, hostFn{name: imp.name, sig: sig, slot: len(set.fns)})
			set.fns = append(set.fns, fn)
			continue
		}
		links[i] = l
		keep = append(keep, l.keep)
	}
	ws := weak.Make(set)
	hostRefs := map[string]*modRef{}
	for ns, h := range hosts {
		r, err := h.build(ws)
		if err != nil {
			return nil, nil, nil, err
		}
		hostRefs[ns] = r
	}
	for i, imp := range info.imports {
		if links[i].from == nil {
			links[i] = link{from: hostRefs[imp.module], name: imp.name}
		}
	}
	resolve, err := s.namespaces(info, links)
	return resolve, set, keep, err
}

// linkOne links import imp to the value v the import object has for it.
// A JavaScript function gives a link with no module.
func (s *state) linkOne(imp importEntry, v goja.Value, where string) (link, error) {
	switch imp.kind {
	case kindFunc:
		if f := s.functionOf(v); f != nil && f.owner != nil {
			return link{from: f.owner, name: f.name, keep: f}, nil
		}
		if _, ok := goja.AssertFunction(v); !ok {
			return link{}, linkErrorf("%s: function import requires a callable", where)
		}
		return link{}, nil
	case kindMemory:
		if m, ok := v.Export().(*memory); ok {
			return link{from: m.owner, name: m.name, keep: m}, nil
		}
		return link{}, linkErrorf("%s: memory import must be a WebAssembly.Memory object", where)
	case kindTable:
		if t, ok := v.Export().(*table); ok {
			return link{from: t.owner, name: t.name, keep: t}, nil
		}
		return link{}, linkErrorf("%s: table import requires a WebAssembly.Table", where)
	case kindGlobal:
		if g, ok := v.Export().(*global); ok {
			return link{from: g.owner, name: g.name, keep: g}, nil
		}
		g, err := s.globalFromValue(imp.global, v, where)
		if err != nil {
			return link{}, err
		}
		return link{from: g.owner, name: g.name, keep: g}, nil
	}
	return link{}, linkErrorf("%s: imports of kind %s are not supported", where, kindName(imp.kind))
}

// globalFromValue makes the global an immutable global import of type t
// gets from a plain value.
func (s *state) globalFromValue(t globalType, v goja.Value, where string) (*global, error) {
	if t.mutable {
		return nil, linkErrorf("%s: imported mutable global must be a WebAssembly.Global object", where)
	}
	switch t.val {
	case typeI64:
		if !goja.IsBigInt(v) {
			return nil, linkErrorf("%s: global import must be a BigInt value", where)
		}
	case typeI32, typeF32, typeF64:
		if !goja.IsNumber(v) {
			return nil, linkErrorf("%s: global import must be a number, valid Wasm reference, or WebAssembly.Global object", where)
		}
	case typeExternref, typeFuncref:
		if !goja.IsNull(v) {
			return nil, linkErrorf("%s: an immutable %s global import from a plain value must be null (other values need a WebAssembly.Global)", where, typeName(t.val))
		}
	default:
		return nil, linkErrorf("%s: global import of type %s is not supported", where, typeName(t.val))
	}
	var bits uint64
	if !goja.IsNull(v) {
		bits = s.toWasm(v, t.val)
	}
	return s.newGlobal(t, bits)
}

// namespaces returns the module each import namespace resolves to.
func (s *state) namespaces(info *moduleInfo, links []link) (map[string]*modRef, error) {
	byNS := map[string][]int{}
	var order []string
	for i, imp := range info.imports {
		if _, ok := byNS[imp.module]; !ok {
			order = append(order, imp.module)
		}
		byNS[imp.module] = append(byNS[imp.module], i)
	}
	resolve := map[string]*modRef{}
	for _, ns := range order {
		idx := byNS[ns]
		direct := links[idx[0]].from
		for _, i := range idx {
			if links[i].from != direct || links[i].name != info.imports[i].name {
				direct = nil
				break
			}
		}
		if direct != nil {
			resolve[ns] = direct
			continue
		}
		shim, err := s.shim(info, idx, links)
		if err != nil {
			return nil, err
		}
		resolve[ns] = shim
	}
	return resolve, nil
}

// shim makes the module that gathers the links of imports idx, all of one
// namespace, under their import names.
func (s *state) shim(info *moduleInfo, idx []int, links []link) (*modRef, error) {
	sources := map[*modRef]string{}
	resolve := map[string]*modRef{}
	seen := map[string]bool{}
	var imps []shimImport
	wheres := map[string]string{} // "[module.name]" in wazero's errors → the import
	for _, i := range idx {
		imp, l := info.imports[i], links[i]
		if seen[imp.name] {
			continue // the same import twice: one export serves both
		}
		seen[imp.name] = true
		src, ok := sources[l.from]
		if !ok {
			src = strconv.Itoa(len(sources))
			sources[l.from] = src
			resolve[src] = l.from
		}
		wheres["["+src+"."+l.name+"]"] = fmt.Sprintf("Import #%d %q %q", i, imp.module, imp.name)
		si := shimImport{module: src, name: l.name, as: imp.name, kind: imp.kind}
		switch imp.kind {
		case kindFunc:
			si.sig = info.types[imp.typeIndex]
		case kindTable:
			si.elem = imp.table.elem
		case kindGlobal:
			si.global = imp.global
			if g, ok := l.keep.(*global); ok {
				si.global = g.typ // the shim must import it as it is
			}
		}
		imps = append(imps, si)
	}
	r, err := instantiateGenerated(shimModule(imps), resolve)
	if err != nil {
		return nil, importFailure(err, wheres)
	}
	return r, nil
}

// importFailure is the link error for err, wazero's error for an import
// ("import func[module.name]: signature mismatch: …"), naming the import
// as wheres does.
func importFailure(err error, wheres map[string]string) error {
	msg := firstLine(err.Error())
	for k, where := range wheres {
		if n := strings.Index(msg, k+": "); n >= 0 {
			return linkErrorf("%s: %s", where, msg[n+len(k)+2:])
		}
	}
	return linkErrorf("%s", msg)
}

// importWheres are the names of info's imports in wazero's errors.
func importWheres(info *moduleInfo) map[string]string {
	m := make(map[string]string, len(info.imports))
	for i, imp := range info.imports {
		m["["+imp.module+"."+imp.name+"]"] = fmt.Sprintf("Import #%d %q %q", i, imp.module, imp.name)
	}
	return m
}

// hostFn is one JavaScript function of a host module.
type hostFn struct {
	name string
	sig  funcType
	slot int // its index in the import set
}

// hostBuilder collects the JavaScript functions of one namespace.
type hostBuilder struct {
	fns   []hostFn
	names map[string]string // name → signature key
}

// build compiles and instantiates the host module whose functions call
// the functions of set.
func (h *hostBuilder) build(set weak.Pointer[importSet]) (*modRef, error) {
	b := wazeroRuntime().NewHostModuleBuilder("dwk:js:" + strconv.FormatInt(hostSeq.Add(1), 10))
	for _, f := range h.fns {
		b.NewFunctionBuilder().
			WithGoModuleFunction(hostCall(set, f.slot, f.sig), valueTypes(f.sig.params), valueTypes(f.sig.results)).
			Export(f.name)
	}
	ctx := context.Background()
	compiled, err := b.Compile(ctx)
	if err != nil {
		return nil, fmt.Errorf("compile the host functions: %w", err)
	}
	mod, err := wazeroRuntime().InstantiateModule(ctx, compiled, wazero.NewModuleConfig().WithRandSource(noRandom{}))
	if err != nil {
		compiled.Close(ctx)
		return nil, fmt.Errorf("instantiate the host functions: %w", err)
	}
	return newModRef(mod, compiled), nil
}

func valueTypes(ts []byte) []api.ValueType {
	out := make([]api.ValueType, len(ts))
	for i, t := range ts {
		out[i] = api.ValueType(t)
	}
	return out
}

// hostCall is the Go function of an imported JavaScript function: it
// calls it on the loop (wazero calls it synchronously, on the goroutine of
// the call into WebAssembly, which is the loop) and panics with a jsThrow
// when it throws, which unwinds the WebAssembly frames.
func hostCall(set weak.Pointer[importSet], slot int, sig funcType) api.GoModuleFunction {
	return api.GoModuleFunc(func(_ context.Context, _ api.Module, stack []uint64) {
		is := set.Value()
		if is == nil {
			panic(errGone)
		}
		is.s.callImport(is.fns[slot], sig, stack, is.keep)
	})
}
