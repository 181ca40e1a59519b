package wasm

import "testing"

func TestImportsCallJavaScript(t *testing.T) {
	iso := newIsolate(t)
	const setup = `
		const seen = [];
		class Boom extends Error {}
		const thrown = new Boom("from js");
		const imports = { env: {
			log: (x) => { seen.push(x) },
			twice: (x) => x * 2n,
			fail: () => { throw thrown },
			pair: () => [3, 0.5],
		} };
		const { instance } = await WebAssembly.instantiate(fixture("imports"), imports);
		const e = instance.exports;`
	runCases(t, iso, []evalCase{
		{"argument", setup + `e.callLog(5); e.callLog(-1); return seen`, "[5,-1]"},
		{"BigInt both ways", setup + `return String(e.callTwice(21n))`, `"42"`},
		{"a throw comes through as itself", setup + `try { e.callFail(); return "no error" } catch (err) { return [err === thrown, err instanceof Boom, err.message] }`, `[true,true,"from js"]`},
		{"a re-exported import is the function itself", setup + `return e.log === imports.env.log`, "true"},
		{"multi-value results", setup + `return e.sumPair()`, "3.5"},
		{"usable after a throw", setup + `try { e.callFail() } catch {} e.callLog(8); return seen`, "[8]"},
		{"a bad result throws a TypeError", `
			const { instance } = await WebAssembly.instantiate(fixture("imports"), { env: { log() {}, twice: () => 1, fail() {}, pair: () => 1 } });
			const r = [];
			try { instance.exports.callTwice(1n) } catch (err) { r.push(err.constructor.name) }
			try { instance.exports.sumPair() } catch (err) { r.push(err.constructor.name) }
			return r`, `["TypeError","TypeError"]`},
		{"re-entrant", `
			let depth = 0, e;
			const imports = { env: {
				log: (x) => { if (x > 0) { depth++; e.callLog(x - 1) } },
				twice: (x) => x, fail() {}, pair: () => [0, 0],
			} };
			e = (await WebAssembly.instantiate(fixture("imports"), imports)).instance.exports;
			e.callLog(5);
			return depth`, "5"},
		{"a start function calls JavaScript", `
			const calls = [];
			await WebAssembly.instantiate(fixture("start"), { env: { started: (x) => calls.push(x) } });
			return calls`, "[99]"},
	})
}

func TestLinkErrors(t *testing.T) {
	iso := newIsolate(t)
	const check = `
		async function attempt(imports) {
			try { await WebAssembly.instantiate(fixture("imports"), imports); return "linked" }
			catch (err) { return err.name + ": " + err.message }
		}`
	runCases(t, iso, []evalCase{
		{"no import object", check + `return await attempt()`, `"TypeError: WebAssembly.Instance(): Imports argument must be present and must be an object"`},
		{"no namespace", check + `return await attempt({})`, `"TypeError: WebAssembly.Instance(): Import #0 \"env\": module is not an object or function"`},
		{"not a function", check + `return await attempt({ env: { log: 1 } })`, `"LinkError: WebAssembly.Instance(): Import #0 \"env\" \"log\": function import requires a callable"`},
		{"a wasm function of the wrong type", check + `
			const { instance } = await WebAssembly.instantiate(fixture("numbers"));
			return await attempt({ env: { log: instance.exports.add, twice() {}, fail() {}, pair() {} } })`, `"LinkError: WebAssembly.Instance(): Import #0 \"env\" \"log\": signature mismatch: i32_v != i32i32_i32"`},
	})
}
