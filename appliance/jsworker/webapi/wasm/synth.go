package wasm

// Generated modules. wazero has no API for tables, for making a memory,
// table or global outside a module, or for linking an import to anything
// but an export of one module under the import's own name. So the package
// writes small modules that do these things in WebAssembly itself; they
// are compiled once each (by their bytes) like any module.

// The export name of what an owner module defines.
const ownedName = "x"

// memoryModule defines a memory with limits l.
func memoryModule(l limits) []byte {
	w := header()
	body := &writer{}
	body.u32(1)
	body.limits(l)
	w.section(secMemory, body)
	w.section(secExport, exports(exportEntry{name: ownedName, kind: kindMemory}))
	return w.b
}

// tableModule defines a table of type t.
func tableModule(t tableType) []byte {
	w := header()
	body := &writer{}
	body.u32(1)
	body.byte(t.elem)
	body.limits(t.limits)
	w.section(secTable, body)
	w.section(secExport, exports(exportEntry{name: ownedName, kind: kindTable}))
	return w.b
}

// globalModule defines a global of type t whose initial value is bits (a
// null reference for reference types).
func globalModule(t globalType, bits uint64) []byte {
	w := header()
	body := &writer{}
	body.u32(1)
	body.byte(t.val)
	if t.mutable {
		body.byte(1)
	} else {
		body.byte(0)
	}
	switch t.val {
	case typeI32:
		body.byte(0x41)
		body.s64(int64(int32(uint32(bits))))
	case typeI64:
		body.byte(0x42)
		body.s64(int64(bits))
	case typeF32:
		body.byte(0x43, byte(bits), byte(bits>>8), byte(bits>>16), byte(bits>>24))
	case typeF64:
		body.byte(0x44)
		for k := 0; k < 8; k++ {
			body.byte(byte(bits >> (8 * k)))
		}
	default:
		body.byte(0xd0, t.val) // ref.null
	}
	body.byte(opEnd)
	w.section(secGlobal, body)
	w.section(secExport, exports(exportEntry{name: ownedName, kind: kindGlobal}))
	return w.b
}

// Accessor functions, exported by tableAccessor.
const (
	accSize = "size" // () → i32
	accGrow = "grow" // (delta i32, init ref) → i32, -1 on failure
	accGet  = "get"  // (index i32) → ref
	accSet  = "set"  // (index i32, value ref)
)

// tableAccessor imports a table of element type elem as ("t", name) and
// exports functions that read and change it.
func tableAccessor(elem byte, name string) []byte {
	w := header()
	types := &writer{}
	types.u32(4)
	types.funcType(funcType{results: []byte{typeI32}})
	types.funcType(funcType{params: []byte{typeI32, elem}, results: []byte{typeI32}})
	types.funcType(funcType{params: []byte{typeI32}, results: []byte{elem}})
	types.funcType(funcType{params: []byte{typeI32, elem}})
	w.section(secType, types)
	imp := &writer{}
	imp.u32(1)
	imp.name("t")
	imp.name(name)
	imp.byte(kindTable, elem)
	imp.limits(limits{})
	w.section(secImport, imp)
	fns := &writer{}
	fns.u32(4)
	fns.byte(0, 1, 2, 3)
	w.section(secFunction, fns)
	w.section(secExport, exports(
		exportEntry{name: accSize, kind: kindFunc, index: 0},
		exportEntry{name: accGrow, kind: kindFunc, index: 1},
		exportEntry{name: accGet, kind: kindFunc, index: 2},
		exportEntry{name: accSet, kind: kindFunc, index: 3},
	))
	w.section(secCode, code(
		[]byte{0xfc, 16, 0},                   // table.size 0
		[]byte{0x20, 1, 0x20, 0, 0xfc, 15, 0}, // table.grow 0
		[]byte{0x20, 0, 0x25, 0},              // table.get 0
		[]byte{0x20, 0, 0x20, 1, 0x26, 0},     // table.set 0
	))
	return w.b
}

// refModule imports a function of type sig as ("f", name) and exports
// "ref", which returns a reference to it.
func refModule(sig funcType, name string) []byte {
	w := header()
	types := &writer{}
	types.u32(2)
	types.funcType(sig)
	types.funcType(funcType{results: []byte{typeFuncref}})
	w.section(secType, types)
	imp := &writer{}
	imp.u32(1)
	imp.name("f")
	imp.name(name)
	imp.byte(kindFunc, 0)
	w.section(secImport, imp)
	fns := &writer{}
	fns.u32(1)
	fns.byte(1)
	w.section(secFunction, fns)
	w.section(secExport, exports(exportEntry{name: "ref", kind: kindFunc, index: 1}))
	elem := &writer{}
	elem.u32(1)
	elem.byte(3, 0) // declarative, funcref
	elem.u32(1)
	elem.byte(0)
	w.section(secElement, elem)
	w.section(secCode, code([]byte{0xd2, 0})) // ref.func 0
	return w.b
}

// shimImport is one import of a shim: what it imports and the name it
// exports it under.
type shimImport struct {
	module, name string // where it comes from
	as           string // its name in the shim's exports
	kind         byte
	sig          funcType   // functions
	global       globalType // globals
	elem         byte       // tables
}

// shimModule imports each of imps and exports it under its as name: it
// gathers under one module what one namespace of an import object holds.
func shimModule(imps []shimImport) []byte {
	w := header()
	var sigs []funcType
	sigIndex := map[string]uint32{}
	for _, i := range imps {
		if i.kind == kindFunc {
			if _, ok := sigIndex[i.sig.key()]; !ok {
				sigIndex[i.sig.key()] = uint32(len(sigs))
				sigs = append(sigs, i.sig)
			}
		}
	}
	if len(sigs) > 0 {
		types := &writer{}
		types.u32(uint32(len(sigs)))
		for _, s := range sigs {
			types.funcType(s)
		}
		w.section(secType, types)
	}
	imp := &writer{}
	imp.u32(uint32(len(imps)))
	var exps []exportEntry
	var count [5]uint32
	for _, i := range imps {
		imp.name(i.module)
		imp.name(i.name)
		imp.byte(i.kind)
		switch i.kind {
		case kindFunc:
			imp.u32(sigIndex[i.sig.key()])
		case kindTable:
			imp.byte(i.elem)
			imp.limits(limits{})
		case kindMemory:
			imp.limits(limits{})
		case kindGlobal:
			imp.byte(i.global.val)
			if i.global.mutable {
				imp.byte(1)
			} else {
				imp.byte(0)
			}
		}
		exps = append(exps, exportEntry{name: i.as, kind: i.kind, index: count[i.kind]})
		count[i.kind]++
	}
	w.section(secImport, imp)
	w.section(secExport, exports(exps...))
	return w.b
}

func header() *writer {
	w := &writer{}
	w.byte(wasmHeader...)
	return w
}

func exports(es ...exportEntry) *writer {
	w := &writer{}
	w.u32(uint32(len(es)))
	for _, e := range es {
		w.name(e.name)
		w.byte(e.kind)
		w.u32(e.index)
	}
	return w
}

// code is a code section of bodies without locals.
func code(bodies ...[]byte) *writer {
	w := &writer{}
	w.u32(uint32(len(bodies)))
	for _, b := range bodies {
		w.u32(uint32(len(b) + 2))
		w.byte(0) // no locals
		w.byte(b...)
		w.byte(opEnd)
	}
	return w
}
