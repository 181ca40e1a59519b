package wasm

import "testing"

func TestStreaming(t *testing.T) {
	iso := newIsolate(t)
	// A stand-in for a fetch Response (the fetch extension is not loaded).
	const setup = `
		const response = (type, ok = true) => ({ ok, headers: { get: (n) => n === "content-type" ? type : null }, arrayBuffer: async () => fixture("numbers").buffer });
		const attempt = (p) => p.then(() => "ok", (err) => [err.name, err.message]);`
	runCases(t, iso, []evalCase{
		{"instantiateStreaming", setup + `
			const { module, instance } = await WebAssembly.instantiateStreaming(Promise.resolve(response("application/wasm")));
			return [module instanceof WebAssembly.Module, instance.exports.add(4, 5)]`, "[true,9]"},
		{"compileStreaming", setup + `
			const m = await WebAssembly.compileStreaming(response("Application/Wasm; charset=binary"));
			return WebAssembly.Module.exports(m).length`, "9"},
		{"the wrong type", setup + `return await attempt(WebAssembly.compileStreaming(response("text/plain")))`,
			`["TypeError","WebAssembly.compileStreaming(): Incorrect response MIME type. Expected 'application/wasm'."]`},
		{"a failed response", setup + `return await attempt(WebAssembly.instantiateStreaming(response("application/wasm", false)))`,
			`["TypeError","WebAssembly.instantiateStreaming(): HTTP status code is not ok"]`},
		{"not a response", setup + `return await attempt(WebAssembly.compileStreaming(42))`,
			`["TypeError","WebAssembly.compileStreaming(): Argument 0 must be a Response or a promise of one"]`},
	})
}
