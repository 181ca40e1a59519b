package wasm

import (
	"testing"

	"github.com/dwk/fleet/appliance/jsworker/jsrt/jsrttest"
)

// BenchmarkExportCall measures a call from JavaScript into an export:
// the per-call overhead (conversions, the CPU-limit watch).
func BenchmarkExportCall(b *testing.B) {
	iso := newIsolate(b)
	jsrttest.MustEval(b, iso, `globalThis.e = new WebAssembly.Instance(new WebAssembly.Module(fixture("numbers"))).exports`)
	b.ResetTimer()
	jsrttest.MustEval(b, iso, `for (let i = 0; i < `+itoa(b.N)+`; i++) e.add(i, 1)`)
}

// BenchmarkImportCall measures a call from WebAssembly into a JavaScript
// import (through an export call).
func BenchmarkImportCall(b *testing.B) {
	iso := newIsolate(b)
	jsrttest.MustEval(b, iso, `globalThis.e = new WebAssembly.Instance(new WebAssembly.Module(fixture("imports")), { env: { log() {}, twice: (x) => x, fail() {}, pair: () => [0, 0] } }).exports`)
	b.ResetTimer()
	jsrttest.MustEval(b, iso, `for (let i = 0; i < `+itoa(b.N)+`; i++) e.callLog(i)`)
}

// BenchmarkMemoryBuffer measures reading memory.buffer, as glue code
// does before most calls.
func BenchmarkMemoryBuffer(b *testing.B) {
	iso := newIsolate(b)
	jsrttest.MustEval(b, iso, `globalThis.m = new WebAssembly.Memory({ initial: 1 })`)
	b.ResetTimer()
	jsrttest.MustEval(b, iso, `for (let i = 0; i < `+itoa(b.N)+`; i++) m.buffer`)
}

// BenchmarkInstantiate measures instantiating a module with JavaScript
// imports (a host module per instance).
func BenchmarkInstantiate(b *testing.B) {
	iso := newIsolate(b)
	jsrttest.MustEval(b, iso, `globalThis.mod = new WebAssembly.Module(fixture("imports")); globalThis.imp = { env: { log() {}, twice: (x) => x, fail() {}, pair: () => [0, 0] } }`)
	b.ResetTimer()
	jsrttest.MustEval(b, iso, `for (let i = 0; i < `+itoa(b.N)+`; i++) new WebAssembly.Instance(mod, imp)`)
}

func itoa(n int) string {
	return string(appendInt(nil, n))
}

func appendInt(b []byte, n int) []byte {
	if n >= 10 {
		b = appendInt(b, n/10)
	}
	return append(b, byte('0'+n%10))
}
