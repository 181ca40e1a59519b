package wasm

import (
	"context"
	"sync"

	"github.com/tetratelabs/wazero/api"
	"github.com/tetratelabs/wazero/experimental"
)

// Import resolution. wazero resolves an import by its module name, through
// the resolver in the context if there is one, else among the modules
// instantiated with that name. Everything this package instantiates is
// anonymous except host modules, which wazero requires to be named; so the
// resolver answers every name, and a name the import object does not
// provide gets an empty module (and the import fails to link) instead of
// falling through to the named modules, which belong to other instances
// and other isolates.

var empty struct {
	once sync.Once
	mod  api.Module
	err  error
}

// emptyModule is a module with nothing in it.
func emptyModule() (api.Module, error) {
	empty.once.Do(func() {
		c, err := compileModule(context.Background(), header().b, true)
		if err != nil {
			empty.err = err
			return
		}
		empty.mod, empty.err = wazeroRuntime().InstantiateModule(context.Background(), c.mod, instanceConfig)
	})
	return empty.mod, empty.err
}

// withResolver returns ctx with an import resolver that resolves module
// names with mods and every other name to the empty module.
func withResolver(ctx context.Context, mods map[string]api.Module) context.Context {
	none, _ := emptyModule()
	return experimental.WithImportResolver(ctx, func(name string) api.Module {
		if m, ok := mods[name]; ok {
			return m
		}
		return none
	})
}
