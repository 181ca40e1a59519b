// Package wasm is the WebAssembly namespace for dwk's JavaScript isolates,
// which goja lacks, on wazero (a WebAssembly runtime in pure Go): Module,
// Instance, Memory, Table, Global, CompileError, LinkError, RuntimeError,
// validate, compile, instantiate, compileStreaming and
// instantiateStreaming, as the WebAssembly JavaScript Interface and Web
// API say. It is what wasm-bindgen (Rust) and Emscripten glue code use:
// instantiate with an import object of JavaScript functions, read and
// write exports.memory.buffer through typed arrays, call exports.
//
// # Compiling
//
// Compiling is expensive, so the process has one wazero runtime and one
// cache of compiled modules, keyed by the SHA-256 of their bytes: a
// module is compiled once however many isolates instantiate it, and
// isolates that ask for it while it compiles wait for that compilation.
// Precompile fills the cache before the first request (the adapter calls
// it for a bundle's CompiledWasm modules); internal.wasmModule(bytes)
// makes the WebAssembly.Module of such a module in an isolate.
// WebAssembly.compile and instantiate compile on a goroutine of their own,
// off the isolate's loop; new WebAssembly.Module compiles on it. A cache
// entry lives while an isolate holds a Module or Instance of it; the 32
// modules compiled last are kept besides.
//
// # Instances
//
// Instances are per isolate. JavaScript functions in the import object
// become the functions of a wazero host module made for the instance,
// which wazero calls synchronously on the isolate's loop, from inside the
// export call that reached them: the call is re-entrant, and what a
// JavaScript import throws unwinds the WebAssembly frames and reaches the
// caller of the export as the value thrown. Exports of other instances,
// Memory, Table and Global objects link to the module that defines them
// (imports.go has how).
//
// Values cross as the JS API says: numbers for i32, f32 and f64, BigInt
// for i64, any value for externref (kept in a handle table of the isolate
// that a collector empties of what no table or global holds any more),
// exported functions or null for funcref. A memory's buffer is an
// ArrayBuffer over the memory itself; when the memory grows, the old
// buffer is detached and the next read of buffer makes a new one, so
// glue code that caches a view and makes it again when its byteLength
// is 0 sees the grown memory.
//
// # Runaway code
//
// jsrt's CPU limit interrupts goja, which does not run while WebAssembly
// does. The package adds a stop flag to every module it compiles, checked
// at the head of every loop and every function (instrument.go), and stops
// an outermost call into WebAssembly when its event's context ends or when
// it runs past what was left of the event's CPU time (the isolate's
// jsrt.Config.CPULimit) at the watchdog's
// next tick (watch.go). The call throws a RuntimeError saying why; the
// instances stay usable. Every memory is capped at 128 MiB, so that a
// module growing its memory in a loop cannot exhaust the process.
//
// # Memory cost
//
// An instance costs:
//   - its linear memory: the initial pages (64 KiB each) allocated up
//     front, zeroed; growing past the allocation copies the memory, so
//     for a moment it takes twice its size;
//   - its tables (8 bytes an element) and globals;
//   - a host module per import namespace of JavaScript functions: about
//     0.3 ms to make and a page or more of machine code, plus about 10 µs
//     per function;
//   - 10 KiB of stack per export while it is called (one more per
//     re-entrant call of the same export), kept for the next call; a
//     call's stack grows on demand, up to wazero's 400 MB, before the
//     stack overflows;
//   - nothing for the module's machine code, which its compilation owns
//     and all isolates share.
//
// # Differences
//
// From Cloudflare Workers (V8):
//   - Workers refuse to compile WebAssembly at run time (new Module,
//     compile and instantiate of bytes throw "Wasm code generation
//     disallowed by embedder"): only the bundle's CompiledWasm modules
//     run. dwk compiles bytes at run time too.
//   - A stack overflow in WebAssembly is a RuntimeError "Maximum call
//     stack size exceeded" (V8 throws a RangeError), and the stack may
//     get much deeper first.
//   - A call stopped by the CPU limit throws a RuntimeError, and the
//     isolate and its instances go on (Cloudflare terminates the
//     isolate's execution).
//   - A memory cannot grow past 128 MiB, whatever its declared maximum:
//     memory.grow returns -1 and Memory.prototype.grow throws a
//     RangeError.
//   - A function read from a table or a global, or returned as a funcref,
//     is a new function object, not the export's own (the same reference
//     read twice is the same object).
//   - An immutable externref or anyfunc Global made by JavaScript holds
//     null only; new WebAssembly.Global({value: "externref"}) holds null,
//     not undefined. An immutable global import of a reference type takes
//     a Global, or null.
//   - A module that imports one name twice with different signatures
//     cannot take a JavaScript function for it (a LinkError).
//   - There is no WebAssembly.Tag or WebAssembly.Exception, no shared
//     memory and no type reflection; a WebAssembly exception that leaves
//     the module is a RuntimeError.
//   - compileStreaming and instantiateStreaming check the response's
//     Content-Type (application/wasm) and status, as browsers do.
package wasm
