package wasm

import (
	"errors"
	"runtime"
	"sync"
	"weak"

	"github.com/dop251/goja"
	"github.com/tetratelabs/wazero/api"
	wtable "github.com/tetratelabs/wazero/experimental/table"
)

// Function references. A funcref is an address inside wazero, opaque to
// Go, and not a reference the garbage collector follows: what it points
// into stays alive only while a module that links to its function does.
// So each wrapper of a reference keeps alive where it came from (the
// table, global or instance it was read from), and a table or global keeps
// the functions set into it from JavaScript.
//
// Turning a reference into a callable function needs its signature, which
// wazero does not tell: the reference is put in a scratch table and looked
// up with each signature the isolate's modules use until one matches.
// Wrappers are cached by reference.
//
// Turning an exported function into a reference takes a generated module
// that imports the function and returns ref.func of it.

// funcCache maps references to their wrappers, weakly: a collected
// wrapper's entry is dropped by a cleanup, which runs on another
// goroutine, hence the lock.
type funcCache struct {
	mu sync.Mutex
	m  map[uint64]weak.Pointer[function]
}

var errUnknownSig = errors.New("the function reference has a signature no module of this isolate uses")

func (c *funcCache) get(ref uint64) *function {
	c.mu.Lock()
	defer c.mu.Unlock()
	if w, ok := c.m[ref]; ok {
		return w.Value()
	}
	return nil
}

func (c *funcCache) put(ref uint64, f *function) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil {
		c.m = map[uint64]weak.Pointer[function]{}
	}
	w := weak.Make(f)
	c.m[ref] = w
	runtime.AddCleanup(f, func(ref uint64) {
		c.mu.Lock()
		defer c.mu.Unlock()
		if c.m[ref] == w {
			delete(c.m, ref)
		}
	}, ref)
}

// funcToRef converts v, null or an exported WebAssembly function, to a
// reference.
func (s *state) funcToRef(v goja.Value) uint64 {
	if goja.IsNull(v) {
		return 0
	}
	f := s.functionOf(v)
	if f == nil {
		panic(s.rt.NewTypeError("type incompatibility when transforming from/to JS: an anyfunc value must be null or an exported WebAssembly function"))
	}
	if f.ref != 0 {
		return f.ref
	}
	r, err := instantiateGenerated(refModule(f.sig, f.name), map[string]*modRef{"f": f.owner})
	if err != nil {
		panic(s.rt.NewTypeError("cannot take a reference to the function: %v", err))
	}
	ref, err := call1(r.mod.ExportedFunction("ref"))
	if err != nil {
		panic(s.rt.NewTypeError("cannot take a reference to the function: %v", err))
	}
	f.ref, f.refKeep = ref, r
	s.funcs.put(f.ref, f)
	return f.ref
}

// refKeep is what a reference made of v, a value of type t, needs alive.
func (s *state) refKeep(v goja.Value, t byte) any {
	if t != typeFuncref {
		return nil
	}
	if f := s.functionOf(v); f != nil {
		return f
	}
	return nil
}

// funcFromRef converts the reference ref to JavaScript: null, or the
// wrapper of its function, which keeps keep alive.
func (s *state) funcFromRef(ref uint64, keep any) goja.Value {
	if ref == 0 {
		return goja.Null()
	}
	if f := s.funcs.get(ref); f != nil {
		return s.wrapFunction(f)
	}
	f, err := s.lookupRef(ref)
	if err != nil {
		panic(s.rt.NewTypeError("%v", err))
	}
	f.keep = keep
	s.funcs.put(ref, f)
	return s.wrapFunction(f)
}

// lookupRef finds the function of ref.
func (s *state) lookupRef(ref uint64) (*function, error) {
	sc, err := s.scratchTable()
	if err != nil {
		return nil, err
	}
	try := func(i int) api.Function {
		sig := s.sigs[i]
		defer func() { recover() }() // a signature mismatch
		return wtable.LookupFunction(sc.acc.mod, 0, 0, valueTypes(sig.params), valueTypes(sig.results))
	}
	if err := sc.rawSet(0, ref, nil); err != nil {
		return nil, err
	}
	defer sc.rawSet(0, 0, nil)
	for i := range s.sigs {
		fn := try(i)
		if fn == nil {
			continue
		}
		sig := s.sigs[i]
		first := fn
		f := &function{sig: sig, ref: ref, index: fn.Definition().Index()}
		f.newFn = func() (api.Function, error) {
			if first != nil {
				fn := first
				first = nil
				return fn, nil
			}
			if err := sc.rawSet(0, ref, nil); err != nil {
				return nil, err
			}
			defer sc.rawSet(0, 0, nil)
			return wtable.LookupFunction(sc.acc.mod, 0, 0, valueTypes(sig.params), valueTypes(sig.results)), nil
		}
		return f, nil
	}
	return nil, errUnknownSig
}

// scratchTable is the isolate's one-element table for looking up
// references.
func (s *state) scratchTable() (*table, error) {
	if s.scratch != nil {
		return s.scratch, nil
	}
	t, err := s.newTable(tableType{elem: typeFuncref, limits: limits{min: 1}})
	if err != nil {
		return nil, err
	}
	if err := t.accessor(); err != nil {
		return nil, err
	}
	s.scratch = t
	return t, nil
}
