package wasm

import (
	"context"
	"runtime"
	"sync"
	"sync/atomic"
	"time"
	"weak"

	"github.com/dop251/goja"
	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"

	"github.com/dwk/fleet/appliance/jsworker/jsrt"
)

// state is one isolate's WebAssembly: its JavaScript classes, its
// externref handles and the instances its calls may have to stop. It is
// used on the isolate's loop, except the fields under mu, which the stop
// timer and the context watcher reach from other goroutines.
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

// modRef is a wazero module instance that JavaScript reaches. When it is
// collected, the instance is closed (removed from the wazero store). deps
// keeps alive what the instance links to.
type modRef struct {
	mod  api.Module
	deps []any
	// extTables are its externref tables, read by the collector.
	extTables []*table
}

type closeArg struct {
	mod  api.Module
	host wazero.CompiledModule // a host module's own compilation
}

// newModRef wraps mod; host, if not nil, is closed with it.
func newModRef(mod api.Module, host wazero.CompiledModule, deps ...any) *modRef {
	r := &modRef{mod: mod, deps: deps}
	runtime.AddCleanup(r, closeModule, closeArg{mod: mod, host: host})
	return r
}

func closeModule(a closeArg) {
	a.mod.Close(context.Background())
	if a.host != nil {
		a.host.Close(context.Background())
	}
}

// instantiateGenerated instantiates the generated module b, resolving its
// imports with resolve.
func instantiateGenerated(b []byte, resolve map[string]*modRef) (*modRef, error) {
	c, err := compileModule(context.Background(), b, true)
	if err != nil {
		return nil, err
	}
	return instantiateCompiled(context.Background(), c, resolve)
}

// hostSeq names host modules: wazero needs a name for them.
var hostSeq atomic.Int64

// instanceConfig is how modules are instantiated: anonymous, with no
// start function but the module's own, and no random source (nothing here
// offers WASI; wazero would otherwise seed one for every instance).
var instanceConfig = wazero.NewModuleConfig().WithName("").WithStartFunctions().WithRandSource(noRandom{})

// noRandom is a random source that is never read.
type noRandom struct{}

func (noRandom) Read(p []byte) (int, error) {
	clear(p)
	return len(p), nil
}

// instantiateCompiled instantiates c with each import module name
// resolved to a module of resolve, which every import must name.
func instantiateCompiled(ctx context.Context, c *compiled, resolve map[string]*modRef) (*modRef, error) {
	deps := []any{c}
	mods := map[string]api.Module{}
	for name, r := range resolve {
		mods[name] = r.mod
		deps = append(deps, r)
	}
	ctx = withResolver(ctx, mods)
	mod, err := wazeroRuntime().InstantiateModule(ctx, c.mod, instanceConfig)
	if err != nil {
		return nil, err
	}
	return newModRef(mod, nil, deps...), nil
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
