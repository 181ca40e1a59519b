package wasm

import (
	"context"
	"runtime"
	"sync/atomic"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"
)

// Module instances' lifetime. wazero keeps every instance in its store
// until it is closed; goja has no finalizers. So every wazero instance the
// package makes is wrapped in a modRef, which what JavaScript can reach
// refers to (an Instance's functions, a Memory, a Table, a Global), and a
// cleanup closes the instance once the modRef is garbage. A modRef keeps
// alive what its instance links to, so that nothing is closed while an
// instance that imports it can run. Nothing wazero holds (its engine and
// store are process-wide roots) refers back to a modRef or to an
// isolate: host functions reach their JavaScript through weak pointers.

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

// closedModules counts the instances closed by cleanups, for tests and
// metrics.
var closedModules atomic.Int64

func closeModule(a closeArg) {
	closedModules.Add(1)
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
