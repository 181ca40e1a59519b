// Package wasm is the WebAssembly namespace for dwk's JavaScript isolates,
// which goja lacks, on wazero (a WebAssembly runtime in pure Go).
package wasm
