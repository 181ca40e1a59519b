package wasm

import (
	"context"
	"sync"
	"time"
	"weak"

	"github.com/dop251/goja"

	"github.com/dwk/fleet/appliance/jsworker/jsrt"
)

// state is one isolate's WebAssembly: its JavaScript classes, its
// externref handles and the instances its calls may have to stop. It is
// used on the isolate's loop, except the fields under mu, which the
// watchdog and the context watch reach from other goroutines.
type state struct {
	iso      *jsrt.Isolate
	rt       *goja.Runtime
	cpuLimit time.Duration

	// Set by the prelude (host.wasm.init): the error classes, the
	// factories of the JavaScript objects over Go records, and helpers.
	compileError, linkError, runtimeError goja.Value
	jsModule, jsMemory, jsTable, jsGlobal goja.Callable
	toBigInt, toList                      goja.Callable
	// fnSym marks the functions that are exported WebAssembly functions;
	// its value is the *function.
	fnSym *goja.Symbol

	// depth counts the calls into WebAssembly on the loop's stack (a call
	// that calls JavaScript that calls WebAssembly again counts twice).
	depth int
	// watchedCtx is the event context watched for the calls (watch.go),
	// and unwatch stops watching it.
	watchedCtx context.Context
	unwatch    func() bool

	// The outermost call, watched by the watchdog and the context.
	mu        sync.Mutex
	armed     bool                     // a call is running
	armedCtx  context.Context          // its event's context
	deadline  time.Time                // when it runs out of CPU time
	stopErr   error                    // why it was stopped
	stoppable []weak.Pointer[instance] // every live instance with a stop flag

	// views are the memories whose buffer JavaScript has (memory.go).
	views []weak.Pointer[memory]
	// refs are the JavaScript values WebAssembly holds as externref.
	refs externrefs
	// roots are the modules whose tables and globals may hold externrefs.
	roots []weak.Pointer[modRef]
	// sigs are the signatures of every module instantiated here: the
	// candidates for the type of a function reference (funcref.go).
	sigs     []funcType
	sigIndex map[string]int
	funcs    funcCache
	scratch  *table
}

// newState makes the state of iso.
func newState(iso *jsrt.Isolate, cpuLimit time.Duration) *state {
	s := &state{
		iso:      iso,
		rt:       iso.Runtime(),
		cpuLimit: cpuLimit,
		fnSym:    goja.NewSymbol("WebAssembly function"),
		sigIndex: map[string]int{},
	}
	watch(s)
	return s
}

// addSigs adds the signatures of a module to the candidates.
func (s *state) addSigs(types []funcType) {
	for _, t := range types {
		if _, ok := s.sigIndex[t.key()]; !ok {
			s.sigIndex[t.key()] = len(s.sigs)
			s.sigs = append(s.sigs, t)
		}
	}
}

// addRoot registers a module whose tables or globals may hold externrefs.
func (s *state) addRoot(r *modRef) {
	s.roots = append(s.roots, weak.Make(r))
}
