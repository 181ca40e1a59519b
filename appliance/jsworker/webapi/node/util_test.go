package node_test

import "testing"

const importUtil = `const util = __dwk_import("node:util");`

func TestUtil(t *testing.T) {
	iso := newIsolate(t)
	runCases(t, iso, []evalCase{
		{"format", importUtil + `return [util.format("%s=%d %i %f %j %%", "a", 5.5, 5.5, "1.5", { x: 1 }), util.format("a", 1, { b: [2] }), util.format("%s", null), util.format("%o", [1]), util.format(1, "two")]`,
			`["a=5.5 5 1.5 {\"x\":1} %","a 1 { b: [ 2 ] }","null","[ 1 ]","1 two"]`},
		{"format with inspect.custom", importUtil + `const v = { [util.inspect.custom]() { return "CUSTOM"; } }; return [util.format("%s!", v), util.format("x", v)]`, `["CUSTOM!","x CUSTOM"]`},
		{"inspect", importUtil + `return [util.inspect("str"), util.inspect("it's"), util.inspect({ a: 1, b: "x" }), util.inspect([1, [2, [3, [4, [5]]]]]), util.inspect(new Map([[1, 2]])), util.inspect(null), util.inspect({ a: { b: { c: { d: 1 } } } }, { depth: 0 })]`,
			`["'str'","\"it's\"","{ a: 1, b: 'x' }","[ 1, [ 2, [ 3, [Array] ] ] ]","Map(1) { 1 =\u003e 2 }","null","{ a: [Object] }"]`},
		{"inspect.custom", importUtil + `class P { [util.inspect.custom](depth, options, inspect) { return "P<" + inspect(depth) + ">"; } } return [util.inspect(new P()), util.inspect.custom === Symbol.for("nodejs.util.inspect.custom")]`, `["P\u003c2\u003e",true]`},
		{"promisify", importUtil + `const f = (a, cb) => setTimeout(() => a < 0 ? cb(new Error("neg")) : cb(null, a * 2), 1); const p = util.promisify(f);
			let err; try { await p(-1); } catch (e) { err = e.message; } return [await p(2), err]`, `[4,"neg"]`},
		{"promisify keeps this", importUtil + `const o = { v: 3, get(cb) { cb(null, this.v); } }; return await util.promisify(o.get).call(o)`, `3`},
		{"promisify.custom", importUtil + `function f() {} f[util.promisify.custom] = () => Promise.resolve("custom"); return [await util.promisify(f)(), util.promisify.custom === Symbol.for("nodejs.util.promisify.custom")]`, `["custom",true]`},
		{"callbackify", importUtil + `const ok = util.callbackify(async x => x + 1); const bad = util.callbackify(async () => { throw new Error("no"); }); const falsy = util.callbackify(() => Promise.reject(null));
			return [await new Promise(r => ok(1, (e, v) => r([e, v]))), await new Promise(r => bad(e => r(e.message))), await new Promise(r => falsy(e => r([e.code, e.reason])))]`, `[[null,2],"no",["ERR_FALSY_VALUE_REJECTION",null]]`},
		{"inherits", importUtil + `function A() {} A.prototype.hi = () => "hi"; function B() { A.call(this); } util.inherits(B, A); return [new B().hi(), B.super_ === A, new B() instanceof A]`, `["hi",true,true]`},
		{"deprecate warns once", importUtil + `const warnings = []; process.on("warning", w => warnings.push([w.name, w.message, w.code])); const f = util.deprecate(x => x * 2, "f is old", "DEP0999");
			const r = [f(1), f(2)]; await new Promise(res => setTimeout(res, 1)); return [r, warnings]`, `[[2,4],[["DeprecationWarning","f is old","DEP0999"]]]`},
		{"isDeepStrictEqual", importUtil + `const d = util.isDeepStrictEqual; return [d({ a: [1, { b: 2 }] }, { a: [1, { b: 2 }] }), d([1], ["1"]), d(new Set([{ a: 1 }]), new Set([{ a: 1 }])), d(new Map([[{ k: 1 }, "v"]]), new Map([[{ k: 1 }, "v"]])),
			d(new Date(1), new Date(1)), d(/a/g, /a/i), d(NaN, NaN), d(0, -0), d(Buffer.from("a"), Buffer.from("a")), d(new Uint8Array([1]), Buffer.from([1])), d({ a: undefined }, {})]`,
			`[true,false,true,true,true,false,true,false,true,false,false]`},
		{"isDeepStrictEqual with cycles", importUtil + `const a = { x: 1 }; a.self = a; const b = { x: 1 }; b.self = b; return util.isDeepStrictEqual(a, b)`, `true`},
		{"debuglog is off", importUtil + `const log = util.debuglog("mine"); log("x"); return log.enabled`, `false`},
		{"debuglog with NODE_DEBUG", importUtil + `process.env.NODE_DEBUG = "other,mi*"; const log = util.debuglog("mine"); const on = log.enabled; delete process.env.NODE_DEBUG; return on`, `true`},
		{"stripVTControlCharacters", importUtil + `return util.stripVTControlCharacters("\u001b[31mred\u001b[39m")`, `"red"`},
		{"styleText is plain", importUtil + `return util.styleText(["bold", "red"], "x")`, `"x"`},
		{"toUSVString", importUtil + `return util.toUSVString("a\ud800b\ud83d\ude00")`, "\"a\ufffdb\U0001F600\""},
		{"aborted", importUtil + `const ac = new AbortController(); const p = util.aborted(ac.signal, {}); ac.abort(); await p; return "resolved"`, `"resolved"`},
		{"TextEncoder", importUtil + `return util.TextEncoder === TextEncoder && util.TextDecoder === TextDecoder`, `true`},
		{"legacy checks", importUtil + `return [util.isArray([]), util.isString(""), util.isBuffer(Buffer.alloc(0)), util.isPrimitive(1), util.isPrimitive({}), util.isError(new TypeError()), util.isFunction(() => {})]`, `[true,true,true,true,false,true,true]`},
		{"sys is util", `return __dwk_import("node:sys") === __dwk_import("node:util")`, `true`},
	})
	runErrorCases(t, iso, []errorCase{
		{"promisify of a non-function", importUtil + `util.promisify(1)`, "TypeError", `The "original" argument must be of type function`},
		{"inherits from nothing", importUtil + `util.inherits(function () {}, null)`, "TypeError", `The "superCtor" argument must be of type function`},
		{"styleText with an unknown style", importUtil + `util.styleText("sparkly", "x")`, "TypeError", "The argument 'format' must be one of"},
	})
}

func TestUtilTypes(t *testing.T) {
	iso := newIsolate(t)
	for _, tc := range []struct{ check, yes, no string }{
		{"isDate", "new Date()", "Object.create(Date.prototype)"},
		{"isRegExp", "/a/", `({ source: "a", flags: "" })`},
		{"isPromise", "Promise.resolve()", "{ then() {} }"},
		{"isMap", "new Map()", "new WeakMap()"},
		{"isSet", "new Set()", "new Map()"},
		{"isWeakMap", "new WeakMap()", "new Map()"},
		{"isWeakSet", "new WeakSet()", "new Set()"},
		{"isMapIterator", "new Map().keys()", "[].keys()"},
		{"isSetIterator", "new Set().values()", "new Map().values()"},
		{"isTypedArray", "new Float32Array(1)", "new DataView(new ArrayBuffer(1))"},
		{"isUint8Array", "Buffer.alloc(1)", "new Int8Array(1)"},
		{"isUint8ClampedArray", "new Uint8ClampedArray(1)", "new Uint8Array(1)"},
		{"isFloat64Array", "new Float64Array(1)", "new Float32Array(1)"},
		{"isBigInt64Array", "new BigInt64Array(1)", "new BigUint64Array(1)"},
		{"isArrayBuffer", "new ArrayBuffer(1)", "new Uint8Array(1)"},
		{"isAnyArrayBuffer", "new ArrayBuffer(1)", "{ byteLength: 1 }"},
		{"isArrayBufferView", "new DataView(new ArrayBuffer(1))", "new ArrayBuffer(1)"},
		{"isDataView", "new DataView(new ArrayBuffer(1))", "new Uint8Array(1)"},
		{"isAsyncFunction", "async function () {}", "function () {}"},
		{"isGeneratorFunction", "function* () {}", "function () {}"},
		{"isGeneratorObject", "(function* () {})()", "{ next() {} }"},
		{"isNativeError", "new RangeError()", `({ name: "Error", message: "" })`},
		{"isBoxedPrimitive", "new Number(1)", "1"},
		{"isNumberObject", "new Number(1)", "new String('1')"},
		{"isStringObject", "new String('a')", "'a'"},
		{"isBooleanObject", "new Boolean(false)", "false"},
		{"isSymbolObject", "Object(Symbol())", "Symbol()"},
		{"isBigIntObject", "Object(1n)", "1n"},
		{"isArgumentsObject", "(function () { return arguments; })()", "[]"},
		{"isProxy", "", "new Proxy({}, {})"},
		{"isKeyObject", `__dwk_import("node:crypto").createSecretKey(Buffer.from("k"))`, "{}"},
	} {
		t.Run(tc.check, func(t *testing.T) {
			yes := "true"
			if tc.yes != "" {
				yes = `types.` + tc.check + `(` + tc.yes + `)`
			}
			got := mustEval(t, iso, `const types = __dwk_import("node:util/types"); return [`+yes+`, types.`+tc.check+`(`+tc.no+`)]`)
			if got != "[true,false]" {
				t.Errorf("got %s, want [true,false]", got)
			}
		})
	}
	runCases(t, iso, []evalCase{
		{"util.types is node:util/types", `return __dwk_import("node:util").types === __dwk_import("node:util/types")`, `true`},
	})
}
