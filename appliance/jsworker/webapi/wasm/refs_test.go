package wasm

import (
	"context"
	"testing"

	"github.com/dop251/goja"
)

func TestGlobals(t *testing.T) {
	iso := newIsolate(t)
	const setup = `
		const shared = new WebAssembly.Global({ value: "f64", mutable: true }, 10);
		const { instance } = await WebAssembly.instantiate(fixture("globals"), { env: { base: 3, big: 2n ** 40n, shared } });
		const e = instance.exports;`
	runCases(t, iso, []evalCase{
		{"plain values for immutable imports", setup + `return [e.base(), String(e.big())]`, `[3,"1099511627776"]`},
		{"a Global shared both ways", setup + `e.halveShared(); shared.value = shared.value + 1; e.halveShared(); return [shared.value, e.shared === shared]`, "[3,true]"},
		{"exported globals", setup + `e.mine.value = 12; return [e.readMine(), e.mine.valueOf(), typeof e.k.value, String(e.k.value)]`, `[12,12,"bigint","-3"]`},
		{"immutable", setup + `try { e.k.value = 1n; return "set" } catch (err) { return [err.name, err.message] }`, `["TypeError","Can't set the value of an immutable global."]`},
		{"new Global values", `
			const g = (d, v) => new WebAssembly.Global(d, v).value;
			return [g({ value: "i32" }), g({ value: "i32" }, 2 ** 32 + 5), g({ value: "f32" }, 0.1), String(g({ value: "i64" })), g({ value: "anyfunc" }), g({ value: "externref", mutable: true }) === undefined]`,
			`[0,5,0.10000000149011612,"0",null,true]`},
		{"a mutable import needs a Global", `
			return await WebAssembly.instantiate(fixture("globals"), { env: { base: 3, big: 1n, shared: 1 } }).then(() => "linked", (err) => err.name)`, `"LinkError"`},
		{"an i64 import needs a BigInt", `
			return await WebAssembly.instantiate(fixture("globals"), { env: { base: 3, big: 1, shared: new WebAssembly.Global({ value: "f64", mutable: true }) } }).then(() => "linked", (err) => err.name)`, `"LinkError"`},
		{"a Global of the wrong type", `
			return await WebAssembly.instantiate(fixture("globals"), { env: { base: 3, big: 1n, shared: new WebAssembly.Global({ value: "i32", mutable: true }) } }).then(() => "linked", (err) => [err.name, err.message])`,
			`["LinkError","WebAssembly.Instance(): Import #2 \"env\" \"shared\": value type mismatch: f64 != i32"]`},
		{"bad descriptors", `
			const r = [];
			for (const d of [{ value: "i31" }, { value: "v128" }, null]) {
				try { new WebAssembly.Global(d); r.push("made") } catch (err) { r.push(err.name) }
			}
			return r`, `["TypeError","TypeError","TypeError"]`},
	})
}

func TestTablesAndReferences(t *testing.T) {
	iso := newIsolate(t)
	const setup = `const { instance } = await WebAssembly.instantiate(fixture("refs")); const e = instance.exports;`
	runCases(t, iso, []evalCase{
		{"table.get gives a callable function", setup + `const f = e.fns.get(1); return [typeof f, f(10), e.fns.get(2), e.fns.length]`, "[\"function\",9,null,3]"},
		{"the same element twice is one object", setup + `return e.fns.get(0) === e.fns.get(0)`, "true"},
		{"table.set with an exported function", setup + `e.fns.set(2, e.inc); return e.callAt(2, 41)`, "42"},
		{"table.set with null", setup + `e.fns.set(0, null); try { e.callAt(0, 1); return "called" } catch (err) { return err.message }`, `"table index is out of bounds"`},
		{"table.set refuses a JavaScript function", setup + `try { e.fns.set(0, () => 1); return "set" } catch (err) { return err.name }`, `"TypeError"`},
		{"out of range", setup + `try { e.fns.get(3); return "got" } catch (err) { return err.name }`, `"RangeError"`},
		{"grow", setup + `const old = e.fns.grow(2, e.inc); return [old, e.fns.length, e.callAt(4, 1)]`, "[3,5,2]"},
		{"a funcref result", setup + `const f = e.decRef(); return [f(5), f.length, e.fns.get(1)(5)]`, "[4,1,4]"},
		{"externref keeps identity", setup + `
			const o = { n: 1 };
			e.keep(0, o); e.keep(1, "text"); e.keep(2, undefined);
			return [e.fetch(0) === o, e.fetch(1), e.fetch(2) === undefined, e.fetch(3), e.identity(o) === o, e.identity(null)]`,
			`[true,"text",true,null,true,null]`},
		{"externref in a global", setup + `const o = {}; e.remember(o); return e.recall() === o`, "true"},
		{"new Table", `
			const t = new WebAssembly.Table({ element: "externref", initial: 2 }, "x");
			t.set(1, 5);
			return [t.get(0), t.get(1), t.grow(1), t.length, t.get(2) === undefined]`, `["x",5,2,3,true]`},
		{"a JavaScript table imported", `
			const { instance } = await WebAssembly.instantiate(fixture("lib"));
			const fns = new WebAssembly.Table({ element: "anyfunc", initial: 2 });
			fns.set(0, instance.exports.double);
			const app = (await WebAssembly.instantiate(fixture("app"), { lib: { ...instance.exports, fns, plusOne: (x) => x } })).instance.exports;
			return app.viaTable(8)`, "16"},
	})
}

func TestExternrefsAreCollected(t *testing.T) {
	iso := newIsolate(t)
	got := runOne(t, iso, `
		const { instance } = await WebAssembly.instantiate(fixture("refs"));
		const e = instance.exports;
		const kept = { kept: true };
		e.keep(0, kept);
		e.remember("in a global");
		for (let i = 0; i < 5000; i++) e.identity({ i });
		return [e.fetch(0) === kept, e.recall()]`)
	if want := `[true,"in a global"]`; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
	s := stateOf(t, iso)
	var live int
	iso.Do(context.Background(), func(*goja.Runtime) error { live = s.refs.live; return nil })
	if live > 2*minCollect {
		t.Errorf("%d externref handles are live after 5000 calls; want them collected", live)
	}
}
