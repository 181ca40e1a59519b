package wasm

import (
	"context"
	"crypto/sha256"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"weak"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"
	"github.com/tetratelabs/wazero/experimental"
)

// The engine is one wazero runtime for the whole process: every isolate
// instantiates from it, so a module's machine code exists once however many
// isolates run it. Its compile cache is keyed by the SHA-256 of a module's
// bytes: the first isolate (or Precompile) compiles, the others wait for
// that compilation and share it. An entry lives while an isolate holds a
// Module or an Instance of it, and the last recentSize entries compiled are
// kept besides, so that what Precompile compiled before an isolate started
// is still there when it does.

// recentSize is how many recently compiled modules the cache keeps even
// when no isolate holds them.
const recentSize = 32

// features are the WebAssembly features modules may use: 2.0 (bulk memory,
// multi-value, reference types, SIMD, …), tail calls, extended constant
// expressions and exception handling.
const features = api.CoreFeaturesV2 | experimental.CoreFeaturesTailCall |
	experimental.CoreFeaturesExtendedConst | experimental.CoreFeaturesExceptionHandling

var engine struct {
	once sync.Once
	rt   wazero.Runtime

	mu     sync.Mutex
	slots  map[cacheKey]*cacheSlot
	recent [recentSize]*compiled
	next   int

	// compilations counts the modules compiled (not the generated ones),
	// for tests and metrics.
	compilations atomic.Int64
}

// wazeroRuntime is the process's wazero runtime.
func wazeroRuntime() wazero.Runtime {
	engine.once.Do(func() {
		cfg := wazero.NewRuntimeConfig().
			WithCoreFeatures(features).
			// Debug information would point into the instrumented code,
			// whose offsets differ from the module's; it also costs memory.
			WithDebugInfoEnabled(false)
		engine.rt = wazero.NewRuntimeWithConfig(context.Background(), cfg)
		engine.slots = map[cacheKey]*cacheSlot{}
	})
	return engine.rt
}

// compiled is a compiled module, shared by every isolate.
type compiled struct {
	mod  wazero.CompiledModule
	info *moduleInfo
	// stoppable is set when the module has the stop flag (instrument.go).
	stoppable bool
}

// cacheKey identifies a module's bytes; generated modules (synth.go) are
// not instrumented, so they have keys of their own.
type cacheKey struct {
	sum       [sha256.Size]byte
	generated bool
}

// cacheSlot is a cache entry: a compilation under way, or done.
type cacheSlot struct {
	done chan struct{} // closed when the compilation ended
	c    weak.Pointer[compiled]
	err  error
}

// CompileError is a module that is not valid WebAssembly.
type CompileError struct{ Msg string }

func (e *CompileError) Error() string { return "invalid WebAssembly module: " + e.Msg }

// Precompile compiles the WebAssembly module b into the process's cache, so
// that the isolates that instantiate it later do not. It returns a
// *CompileError for bytes that are not a valid module.
func Precompile(ctx context.Context, b []byte) error {
	_, err := compileModule(ctx, b, false)
	return err
}

// compileModule returns the compiled module of b, compiling it unless the
// cache has it. b is copied. Generated modules are compiled as they are;
// the others are instrumented.
func compileModule(ctx context.Context, b []byte, generated bool) (*compiled, error) {
	wazeroRuntime()
	key := cacheKey{sum: sha256.Sum256(b), generated: generated}
	for {
		engine.mu.Lock()
		s, ok := engine.slots[key]
		if !ok {
			s = &cacheSlot{done: make(chan struct{})}
			engine.slots[key] = s
			engine.mu.Unlock()
			return s.fill(key, b, generated)
		}
		engine.mu.Unlock()
		select {
		case <-s.done:
		case <-ctx.Done():
			return nil, context.Cause(ctx)
		}
		if s.err != nil {
			return nil, s.err
		}
		if c := s.c.Value(); c != nil {
			return c, nil
		}
		// Collected since: forget the slot and compile again.
		engine.mu.Lock()
		if engine.slots[key] == s {
			delete(engine.slots, key)
		}
		engine.mu.Unlock()
	}
}

// fill compiles b into the new slot s. A failed compilation is not kept:
// the slot goes, and those waiting for it get the error.
func (s *cacheSlot) fill(key cacheKey, b []byte, generated bool) (*compiled, error) {
	defer close(s.done)
	c, err := build(b, generated)
	if err != nil {
		s.err = err
		engine.mu.Lock()
		delete(engine.slots, key)
		engine.mu.Unlock()
		return nil, err
	}
	s.c = weak.Make(c)
	runtime.AddCleanup(c, forget, forgetArg{key: key, slot: s, mod: c.mod})
	if !generated {
		engine.mu.Lock()
		engine.recent[engine.next] = c
		engine.next = (engine.next + 1) % recentSize
		engine.mu.Unlock()
	}
	return c, nil
}

type forgetArg struct {
	key  cacheKey
	slot *cacheSlot
	mod  wazero.CompiledModule
}

// forget drops a collected module from the cache and frees its code.
func forget(a forgetArg) {
	engine.mu.Lock()
	if engine.slots[a.key] == a.slot {
		delete(engine.slots, a.key)
	}
	engine.mu.Unlock()
	a.mod.Close(context.Background())
}

// build compiles b. Modules that are not generated get the stop flag;
// one the instrumentation cannot read is compiled as it is, and then
// cannot be stopped (wazero's error says what is wrong with a module that
// is not valid).
func build(b []byte, generated bool) (*compiled, error) {
	info, perr := parseModule(b)
	src, stoppable := b, false
	if perr == nil && !generated {
		if ib, err := instrument(b, info); err == nil {
			src, stoppable = ib, true
		}
	}
	if !stoppable {
		src = append([]byte(nil), b...) // wazero keeps parts of what it compiles
	}
	if !generated {
		engine.compilations.Add(1)
	}
	mod, err := engine.rt.CompileModule(context.Background(), src)
	if err != nil {
		return nil, &CompileError{Msg: err.Error()}
	}
	if perr != nil {
		mod.Close(context.Background())
		return nil, &CompileError{Msg: fmt.Sprintf("cannot read the module: %v", perr)}
	}
	return &compiled{mod: mod, info: info, stoppable: stoppable}, nil
}
