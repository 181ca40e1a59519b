package wasm

import "testing"

func TestLinkingTwoModules(t *testing.T) {
	iso := newIsolate(t)
	const setup = `
		const lib = (await WebAssembly.instantiate(fixture("lib"))).instance.exports;
		const app = (await WebAssembly.instantiate(fixture("app"), {
			lib: { ...lib, plusOne: (x) => x + 1 },
		})).instance.exports;`
	runCases(t, iso, []evalCase{
		{"calls the other module's function", setup + `return app.quad(3)`, "12"},
		{"shares its memory", setup + `return [app.first(), (new Uint8Array(lib.mem.buffer)[0] = 9, app.first())]`, "[7,9]"},
		{"shares its global", setup + `app.bump(); app.bump(); return [lib.counter.value, app.bump()]`, "[7,8]"},
		{"shares its table", setup + `return app.viaTable(21)`, "42"},
		{"mixes in JavaScript", setup + `return app.plusTwo(40)`, "42"},
		{"a namespace that is another instance's exports", `
			const lib = (await WebAssembly.instantiate(fixture("lib"))).instance.exports;
			// Everything but plusOne comes from lib under its own name, so
			// lib itself serves the namespace once plusOne is lib's too.
			const { instance } = await WebAssembly.instantiate(fixture("app"), { lib: { ...lib, plusOne: lib.double } });
			return instance.exports.plusTwo(5)`, "20"},
		{"a function of another type does not link", setup + `
			const { instance } = await WebAssembly.instantiate(fixture("imports"), { env: {
				log: lib.double, twice: (x) => x, fail() {}, pair: () => [0, 0] } }).catch((err) => ({ instance: err }));
			return instance.name`, `"LinkError"`},
	})
}

func TestInstantiateBytesOrModule(t *testing.T) {
	iso := newIsolate(t)
	runCases(t, iso, []evalCase{
		{"bytes give module and instance", `
			const r = await WebAssembly.instantiate(fixture("numbers"));
			return [Object.keys(r).sort(), r.module instanceof WebAssembly.Module, r.instance instanceof WebAssembly.Instance, r.instance.exports.add(1, 2)]`,
			`[["instance","module"],true,true,3]`},
		{"a module gives an instance", `
			const m = new WebAssembly.Module(fixture("numbers"));
			const i = await WebAssembly.instantiate(m);
			return [i instanceof WebAssembly.Instance, i.exports.add(2, 2)]`, "[true,4]"},
		{"compile then new Instance", `
			const m = await WebAssembly.compile(fixture("numbers"));
			return new WebAssembly.Instance(m).exports.add(3, 3)`, "6"},
		{"instances of one module are separate", `
			const m = new WebAssembly.Module(fixture("memory"));
			const imports = { env: { seen() {}, more: () => 0 } };
			const a = new WebAssembly.Instance(m, imports).exports, b = new WebAssembly.Instance(m, imports).exports;
			a.store(0, 1);
			return [a.load(0), b.load(0), a.memory === b.memory]`, "[1,104,false]"},
		{"an ArrayBuffer or a view of one", `
			const u8 = fixture("numbers");
			const padded = new Uint8Array(u8.length + 4); padded.set(u8, 2);
			const fromBuffer = await WebAssembly.instantiate(u8.buffer.slice(u8.byteOffset, u8.byteOffset + u8.byteLength));
			const fromView = await WebAssembly.instantiate(new DataView(padded.buffer, 2, u8.length));
			return [fromBuffer.instance.exports.add(1, 1), fromView.instance.exports.add(2, 1)]`, "[2,3]"},
		{"not bytes", `
			const r = [];
			for (const v of [undefined, "wasm", {}]) {
				await WebAssembly.instantiate(v).then(() => r.push("ok"), (err) => r.push(err.name));
			}
			return r`, `["TypeError","TypeError","TypeError"]`},
	})
}

func TestCompileAndValidate(t *testing.T) {
	iso := newIsolate(t)
	runCases(t, iso, []evalCase{
		{"validate", `return [WebAssembly.validate(fixture("numbers")), WebAssembly.validate(new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0, 99]))]`, "[true,false]"},
		{"new Module on junk", `try { new WebAssembly.Module(new Uint8Array([1, 2, 3, 4])); return "compiled" } catch (err) { return [err instanceof WebAssembly.CompileError, err.message.startsWith("WebAssembly.Module(): ")] }`, "[true,true]"},
		{"compile rejects", `return await WebAssembly.compile(new Uint8Array(8)).then(() => "compiled", (err) => err.name)`, `"CompileError"`},
		{"instantiate rejects", `return await WebAssembly.instantiate(new Uint8Array(8)).then(() => "compiled", (err) => err.name)`, `"CompileError"`},
		{"the error classes", `
			const e = new WebAssembly.RuntimeError("x");
			return [e instanceof Error, e.name, e.message, String(new WebAssembly.LinkError("y")), WebAssembly.CompileError.name]`,
			`[true,"RuntimeError","x","LinkError: y","CompileError"]`},
		{"the namespace", `return [Object.prototype.toString.call(WebAssembly), Object.keys(WebAssembly).length, typeof WebAssembly.instantiateStreaming]`, `["[object WebAssembly]",0,"function"]`},
	})
}

func TestModuleReflection(t *testing.T) {
	iso := newIsolate(t)
	runCases(t, iso, []evalCase{
		{"imports", `return WebAssembly.Module.imports(new WebAssembly.Module(fixture("app")))`,
			`[{"kind":"function","module":"lib","name":"double"},{"kind":"memory","module":"lib","name":"mem"},{"kind":"global","module":"lib","name":"counter"},{"kind":"table","module":"lib","name":"fns"},{"kind":"function","module":"lib","name":"plusOne"}]`},
		{"exports hide what the runtime adds", `return WebAssembly.Module.exports(new WebAssembly.Module(fixture("lib")))`,
			`[{"kind":"function","name":"double"},{"kind":"memory","name":"mem"},{"kind":"global","name":"counter"},{"kind":"table","name":"fns"}]`},
		{"custom sections", `
			const m = new WebAssembly.Module(withCustom(withCustom(fixture("start"), "note", "first"), "note", "second"));
			const text = (b) => String.fromCharCode(...new Uint8Array(b));
			return [WebAssembly.Module.customSections(m, "note").map(text), WebAssembly.Module.customSections(m, "none").length]`,
			`[["first","second"],0]`},
		{"not a module", `try { WebAssembly.Module.exports({}); return "ok" } catch (err) { return err.name }`, `"TypeError"`},
	})
}
