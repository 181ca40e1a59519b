package clone_test

import (
	"testing"

	"github.com/dwk/fleet/appliance/jsworker/jsrt"
	"github.com/dwk/fleet/appliance/jsworker/jsrt/jsrttest"
)

// roundTrip serializes in one isolate and deserializes in another, as
// replicas do.
func TestSerializeAcrossIsolates(t *testing.T) {
	from, to := newIsolate(t), newIsolate(t)
	for _, tc := range []struct {
		name, value, check, want string
	}{
		{"plain JSON", `({ a: [1, "two", { three: null }], b: true, c: 1.5 })`, `JSON.stringify(v)`, `"{\"a\":[1,\"two\",{\"three\":null}],\"b\":true,\"c\":1.5}"`},
		{"undefined and numbers", `[undefined, NaN, Infinity, -Infinity, -0, 0, { u: undefined }]`,
			`[v[0] === undefined, 0 in v, Number.isNaN(v[1]), v[2] === Infinity, v[3] === -Infinity, Object.is(v[4], -0), Object.is(v[5], 0), "u" in v[6]]`, `[true,true,true,true,true,true,true,true]`},
		{"infinities", `[Infinity, -Infinity]`, `[v[0] === Infinity, v[1] === -Infinity]`, `[true,true]`},
		{"BigInt", `[10n ** 30n, -1n, Object(7n)]`, `[String(v[0]), typeof v[1], String(v[1]), typeof v[2], String(v[2].valueOf())]`, `["1000000000000000000000000000000","bigint","-1","object","7"]`},
		{"Date and RegExp", `[new Date(5), new Date(NaN), /x\/y/gimsuy]`, `[v[0] instanceof Date, v[0].getTime(), isNaN(v[1]), v[2].source, v[2].flags]`, `[true,5,true,"x\\/y","gimsuy"]`},
		{"Map and Set", `new Map([[1, new Set(["a", { b: 1 }])], [{ k: 1 }, undefined]])`,
			`[v instanceof Map, v.size, [...v.get(1)][1].b, [...v.keys()][1].k, v.has([...v.keys()][1])]`, `[true,2,1,1,true]`},
		{"binary", `(() => { const buf = new Uint8Array([0, 1, 2, 250, 255, 7, 8, 9]).buffer; return { buf, u8: new Uint8Array(buf, 2, 3), dv: new DataView(buf, 4), f64: new Float64Array([1.5]), big: new BigInt64Array([-5n]) } })()`,
			`[[...new Uint8Array(v.buf)], [...v.u8], v.u8.buffer === v.buf, v.dv.getUint8(0), v.dv.byteLength, v.f64[0], String(v.big[0])]`, `[[0,1,2,250,255,7,8,9],[2,250,255],true,255,4,1.5,"-5"]`},
		{"errors", `(() => { const e = new TypeError("bad", { cause: new Error("root") }); return [e, new DOMException("gone", "NotFoundError"), new SyntaxError()] })()`,
			`[v[0] instanceof TypeError, v[0].message, v[0].cause.message, v[0].stack.includes("TypeError: bad"), v[1] instanceof DOMException, v[1].name, v[1].code, "message" in v[2] && !Object.prototype.hasOwnProperty.call(v[2], "message")]`,
			`[true,"bad","root",true,true,"NotFoundError",8,true]`},
		{"cycles and shared references", `(() => { const a = { n: 1 }; a.me = a; const s = [a]; const m = new Map(); m.set(m, s); return { a, s, t: s, m } })()`,
			`[v.a.me === v.a, v.s === v.t, v.s[0] === v.a, v.m.get(v.m) === v.s]`, `[true,true,true,true]`},
		{"sparse arrays", `(() => { const a = [1, , 3]; a.length = 6; a.x = "y"; return a })()`, `[v.length, 1 in v, v[2], v.x]`, `[6,false,3,"y"]`},
		{"dollar keys", `({ $: 1, $$: 2, $ref: { $: "r", i: 0 }, plain: "$" })`, `[v.$, v.$$, v.$ref.$, v.$ref.i, v.plain, Object.keys(v)]`, `[1,2,"r",0,"$",["$","$$","$ref","plain"]]`},
		{"strings that look like tags", `["$", "\"$", { s: "$u" }]`, `v`, `["$","\"$",{"s":"$u"}]`},
		{"lone surrogates", `["a\uD800b\uDC00", "\uD83D\uDE00", { "k\uDBFF": "\uDFFF" }, [0, 1].concat({ ["\uD800"]: 1 })]`,
			`[v[0].length, v[0].charCodeAt(1), v[0].charCodeAt(3), v[1] === "\uD83D\uDE00", Object.keys(v[2])[0] === "k\uDBFF", v[2]["k\uDBFF"] === "\uDFFF", v[3][2]["\uD800"]]`, `[4,55296,56320,true,true,true,1]`},
		{"class instances", `new (class P { constructor() { this.x = 1 } m() {} })()`, `[Object.getPrototypeOf(v) === Object.prototype, v.x]`, `[true,1]`},
		{"wrappers", `[new String("s"), new Number(-0), new Boolean(true)]`, `[typeof v[0], String(v[0]), Object.is(v[1].valueOf(), -0), v[2].valueOf()]`, `["object","s",true,true]`},
		{"top-level undefined", `undefined`, `v === undefined`, `true`},
		{"__proto__ key", `(() => { const o = JSON.parse('{"__proto__": {"x": 1}}'); o.y = undefined; return o })()`, `[Object.getPrototypeOf(v) === Object.prototype, Object.keys(v), v.x, v.__proto__.x]`, `[true,["__proto__","y"],null,1]`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			text, err := jsrttest.Eval(from, "return internal.serialize("+tc.value+")")
			if err != nil {
				t.Fatalf("serialize: %v", err)
			}
			got, err := jsrttest.Eval(to, "const v = internal.deserialize("+text+"); return "+tc.check)
			if err != nil {
				t.Fatalf("deserialize %s: %v", text, err)
			}
			if got != tc.want {
				t.Errorf("text %s\ngot  %s\nwant %s", text, got, tc.want)
			}
		})
	}
}

// Plain JSON values serialize to the JSON itself; the rest to the tagged
// form the package doc describes.
func TestSerializedText(t *testing.T) {
	runCases(t, newIsolate(t), []evalCase{
		{"plain", `return internal.serialize({ a: [1, "x", null, true], "b c": {} })`, `"{\"a\":[1,\"x\",null,true],\"b c\":{}}"`},
		{"scalars", `return [1, "s", null, false].map(internal.serialize)`, `["1","\"s\"","null","false"]`},
		{"tags", `return internal.serialize([undefined, NaN, -0, 1n, new Date(0), /a/g, new Map([[1, 2]]), new Set([3])])`,
			`"[{\"$\":\"u\"},{\"$\":\"n\",\"v\":\"NaN\"},{\"$\":\"n\",\"v\":\"-0\"},{\"$\":\"b\",\"v\":\"1\"},{\"$\":\"D\",\"v\":0},{\"$\":\"R\",\"s\":\"a\",\"f\":\"g\"},{\"$\":\"M\",\"e\":[1,2]},{\"$\":\"S\",\"e\":[3]}]"`},
		{"references", `const o = {}; return internal.serialize([o, o])`, `"[{},{\"$\":\"r\",\"i\":1}]"`},
		{"binary", `return internal.serialize(new Uint8Array([1, 2, 3]).subarray(1))`, `"{\"$\":\"V\",\"t\":\"Uint8Array\",\"b\":{\"$\":\"A\",\"d\":\"AQID\"},\"o\":1,\"l\":2}"`},
		{"escaped keys", `return internal.serialize({ $x: undefined })`, `"{\"$$x\":{\"$\":\"u\"}}"`},
		{"refusals", errorName + `return [() => {}, Symbol(), Promise.resolve(), new URL("https://h/")].map(v => errorName(() => internal.serialize(v))[0])`,
			`["DataCloneError","DataCloneError","DataCloneError","DataCloneError"]`},
		{"getters that throw", `try { internal.serialize({ get x() { throw new RangeError("getter failed") } }); return "no error" } catch (e) { return [e.name, e.message] }`, `["RangeError","getter failed"]`},
		{"cycles are not plain", `const a = [1]; a.push(a); return internal.serialize(a)`, `"[1,{\"$\":\"r\",\"i\":0}]"`},
		{"corrupt input", errorName + `return ['{"$":"r","i":4}', '{"$":"zz"}', '{"$":"A","d":"*"}', '{"$":"h","t":"Nope","v":1}', '{'].map(s => errorName(() => internal.deserialize(s))[0])`,
			`["DataCloneError","DataCloneError","DataCloneError","DataCloneError","SyntaxError"]`},
	})
}

// A later package teaches both structuredClone and the serialization a
// type of its own through internal.cloneHooks.
func TestCloneHooks(t *testing.T) {
	point := jsrt.Extension{Name: "point", JS: `
		class Point { #x; #y; constructor(x, y) { this.#x = x; this.#y = y } get x() { return this.#x } get y() { return this.#y }
			static { internal.cloneHooks.push({ type: "Point", is: (v) => #x in v,
				serialize: (p, child) => [child(p.#x), child(p.#y)],
				deserialize: (d, child) => new Point(child(d[0]), child(d[1])) }) } }
		class Meta { constructor(tags) { this.tags = tags } }
		internal.cloneHooks.push({ type: "Meta", is: (v) => v instanceof Meta, clone: (v, child) => new Meta(child(v.tags)) });
		global.Point = Point; global.Meta = Meta;`}
	runCases(t, newIsolate(t, point), []evalCase{
		{"structuredClone", `const p = new Point(1, { z: 2 }); const c = structuredClone(p); return [c instanceof Point, c !== p, c.x, c.y, c.y !== p.y]`, `[true,true,1,{"z":2},true]`},
		{"clone only", `const tags = ["a"]; const c = structuredClone(new Meta(tags)); return [c instanceof Meta, c.tags, c.tags !== tags]`, `[true,["a"],true]`},
		{"serialize", `const s = internal.serialize({ p: new Point(undefined, 2n) }); const v = internal.deserialize(s); return [s, v.p instanceof Point, v.p.x === undefined, String(v.p.y)]`,
			`["{\"p\":{\"$\":\"h\",\"t\":\"Point\",\"v\":[{\"$\":\"u\"},{\"$\":\"b\",\"v\":\"2\"}]}}",true,true,"2"]`},
		{"a hook without serialize", errorName + `return errorName(() => internal.serialize(new Meta([])))[0]`, `"DataCloneError"`},
		{"references around a hook", `const shared = { s: 1 }; const v = internal.deserialize(internal.serialize([shared, new Point(shared, 0), shared]));
			return [v[0] === v[1].x, v[2] === v[0]]`, `[true,true]`},
	})
}
