package wasm

import (
	"context"
	"errors"
	"os"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/dwk/fleet/appliance/jsworker/jsrt"
	"github.com/dwk/fleet/appliance/jsworker/jsrt/jsrttest"
)

// exposeInternal makes internal.wasmModule a global for the tests.
var exposeInternal = jsrt.Extension{Name: "expose", JS: "global.wasmModule = internal.wasmModule;"}

func TestAModuleIsCompiledOncePerProcess(t *testing.T) {
	a := newIsolate(t, Extension, exposeInternal)
	b := newIsolate(t, Extension, exposeInternal)
	// Bytes no other test (or run of this one) compiles.
	body := `
		const bytes = withCustom(fixture("numbers"), "test", "` + unique() + `");
		const { instance } = await WebAssembly.instantiate(bytes);
		const again = new WebAssembly.Instance(wasmModule(bytes));
		return instance.exports.add(20, 22) + again.exports.add(0, 0)`
	before := engine.compilations.Load()
	for _, iso := range []*jsrt.Isolate{a, b} {
		if got := runOne(t, iso, body); got != "42" {
			t.Fatalf("got %s, want 42", got)
		}
	}
	if got := engine.compilations.Load() - before; got != 1 {
		t.Errorf("two isolates compiled the module %d times, want once", got)
	}
}

func TestPrecompile(t *testing.T) {
	b, err := os.ReadFile("testdata/loop.wasm")
	if err != nil {
		t.Fatal(err)
	}
	tag := unique()
	b = withCustom(b, "test", tag)
	before := engine.compilations.Load()
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs <- Precompile(context.Background(), b)
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatalf("Precompile: %v", err)
		}
	}
	if got := engine.compilations.Load() - before; got != 1 {
		t.Errorf("8 concurrent Precompiles compiled %d times, want once", got)
	}
	iso := newIsolate(t, Extension, exposeInternal)
	if got := runOne(t, iso, `return new WebAssembly.Instance(wasmModule(withCustom(fixture("loop"), "test", "`+tag+`"))).exports.count(3)`); got != "3" {
		t.Errorf("got %s, want 3", got)
	}
	if got := engine.compilations.Load() - before; got != 1 {
		t.Errorf("after an isolate used the precompiled module: %d compilations, want 1", got)
	}

	var ce *CompileError
	if err := Precompile(context.Background(), []byte("not wasm")); !errors.As(err, &ce) {
		t.Errorf("Precompile of junk: got %v, want a *CompileError", err)
	}
}

// unique is a text no other call returns in this process.
func unique() string {
	return strconv.FormatInt(time.Now().UnixNano(), 36) + "." + strconv.FormatInt(uniqueSeq.Add(1), 10)
}

var uniqueSeq atomic.Int64

func TestInternalWasmModule(t *testing.T) {
	iso := jsrttest.New(t, Extension, fixtures, exposeInternal)
	runCases(t, iso, []evalCase{
		{"makes a Module", `const m = wasmModule(fixture("numbers")); return [m instanceof WebAssembly.Module, new WebAssembly.Instance(m).exports.add(1, 2)]`, "[true,3]"},
		{"junk is a CompileError", `try { wasmModule(new Uint8Array(3)); return "compiled" } catch (err) { return err.name }`, `"CompileError"`},
	})
}
