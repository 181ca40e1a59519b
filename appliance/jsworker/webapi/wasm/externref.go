package wasm

import (
	"github.com/dop251/goja"
	"github.com/tetratelabs/wazero/api"
	"github.com/tetratelabs/wazero/experimental"
)

// Externrefs. WebAssembly holds a JavaScript value as an opaque 64-bit
// number; here it is a handle, an index into the isolate's list of values
// (0 is null). wasm-bindgen passes every JavaScript object it touches this
// way and keeps the long-lived ones in an externref table.
//
// A handle is garbage once nothing in WebAssembly holds it: not a table,
// not a global, and not a frame of a running call. Between calls (when no
// call into WebAssembly is running on the isolate) only tables and globals
// can hold handles, so the collector runs then: once the handles in use
// reach twice what the last collection kept (and at least minCollect), it
// marks the handles in every externref table and global of the isolate's
// modules and frees the rest. The package exports every externref table
// of a module it compiles, under a reserved name, so that it can read the
// tables a module keeps to itself.

// minCollect is the number of handles below which the collector does not
// run.
const minCollect = 1024

// externrefs are an isolate's handles.
type externrefs struct {
	vals  []goja.Value // handle-1 → value; nil when free
	free  []uint32
	live  int
	limit int // collect when live reaches it
}

// put returns a handle for v (0 for null).
func (x *externrefs) put(v goja.Value) uint64 {
	if v == nil {
		v = goja.Undefined()
	}
	if goja.IsNull(v) {
		return 0
	}
	var i uint32
	if n := len(x.free); n > 0 {
		i = x.free[n-1]
		x.free = x.free[:n-1]
		x.vals[i] = v
	} else {
		i = uint32(len(x.vals))
		x.vals = append(x.vals, v)
	}
	x.live++
	return uint64(i) + 1
}

// get returns the value of handle h.
func (x *externrefs) get(h uint64) goja.Value {
	if h == 0 {
		return goja.Null()
	}
	if h > uint64(len(x.vals)) || x.vals[h-1] == nil {
		return goja.Undefined() // not a handle of this isolate
	}
	return x.vals[h-1]
}

// maybeCollect frees the handles nothing holds, if there are enough to
// bother. Call it when no call into WebAssembly is running.
func (s *state) maybeCollect() {
	x := &s.refs
	if x.live < max(x.limit, minCollect) {
		return
	}
	s.collect()
}

// markAll calls mark with every element of the table, and reports
// whether it could read them all.
func (t *table) markAll(mark func(uint64)) bool {
	n, err := t.length()
	if err != nil {
		return false
	}
	for i := uint32(0); i < n; i++ {
		h, err := t.rawGet(i)
		if err != nil {
			return false
		}
		mark(h)
	}
	return true
}

// collect frees every handle no externref table or global holds.
func (s *state) collect() {
	x := &s.refs
	marked := make([]bool, len(x.vals))
	mark := func(h uint64) {
		if h != 0 && h <= uint64(len(marked)) {
			marked[h-1] = true
		}
	}
	live := s.roots[:0]
	for _, w := range s.roots {
		r := w.Value()
		if r == nil {
			continue
		}
		live = append(live, w)
		if im, ok := r.mod.(experimental.InternalModule); ok {
			for i := 0; i < im.NumGlobal(); i++ {
				if g := im.Global(i); g.Type() == api.ValueTypeExternref {
					mark(g.Get())
				}
			}
		}
		for _, t := range r.extTables {
			if !t.markAll(mark) {
				return // a table could not be read: free nothing
			}
		}
	}
	clear(s.roots[len(live):])
	s.roots = live
	x.free = x.free[:0]
	x.live = 0
	for i, ok := range marked {
		if ok {
			x.live++
			continue
		}
		x.vals[i] = nil
	}
	// Trim the free tail, and list the free slots highest first so that
	// put reuses the low ones.
	n := len(x.vals)
	for n > 0 && x.vals[n-1] == nil {
		n--
	}
	clear(x.vals[n:])
	x.vals = x.vals[:n]
	for i := n - 1; i >= 0; i-- {
		if x.vals[i] == nil {
			x.free = append(x.free, uint32(i))
		}
	}
	x.limit = 2 * x.live
}
