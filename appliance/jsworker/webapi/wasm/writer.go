package wasm

// writer builds WebAssembly binaries: the instrumented copy of a module and
// the small modules this package generates (see synth.go).
type writer struct{ b []byte }

func (w *writer) byte(c ...byte) { w.b = append(w.b, c...) }

// u32 writes an unsigned LEB128.
func (w *writer) u32(v uint32) {
	for {
		c := byte(v & 0x7f)
		v >>= 7
		if v != 0 {
			w.b = append(w.b, c|0x80)
			continue
		}
		w.b = append(w.b, c)
		return
	}
}

// s64 writes a signed LEB128.
func (w *writer) s64(v int64) {
	for {
		c := byte(v & 0x7f)
		v >>= 7
		if v == 0 && c&0x40 == 0 || v == -1 && c&0x40 != 0 {
			w.b = append(w.b, c)
			return
		}
		w.b = append(w.b, c|0x80)
	}
}

func (w *writer) name(s string) {
	w.u32(uint32(len(s)))
	w.b = append(w.b, s...)
}

// section writes a section with the contents of body.
func (w *writer) section(id byte, body *writer) {
	w.byte(id)
	w.u32(uint32(len(body.b)))
	w.b = append(w.b, body.b...)
}

func (w *writer) limits(l limits) {
	flags := byte(0)
	if l.hasMax {
		flags |= 1
	}
	if l.shared {
		flags |= 2
	}
	w.byte(flags)
	w.u32(l.min)
	if l.hasMax {
		w.u32(l.max)
	}
}

func (w *writer) funcType(t funcType) {
	w.byte(0x60)
	w.u32(uint32(len(t.params)))
	w.byte(t.params...)
	w.u32(uint32(len(t.results)))
	w.byte(t.results...)
}
