package wasm

import (
	"errors"
	"fmt"
	"unicode/utf8"
)

// The parts of a WebAssembly binary this package reads itself: what the
// JavaScript API reports (imports, exports, custom sections), what linking
// needs (the types of imports and exports) and where the loop
// instrumentation goes. wazero validates the module; this reader only has to
// find its way through one that is valid, and reports an error otherwise.

// Section ids.
const (
	secCustom    = 0
	secType      = 1
	secImport    = 2
	secFunction  = 3
	secTable     = 4
	secMemory    = 5
	secGlobal    = 6
	secExport    = 7
	secStart     = 8
	secElement   = 9
	secCode      = 10
	secData      = 11
	secDataCount = 12
	secTag       = 13
)

// External kinds, as import and export descriptors encode them.
const (
	kindFunc   = 0
	kindTable  = 1
	kindMemory = 2
	kindGlobal = 3
	kindTag    = 4
)

// Value types.
const (
	typeI32       = 0x7f
	typeI64       = 0x7e
	typeF32       = 0x7d
	typeF64       = 0x7c
	typeV128      = 0x7b
	typeFuncref   = 0x70
	typeExternref = 0x6f
)

// errMalformed is what the reader reports for bytes it cannot follow.
var errMalformed = errors.New("malformed WebAssembly binary")

// wasmHeader is the magic number and version 1.
var wasmHeader = []byte{0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00}

// reader reads a WebAssembly binary. The first error sticks: later reads
// return zero values, and err says what went wrong.
type reader struct {
	b   []byte
	off int
	err error
}

func (r *reader) fail(format string, args ...any) {
	if r.err == nil {
		r.err = fmt.Errorf("%w: at byte %d: %s", errMalformed, r.off, fmt.Sprintf(format, args...))
	}
}

func (r *reader) done() bool { return r.err != nil || r.off >= len(r.b) }

func (r *reader) byte() byte {
	if r.err != nil {
		return 0
	}
	if r.off >= len(r.b) {
		r.fail("unexpected end")
		return 0
	}
	c := r.b[r.off]
	r.off++
	return c
}

func (r *reader) bytes(n int) []byte {
	if r.err != nil {
		return nil
	}
	if n < 0 || n > len(r.b)-r.off {
		r.fail("length %d past the end", n)
		return nil
	}
	s := r.b[r.off : r.off+n]
	r.off += n
	return s
}

// u32 reads an unsigned LEB128 of at most 32 bits.
func (r *reader) u32() uint32 {
	var v uint32
	for shift := 0; shift < 35; shift += 7 {
		c := r.byte()
		if r.err != nil {
			return 0
		}
		v |= uint32(c&0x7f) << shift
		if c&0x80 == 0 {
			return v
		}
	}
	r.fail("integer too long")
	return 0
}

// skipLEB skips a signed or unsigned LEB128 of at most maxBytes bytes.
func (r *reader) skipLEB(maxBytes int) {
	for k := 0; k < maxBytes; k++ {
		if r.byte()&0x80 == 0 {
			return
		}
	}
	r.fail("integer too long")
}

// s33 reads a signed 33-bit LEB128, as block types encode type indices.
func (r *reader) s33() int64 {
	var v int64
	var shift uint
	for k := 0; k < 5; k++ {
		c := r.byte()
		if r.err != nil {
			return 0
		}
		v |= int64(c&0x7f) << shift
		shift += 7
		if c&0x80 == 0 {
			if shift < 64 && c&0x40 != 0 {
				v |= -1 << shift
			}
			return v
		}
	}
	r.fail("integer too long")
	return 0
}

func (r *reader) name() string {
	n := r.u32()
	b := r.bytes(int(n))
	if r.err == nil && !utf8.Valid(b) {
		r.fail("a name is not UTF-8")
	}
	return string(b)
}

// valType reads a value type. Typed references (0x63, 0x64 and a heap
// type) are read as funcref or externref by their heap type.
func (r *reader) valType() byte {
	c := r.byte()
	switch c {
	case typeI32, typeI64, typeF32, typeF64, typeV128, typeFuncref, typeExternref:
		return c
	case 0x63, 0x64:
		switch ht := r.s33(); ht {
		case -0x11: // extern
			return typeExternref
		default:
			return typeFuncref
		}
	}
	r.fail("unknown value type 0x%02x", c)
	return 0
}

// limits are a table's or a memory's sizes.
type limits struct {
	min    uint32
	max    uint32
	hasMax bool
	shared bool
}

func (r *reader) limits() limits {
	flags := r.byte()
	if flags&^0x03 != 0 {
		r.fail("limits flags 0x%02x are not supported", flags)
	}
	l := limits{min: r.u32(), shared: flags&0x02 != 0}
	if flags&0x01 != 0 {
		l.max, l.hasMax = r.u32(), true
	}
	return l
}

// funcType is a function signature.
type funcType struct {
	params, results []byte
}

// key is the signature as a string, for maps.
func (t funcType) key() string {
	return string(t.params) + ":" + string(t.results)
}

// tableType is a table's element type and limits.
type tableType struct {
	elem byte
	limits
}

// globalType is a global's value type and mutability.
type globalType struct {
	val     byte
	mutable bool
}

// importEntry is one import.
type importEntry struct {
	module, name string
	kind         byte
	typeIndex    uint32 // functions and tags
	table        tableType
	memory       limits
	global       globalType
}

// exportEntry is one export.
type exportEntry struct {
	name  string
	kind  byte
	index uint32
}

// customSection is a custom section's name and a copy of its contents.
type customSection struct {
	name string
	data []byte
}

// moduleInfo is what the package knows of a module from its bytes.
type moduleInfo struct {
	types   []funcType
	imports []importEntry
	exports []exportEntry
	customs []customSection
	// funcs is the type index of every function, imported ones first.
	funcs []uint32
	// tables is the type of every table, imported ones first.
	tables []tableType
	// globals is the type of every global, imported ones first.
	globals []globalType
	// importedFuncs, importedTables, importedGlobals count the imports of
	// each kind (the first indices of each index space).
	importedFuncs, importedTables, importedGlobals int
	memories                                       []limits
}

// funcSig is the signature of function index i.
func (m *moduleInfo) funcSig(i uint32) (funcType, bool) {
	if int(i) >= len(m.funcs) || int(m.funcs[i]) >= len(m.types) {
		return funcType{}, false
	}
	return m.types[m.funcs[i]], true
}

// section is one section of a binary: its id and where its contents are.
type section struct {
	id         byte
	start, end int // contents, without the id and size
}

// sections splits b into its sections.
func sections(b []byte) ([]section, error) {
	if len(b) < len(wasmHeader) || string(b[:4]) != string(wasmHeader[:4]) {
		return nil, fmt.Errorf("%w: the magic number \\0asm is missing", errMalformed)
	}
	if string(b[4:8]) != string(wasmHeader[4:8]) {
		return nil, fmt.Errorf("%w: version %x is not 1", errMalformed, b[4:8])
	}
	r := &reader{b: b, off: len(wasmHeader)}
	var out []section
	for !r.done() {
		id := r.byte()
		n := r.u32()
		start := r.off
		r.bytes(int(n))
		if r.err != nil {
			return nil, r.err
		}
		out = append(out, section{id: id, start: start, end: r.off})
	}
	return out, r.err
}

// parseModule reads the module information of a binary.
func parseModule(b []byte) (*moduleInfo, error) {
	secs, err := sections(b)
	if err != nil {
		return nil, err
	}
	m := &moduleInfo{}
	for _, s := range secs {
		r := &reader{b: b[:s.end], off: s.start}
		switch s.id {
		case secCustom:
			name := r.name()
			m.customs = append(m.customs, customSection{name: name, data: append([]byte(nil), b[r.off:s.end]...)})
			continue // a custom section's contents are not ours to check
		case secType:
			m.readTypes(r)
		case secImport:
			m.readImports(r)
		case secFunction:
			for n := r.u32(); n > 0 && r.err == nil; n-- {
				m.funcs = append(m.funcs, r.u32())
			}
		case secTable:
			for n := r.u32(); n > 0 && r.err == nil; n-- {
				m.tables = append(m.tables, r.tableType())
			}
		case secMemory:
			for n := r.u32(); n > 0 && r.err == nil; n-- {
				m.memories = append(m.memories, r.limits())
			}
		case secGlobal:
			for n := r.u32(); n > 0 && r.err == nil; n-- {
				m.globals = append(m.globals, r.globalType())
				skipConstExpr(r)
			}
		case secExport:
			for n := r.u32(); n > 0 && r.err == nil; n-- {
				m.exports = append(m.exports, exportEntry{name: r.name(), kind: r.byte(), index: r.u32()})
			}
		default:
			continue
		}
		if r.err == nil && r.off != s.end {
			r.fail("section %d has %d bytes left over", s.id, s.end-r.off)
		}
		if r.err != nil {
			return nil, r.err
		}
	}
	return m, nil
}

func (m *moduleInfo) readTypes(r *reader) {
	for n := r.u32(); n > 0 && r.err == nil; n-- {
		if form := r.byte(); form != 0x60 {
			r.fail("type form 0x%02x is not a function type", form)
			return
		}
		var t funcType
		for k := r.u32(); k > 0 && r.err == nil; k-- {
			t.params = append(t.params, r.valType())
		}
		for k := r.u32(); k > 0 && r.err == nil; k-- {
			t.results = append(t.results, r.valType())
		}
		m.types = append(m.types, t)
	}
}

func (m *moduleInfo) readImports(r *reader) {
	for n := r.u32(); n > 0 && r.err == nil; n-- {
		e := importEntry{module: r.name(), name: r.name(), kind: r.byte()}
		switch e.kind {
		case kindFunc:
			e.typeIndex = r.u32()
			m.funcs = append(m.funcs, e.typeIndex)
			m.importedFuncs++
		case kindTable:
			e.table = r.tableType()
			m.tables = append(m.tables, e.table)
			m.importedTables++
		case kindMemory:
			e.memory = r.limits()
			m.memories = append(m.memories, e.memory)
		case kindGlobal:
			e.global = r.globalType()
			m.globals = append(m.globals, e.global)
			m.importedGlobals++
		case kindTag:
			r.byte() // attribute
			e.typeIndex = r.u32()
		default:
			r.fail("unknown import kind %d", e.kind)
		}
		m.imports = append(m.imports, e)
	}
}

func (r *reader) tableType() tableType {
	return tableType{elem: r.valType(), limits: r.limits()}
}

func (r *reader) globalType() globalType {
	return globalType{val: r.valType(), mutable: r.byte() == 1}
}

// skipConstExpr skips a constant expression up to and including its end.
func skipConstExpr(r *reader) {
	for !r.done() {
		if op := r.byte(); op == opEnd {
			return
		} else {
			skipImmediates(r, op)
		}
	}
	r.fail("a constant expression has no end")
}
