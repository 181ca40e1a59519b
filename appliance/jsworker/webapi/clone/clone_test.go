package clone_test

import (
	"testing"

	"github.com/dwk/fleet/appliance/jsworker/jsrt"
	"github.com/dwk/fleet/appliance/jsworker/jsrt/jsrttest"
	"github.com/dwk/fleet/appliance/jsworker/webapi/clone"
	"github.com/dwk/fleet/appliance/jsworker/webapi/encoding"
	"github.com/dwk/fleet/appliance/jsworker/webapi/events"
	"github.com/dwk/fleet/appliance/jsworker/webapi/url"
)

// exposeInternal makes the preludes' internal object a global for tests.
var exposeInternal = jsrt.Extension{Name: "expose", JS: "global.internal = internal;"}

type evalCase struct {
	name, body, want string
}

func newIsolate(t *testing.T, exts ...jsrt.Extension) *jsrt.Isolate {
	return jsrttest.New(t, append([]jsrt.Extension{events.Extension, encoding.Extension, url.Extension, clone.Extension, exposeInternal}, exts...)...)
}

func runCases(t *testing.T, iso *jsrt.Isolate, cases []evalCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := jsrttest.Eval(iso, tc.body)
			if err != nil {
				t.Fatalf("eval: %v\nbody:\n%s", err, tc.body)
			}
			if got != tc.want {
				t.Errorf("got  %s\nwant %s", got, tc.want)
			}
		})
	}
}

// errorName returns the name of what body throws, for the error cases.
const errorName = `const errorName = (f) => { try { f(); return "no error" } catch (e) { return [e.name, e instanceof DOMException, e.code] } };`

func TestStructuredClone(t *testing.T) {
	runCases(t, newIsolate(t), []evalCase{
		{"primitives", `return [structuredClone(1), structuredClone("s"), structuredClone(true), structuredClone(null), structuredClone(undefined) === undefined,
			Object.is(structuredClone(-0), -0), Number.isNaN(structuredClone(NaN)), structuredClone(10n) === 10n]`,
			`[1,"s",true,null,true,true,true,true]`},
		{"plain objects are copied", `const o = { a: 1, b: { c: [1, 2] } }; const c = structuredClone(o); c.b.c.push(3); return [o, c, c !== o, c.b !== o.b]`,
			`[{"a":1,"b":{"c":[1,2]}},{"a":1,"b":{"c":[1,2,3]}},true,true]`},
		{"wrappers", `const c = structuredClone([new Number(3), new String("s"), new Boolean(false), Object(5n)]);
			return c.map(x => [typeof x, Object.prototype.toString.call(x), x.valueOf() + ""])`,
			`[["object","[object Number]","3"],["object","[object String]","s"],["object","[object Boolean]","false"],["object","[object BigInt]","5"]]`},
		{"Date", `const d = new Date(1700000000000); const c = structuredClone(d); return [c !== d, c instanceof Date, c.getTime(), isNaN(structuredClone(new Date(NaN)))]`, `[true,true,1700000000000,true]`},
		{"RegExp", `const r = /a+b/gi; r.lastIndex = 3; const c = structuredClone(r); return [c !== r, c.source, c.flags, c.lastIndex, c.test("AAB")]`, `[true,"a+b","gi",0,true]`},
		{"Map and Set", `const k = { key: 1 }; const m = new Map([[k, "v"], ["s", new Set([1, k])]]); const c = structuredClone(m);
			const ck = [...c.keys()][0]; return [c instanceof Map, c.size, ck !== k, ck.key, c.get(ck), [...c.get("s")][1] === ck]`,
			`[true,2,true,1,"v",true]`},
		{"cycles and shared references", `const a = { name: "a" }; a.self = a; const shared = [1]; const o = { a, x: shared, y: shared };
			const c = structuredClone(o); return [c.a.self === c.a, c.x === c.y, c.x !== shared]`, `[true,true,true]`},
		{"sparse arrays and array properties", `const arr = [1, , 3]; arr.length = 5; arr.extra = "x"; const c = structuredClone(arr);
			return [c.length, 1 in c, 2 in c, c.extra, Object.keys(c)]`, `[5,false,true,"x",["0","2","extra"]]`},
		{"class instances keep own enumerable data", `class P { #secret = 1; constructor() { this.x = 1; Object.defineProperty(this, "hidden", { value: 2 }) } get y() { return 2 } m() {} }
			const c = structuredClone(new P()); return [Object.getPrototypeOf(c) === Object.prototype, c, c.m]`, `[true,{"x":1},null]`},
		{"getters run", `let n = 0; const o = { get v() { n++; return n } }; const c = structuredClone(o); return [c.v, Object.getOwnPropertyDescriptor(c, "v").get === undefined]`, `[1,true]`},
		{"__proto__ stays data", `const o = JSON.parse('{"__proto__": {"p": 1}}'); const c = structuredClone(o); return [Object.getPrototypeOf(c) === Object.prototype, c.p, Object.keys(c)]`,
			`[true,null,["__proto__"]]`},
		{"null prototype", `const o = Object.create(null); o.a = 1; const c = structuredClone(o); return [Object.getPrototypeOf(c) === Object.prototype, c.a]`, `[true,1]`},
		{"errors", `const e = new RangeError("too far", { cause: { why: 1 } }); e.extra = 1; const c = structuredClone(e);
			return [c instanceof RangeError, c.name, c.message, c.stack === e.stack, c.cause, c.cause !== e.cause, c.extra, Object.keys(c)]`,
			`[true,"RangeError","too far",true,{"why":1},true,null,[]]`},
		{"error names outside the list", `class MyError extends Error { constructor(m) { super(m); this.name = "MyError" } }
			const c = structuredClone(new MyError("m")); const a = structuredClone(new AggregateError([], "agg"));
			return [c.constructor.name, c.name, c.message, a.name]`, `["Error","Error","m","Error"]`},
		{"error without a message", `const c = structuredClone(new TypeError()); return [c.name, Object.prototype.hasOwnProperty.call(c, "message")]`, `["TypeError",false]`},
		{"error cycle through its cause", `const e = new Error("loop"); e.cause = e; const c = structuredClone(e); return c.cause === c`, `true`},
		{"DOMException", `const e = new DOMException("stopped", "AbortError"); const c = structuredClone(e);
			return [c !== e, c instanceof DOMException, c.name, c.message, c.code, c.stack === e.stack]`, `[true,true,"AbortError","stopped",20,true]`},
		{"an abort reason", `const c = new AbortController(); c.abort(); const r = structuredClone(c.signal.reason); return [r.name, r.message, r instanceof DOMException]`,
			`["AbortError","The operation was aborted",true]`},
		{"arguments needed", errorName + `return errorName(() => structuredClone())`, `["TypeError",false,null]`},
	})
}

func TestStructuredCloneBinary(t *testing.T) {
	runCases(t, newIsolate(t), []evalCase{
		{"ArrayBuffer is copied", `const b = new Uint8Array([1, 2, 3]).buffer; const c = structuredClone(b); new Uint8Array(c)[0] = 9;
			return [c !== b, c.byteLength, [...new Uint8Array(b)], [...new Uint8Array(c)]]`, `[true,3,[1,2,3],[9,2,3]]`},
		{"views share their copied buffer", `const buf = new ArrayBuffer(8); const a = new Uint8Array(buf, 2, 4); const d = new DataView(buf, 1, 3); const f = new Uint16Array(buf);
			const c = structuredClone({ a, d, f }); c.a[0] = 7;
			return [c.a.buffer === c.d.buffer, c.a.buffer === c.f.buffer, c.a.buffer !== buf, c.a.byteOffset, c.a.length, c.d.byteOffset, c.d.byteLength, c.f.length, c.d.getUint8(1), new Uint8Array(buf)[2]]`,
			`[true,true,true,2,4,1,3,4,7,0]`},
		{"every typed array", `const types = [Int8Array, Uint8Array, Uint8ClampedArray, Int16Array, Uint16Array, Int32Array, Uint32Array, Float32Array, Float64Array, BigInt64Array, BigUint64Array];
			return types.map(T => { const v = new T(2); const c = structuredClone(v); return c instanceof T && c.length === 2 })`,
			`[true,true,true,true,true,true,true,true,true,true,true]`},
		{"transfer", `const b = new Uint8Array([1, 2, 3]).buffer; const view = new Uint8Array(b, 1); const c = structuredClone({ b, view }, { transfer: [b] });
			return [b.byteLength, c.b.byteLength, [...new Uint8Array(c.b)], [...c.view], c.view.buffer === c.b]`, `[0,3,[1,2,3],[2,3],true]`},
		{"transfer of a buffer not in the value", `const b = new ArrayBuffer(4); const c = structuredClone(1, { transfer: [b] }); return [c, b.byteLength]`, `[1,0]`},
		{"transfer errors", errorName + `const b = new ArrayBuffer(2); structuredClone(null, { transfer: [b] });
			return [errorName(() => structuredClone(1, { transfer: [{}] })), errorName(() => structuredClone(1, { transfer: [new ArrayBuffer(1), new Uint8Array(1)] })),
				errorName(() => { const x = new ArrayBuffer(1); structuredClone(1, { transfer: [x, x] }) }), errorName(() => structuredClone(1, { transfer: [b] })),
				errorName(() => structuredClone(b)), errorName(() => structuredClone(1, { transfer: 5 }))]`,
			`[["DataCloneError",true,25],["DataCloneError",true,25],["DataCloneError",true,25],["DataCloneError",true,25],["DataCloneError",true,25],["TypeError",false,null]]`},
		{"a failed clone transfers nothing", errorName + `const b = new ArrayBuffer(4); const r = errorName(() => structuredClone({ b, f() {} }, { transfer: [b] })); return [r[0], b.byteLength]`,
			`["DataCloneError",4]`},
	})
}

func TestStructuredCloneRefuses(t *testing.T) {
	runCases(t, newIsolate(t), []evalCase{
		{"what cannot be cloned", errorName + `
			const values = [() => {}, function named() {}, Symbol("s"), { f() {} }, new WeakMap(), new WeakSet(), Promise.resolve(), Object(Symbol("w")),
				[1, 2].values(), new Map().entries(), (function* () {})(), class {}];
			return values.map(v => errorName(() => structuredClone(v))[0])`,
			`["DataCloneError","DataCloneError","DataCloneError","DataCloneError","DataCloneError","DataCloneError","DataCloneError","DataCloneError","DataCloneError","DataCloneError","DataCloneError","DataCloneError"]`},
		{"platform objects", errorName + `
			const values = [new EventTarget(), new Event("x"), new AbortController(), AbortSignal.abort(), new TextEncoder(), new TextDecoder(), new URL("https://h/"), new URLSearchParams("a=1"), new URLPattern({}),
				new (class Bus extends EventTarget {})()];
			return values.map(v => errorName(() => structuredClone(v))[0])`,
			`["DataCloneError","DataCloneError","DataCloneError","DataCloneError","DataCloneError","DataCloneError","DataCloneError","DataCloneError","DataCloneError","DataCloneError"]`},
		{"the message names the value", `try { structuredClone({ f: function handler() {} }) } catch (e) { return e.message }`, `"function handler could not be cloned."`},
	})
}
