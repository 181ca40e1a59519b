package wasm

import "testing"

func TestMemoryFromJavaScript(t *testing.T) {
	iso := newIsolate(t)
	const setup = `
		const reports = [];
		let mem;
		const { instance } = await WebAssembly.instantiate(fixture("memory"), { env: {
			// seen reads the page the module just grew into, through a
			// view made before it grew (as glue code caches one).
			seen: (at) => { reports.push([view.byteLength, new Uint8Array(mem.buffer)[at]]) },
			more: () => mem.grow(1),
		} });
		const e = instance.exports;
		mem = e.memory;
		let view = new Uint8Array(mem.buffer);`
	runCases(t, iso, []evalCase{
		{"reads what the module wrote", setup + `return String.fromCharCode(...view.subarray(0, 5))`, `"hello"`},
		{"the module reads what JavaScript wrote", setup + `view[10] = 200; return e.load(10)`, "200"},
		{"a view, not a copy", setup + `e.store(11, 7); return [view[11], mem.buffer === mem.buffer, mem.buffer.byteLength]`, "[7,true,65536]"},
		{"grow from JavaScript detaches the old buffer", setup + `
			const old = mem.buffer;
			const before = mem.grow(2);
			return [before, view.byteLength, old.byteLength, mem.buffer.byteLength, mem.buffer === old, e.load(0)]`, "[1,0,0,196608,false,104]"},
		{"grow by the module detaches the old buffer", setup + `
			e.store(3, 9);
			const prev = e.grow(1);
			return [prev, view.byteLength, mem.buffer.byteLength, new Uint8Array(mem.buffer)[3]]`, "[1,0,131072,9]"},
		{"an import sees the grown memory", setup + `e.growAndReport(3); return reports`, "[[0,42]]"},
		{"an import grows the memory", setup + `const at = e.growViaJS(); return [at / 65536, view.byteLength, new Uint8Array(mem.buffer)[at]]`, "[1,0,7]"},
		{"grow past the maximum", setup + `try { mem.grow(1000); return "grew" } catch (err) { return [err.name, mem.buffer.byteLength] }`, `["RangeError",65536]`},
		{"the memory export is one object", setup + `return [instance.exports.memory === mem, mem instanceof WebAssembly.Memory, Object.prototype.toString.call(mem)]`, `[true,true,"[object WebAssembly.Memory]"]`},
		{"glue code's pattern", setup + `
			// As wasm-bindgen's glue: a cached view, made again when empty.
			let cached = null;
			const u8 = () => (cached === null || cached.byteLength === 0) ? (cached = new Uint8Array(mem.buffer)) : cached;
			const out = [];
			for (let round = 0; round < 3; round++) {
				const ptr = 100 + round;
				u8()[ptr] = 97 + round;          // "a", "b", "c"
				e.upper(ptr, 1);
				out.push(String.fromCharCode(u8()[ptr]));
				e.grow(1);                        // invalidates the cached view
			}
			return [out.join(""), u8().byteLength / 65536]`, `["ABC",4]`},
	})
}

func TestMemoryMadeByJavaScript(t *testing.T) {
	iso := newIsolate(t)
	runCases(t, iso, []evalCase{
		{"new Memory", `
			const m = new WebAssembly.Memory({ initial: 1, maximum: 3 });
			new Uint8Array(m.buffer)[0] = 5;
			const before = m.buffer;
			return [m.buffer.byteLength, m.grow(2), m.buffer.byteLength, before.byteLength, new Uint8Array(m.buffer)[0]]`, "[65536,1,196608,0,5]"},
		{"imported by a module", `
			const m = new WebAssembly.Memory({ initial: 1 });
			const { instance } = await WebAssembly.instantiate(fixture("app"), { lib: {
				mem: m, double: (x) => 2 * x, counter: new WebAssembly.Global({ value: "i32", mutable: true }, 0),
				fns: new WebAssembly.Table({ element: "anyfunc", initial: 2 }), plusOne: (x) => x + 1,
			} });
			new Uint8Array(m.buffer)[0] = 77;
			return instance.exports.first()`, "77"},
		{"no memory grows past 128 MiB", `
			const m = new WebAssembly.Memory({ initial: 1, maximum: 65536 });
			try { m.grow(2048); return "grew" } catch (err) { return [err.name, m.buffer.byteLength / 65536] }`, `["RangeError",1]`},
		{"descriptor errors", `
			const r = [];
			for (const d of [undefined, {}, { initial: -1 }, { initial: 2, maximum: 1 }, { initial: 70000 }]) {
				try { new WebAssembly.Memory(d); r.push("made") } catch (err) { r.push(err.name) }
			}
			return r`, `["TypeError","TypeError","TypeError","RangeError","RangeError"]`},
	})
}
