package wasm

import (
	"unsafe"
	"weak"

	"github.com/dop251/goja"
	"github.com/tetratelabs/wazero/api"
)

// memory is a WebAssembly.Memory: one an instance exports, or one
// JavaScript made (then a generated module defines it).
//
// Its buffer is an ArrayBuffer over wazero's memory itself, not a copy.
// When the memory grows, wazero may move it, and either way the buffer's
// length is stale: as the JS API says, the old ArrayBuffer is then
// detached (its views read as empty, which is how wasm-bindgen and
// Emscripten notice that they must make new ones) and the next read of
// buffer makes a new one. Growth from JavaScript detaches at once; growth
// by the module's own memory.grow is noticed when its call returns or
// calls out to JavaScript, before JavaScript can look.
type memory struct {
	owner *modRef
	name  string
	mem   api.Memory
	obj   *goja.Object

	// The current buffer, if JavaScript asked for one.
	buf     goja.ArrayBuffer
	bufVal  goja.Value
	view    []byte
	watched bool // registered in state.views
}

// bytes is the memory as wazero has it now.
func (m *memory) bytes() []byte {
	b, _ := m.mem.Read(0, m.mem.Size())
	return b
}

func sameBytes(a, b []byte) bool {
	return len(a) == len(b) && unsafe.SliceData(a) == unsafe.SliceData(b)
}

// newMemory makes a memory with limits l.
func (s *state) newMemory(l limits) (*memory, error) {
	r, err := instantiateGenerated(memoryModule(capMemory(l)), nil)
	if err != nil {
		return nil, err
	}
	return &memory{owner: r, name: ownedName, mem: r.mod.ExportedMemory(ownedName)}, nil
}

// exportedMemory is the memory owner exports as name.
func exportedMemory(owner *modRef, name string) *memory {
	return &memory{owner: owner, name: name, mem: owner.mod.ExportedMemory(name)}
}

// wrapMemory returns the JavaScript Memory of m, making it once.
func (s *state) wrapMemory(m *memory) *goja.Object {
	if m.obj == nil {
		v, err := s.jsMemory(goja.Undefined(), s.rt.ToValue(m))
		if err != nil {
			panic(err)
		}
		m.obj = v.(*goja.Object)
	}
	return m.obj
}

// buffer is the memory's current ArrayBuffer.
func (s *state) buffer(m *memory) goja.Value {
	cur := m.bytes()
	if m.bufVal != nil && sameBytes(cur, m.view) {
		return m.bufVal
	}
	s.detach(m)
	m.bufVal = s.iso.NewArrayBuffer(cur)
	m.buf, _ = m.bufVal.Export().(goja.ArrayBuffer)
	m.view = cur
	if !m.watched {
		m.watched = true
		s.views = append(s.views, weak.Make(m))
	}
	return m.bufVal
}

// detach detaches the memory's buffer, if it has one.
func (s *state) detach(m *memory) {
	if m.bufVal == nil {
		return
	}
	m.buf.Detach()
	m.buf, m.bufVal, m.view = goja.ArrayBuffer{}, nil, nil
}

// grow grows the memory by delta pages and returns its old size in pages.
func (s *state) grow(m *memory, delta uint32) (uint32, bool) {
	old, ok := m.mem.Grow(delta)
	if ok {
		s.detach(m)
	}
	return old, ok
}

// syncMemories detaches the buffers of the memories that grew.
func (s *state) syncMemories() {
	live := s.views[:0]
	for _, w := range s.views {
		m := w.Value()
		if m == nil {
			continue
		}
		live = append(live, w)
		if m.bufVal != nil && !sameBytes(m.bytes(), m.view) {
			s.detach(m)
		}
	}
	clear(s.views[len(live):])
	s.views = live
}
