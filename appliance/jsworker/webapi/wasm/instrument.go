package wasm

import (
	"fmt"
	"strconv"
	"strings"
)

// Instrumentation: wazero cannot interrupt running machine code except
// with WithCloseOnContextDone, which leaves compiled code for Go at the head
// of every loop iteration (about 90 times slower on a tight loop) and
// starts a goroutine per call. Instead, the package adds to every module it
// compiles a mutable i32 global, the stop flag, and at the head of every
// loop and of every function the check
//
//	global.get $stop  if  unreachable  end
//
// (two loads and a branch: a tight loop runs about half as fast, real code
// much closer to full speed). Setting the flag from any goroutine makes the
// running code trap at its next loop iteration or call: every runaway ends,
// whether it loops, recurses or tail-calls itself. The flag is exported
// under a reserved name, as are the module's externref tables, whose
// contents the externref collector reads (externref.go).
//
// The instrumentation also caps the memories a module defines at
// maxMemoryPages: WebAssembly lets a memory grow to 4 GiB, and a module
// that grows its memory in a loop would exhaust the process long before
// the CPU limit stopped it. A capped memory grows as one that reached its
// declared maximum: memory.grow returns -1. Lowering a maximum never
// breaks linking (an import accepts a memory whose maximum is at most the
// import's).

// maxMemoryPages caps a memory (128 MiB: on Cloudflare, an isolate's
// memory, JavaScript included, may not exceed this).
const maxMemoryPages = 2048

// capMemory caps the limits of a memory the package creates.
func capMemory(l limits) limits {
	if !l.hasMax || l.max > maxMemoryPages {
		l.max, l.hasMax = max(l.min, maxMemoryPages), true
	}
	return l
}

// reservedPrefix starts the names of the exports the package adds: a NUL
// byte, which no toolchain puts in a name; they are hidden from
// JavaScript.
const reservedPrefix = "\x00dwk:"

// stopExport is the export name of the stop flag.
const stopExport = reservedPrefix + "stop"

// tableExport is the export name of table index i.
func tableExport(i int) string { return reservedPrefix + "table:" + strconv.Itoa(i) }

// isReserved tells the names of the exports the package adds.
func isReserved(name string) bool { return strings.HasPrefix(name, reservedPrefix) }

// sectionRank orders the non-custom sections as the binary format
// requires.
func sectionRank(id byte) int {
	switch id {
	case secTag:
		return 6
	case secGlobal:
		return 7
	case secExport:
		return 8
	case secStart:
		return 9
	case secElement:
		return 10
	case secDataCount:
		return 11
	case secCode:
		return 12
	case secData:
		return 13
	}
	return int(id) // type 1 … memory 5
}

// instrument returns a copy of b, whose information is m, with the stop
// flag, its checks and the exports of its externref tables.
func instrument(b []byte, m *moduleInfo) ([]byte, error) {
	secs, err := sections(b)
	if err != nil {
		return nil, err
	}
	stopIndex := uint32(len(m.globals))
	check := &writer{}
	check.byte(opGlobalGet)
	check.u32(stopIndex)
	check.byte(opIf, opBlockVoid, opUnreachable, opEnd)

	var extra []exportEntry
	extra = append(extra, exportEntry{name: stopExport, kind: kindGlobal, index: stopIndex})
	for i, t := range m.tables {
		if t.elem == typeExternref {
			extra = append(extra, exportEntry{name: tableExport(i), kind: kindTable, index: uint32(i)})
		}
	}

	out := &writer{b: make([]byte, 0, len(b)+len(b)/16+64)}
	out.byte(wasmHeader...)
	wroteGlobal, wroteExport := false, false
	flush := func(rank int) {
		if !wroteGlobal && rank > sectionRank(secGlobal) {
			out.section(secGlobal, globalSection(b, nil, 0))
			wroteGlobal = true
		}
		if !wroteExport && rank > sectionRank(secExport) {
			out.section(secExport, exportSection(b, nil, extra))
			wroteExport = true
		}
	}
	for _, s := range secs {
		if s.id != secCustom {
			flush(sectionRank(s.id))
		}
		switch s.id {
		case secGlobal:
			out.section(secGlobal, globalSection(b, &s, len(m.globals)-m.importedGlobals))
			wroteGlobal = true
		case secExport:
			out.section(secExport, exportSection(b, &s, extra))
			wroteExport = true
		case secCode:
			body, err := instrumentCode(b, s, check.b)
			if err != nil {
				return nil, err
			}
			out.section(secCode, body)
		case secMemory:
			out.section(secMemory, memorySection(b, s))
		default:
			out.byte(s.id)
			out.u32(uint32(s.end - s.start))
			out.byte(b[s.start:s.end]...)
		}
	}
	flush(1 << 10)
	return out.b, nil
}

// globalSection is the global section s (nil for none) with the stop flag
// appended; defined is the number of globals s defines.
func globalSection(b []byte, s *section, defined int) *writer {
	w := &writer{}
	w.u32(uint32(defined + 1))
	if s != nil {
		r := &reader{b: b[:s.end], off: s.start}
		r.u32()
		w.byte(b[r.off:s.end]...)
	}
	w.byte(typeI32, 1, 0x41, 0x00, opEnd) // (mut i32) (i32.const 0)
	return w
}

// exportSection is the export section s (nil for none) with extra
// appended.
func exportSection(b []byte, s *section, extra []exportEntry) *writer {
	w := &writer{}
	var n uint32
	var rest []byte
	if s != nil {
		r := &reader{b: b[:s.end], off: s.start}
		n = r.u32()
		rest = b[r.off:s.end]
	}
	w.u32(n + uint32(len(extra)))
	w.byte(rest...)
	for _, e := range extra {
		w.name(e.name)
		w.byte(e.kind)
		w.u32(e.index)
	}
	return w
}

// memorySection is the memory section s with each memory capped.
func memorySection(b []byte, s section) *writer {
	r := &reader{b: b[:s.end], off: s.start}
	w := &writer{}
	n := r.u32()
	w.u32(n)
	for k := uint32(0); k < n && r.err == nil; k++ {
		w.limits(capMemory(r.limits()))
	}
	return w
}

// instrumentCode rewrites the code section s with check at the start of
// every function and after the block type of every loop.
func instrumentCode(b []byte, s section, check []byte) (*writer, error) {
	r := &reader{b: b[:s.end], off: s.start}
	w := &writer{b: make([]byte, 0, s.end-s.start+(s.end-s.start)/16)}
	n := r.u32()
	w.u32(n)
	var body []byte
	for k := uint32(0); k < n && r.err == nil; k++ {
		size := r.u32()
		start := r.off
		end := start + int(size)
		if end > s.end || end < start {
			return nil, fmt.Errorf("%w: function body %d is %d bytes past its section", errMalformed, k, end-s.end)
		}
		fr := &reader{b: b[:end], off: start}
		for locals := fr.u32(); locals > 0 && fr.err == nil; locals-- {
			fr.u32()
			fr.valType()
		}
		body = append(body[:0], b[start:fr.off]...)
		body = append(body, check...)
		seg := fr.off
		for !fr.done() {
			op := fr.byte()
			skipImmediates(fr, op)
			if op == opLoop && fr.err == nil {
				body = append(body, b[seg:fr.off]...)
				body = append(body, check...)
				seg = fr.off
			}
		}
		if fr.err != nil {
			return nil, fmt.Errorf("function body %d: %w", k, fr.err)
		}
		body = append(body, b[seg:end]...)
		w.u32(uint32(len(body)))
		w.byte(body...)
		r.off = end
	}
	if r.err != nil {
		return nil, r.err
	}
	if r.off != s.end {
		return nil, fmt.Errorf("%w: the code section has %d bytes left over", errMalformed, s.end-r.off)
	}
	return w, nil
}
