package lang

import "testing"

func TestBuiltins(t *testing.T) {
	evalCases(t, []struct{ name, body, want string }{
		{"TypedArray.from a string", `return [[...Uint8Array.from("ab", c => c.charCodeAt(0))], [...Uint8Array.from("12")], Uint8Array.from.name, [...Int16Array.from([1, 2], v => v * 2)]]`, `[[97,98],[1,2],"from",[2,4]]`},
		{"asyncIterator", `return [typeof Symbol.asyncIterator, Symbol.asyncIterator === Symbol.for("Symbol.asyncIterator")]`, `["symbol",true]`},
		{"WeakRef", `const o = {a: 1}; const r = new WeakRef(o); return [r.deref() === o, Object.prototype.toString.call(r)]`, `[true,"[object WeakRef]"]`},
		{"WeakRef symbol", `return new WeakRef(Symbol("x")).deref().toString()`, `"Symbol(x)"`},
		{"FinalizationRegistry", `const calls = []; const fr = new FinalizationRegistry(v => calls.push(v)); const token = {};
			fr.register({}, "held", token); fr.register({}, "other");
			return [fr.unregister(token), fr.unregister(token), fr.unregister({}), calls.length]`, `[true,false,false,0]`},
		{"withResolvers", `const { promise, resolve } = Promise.withResolvers(); setTimeout(() => resolve(7), 1); return await promise`, `7`},
		{"withResolvers reject", `const { promise, reject } = Promise.withResolvers(); reject(new Error("no")); try { await promise } catch (e) { return e.message }`, `"no"`},
		{"Promise.try value", `return [await Promise.try(() => 1), await Promise.try((a, b) => a + b, 2, 3), Promise.try.name, Promise.try.length]`, `[1,5,"try",1]`},
		{"Promise.try throws", `try { await Promise.try(() => { throw new Error("sync") }) } catch (e) { return e.message }`, `"sync"`},
		{"Object.groupBy", `const g = Object.groupBy([1, 2, 3, 4, 5], n => n % 2 ? "odd" : "even"); return [g, Object.getPrototypeOf(g), Object.groupBy.name]`,
			`[{"even":[2,4],"odd":[1,3,5]},null,"groupBy"]`},
		{"Map.groupBy", `const m = Map.groupBy(["apple", "avocado", "banana"], s => s[0]); return [...m].map(([k, v]) => k + "=" + v.join("|"))`,
			`["a=apple|avocado","b=banana"]`},
		{"Set union intersection difference", `const a = new Set([1, 2, 3]), b = new Set([3, 4]);
			return [[...a.union(b)], [...a.intersection(b)], [...a.difference(b)], [...a.symmetricDifference(b)]]`, `[[1,2,3,4],[3],[1,2],[1,2,4]]`},
		{"Set predicates", `const a = new Set([1, 2]); return [a.isSubsetOf(new Set([1, 2, 3])), a.isSupersetOf(new Set([1])), a.isDisjointFrom(new Set([3])), a.isDisjointFrom(new Set([2]))]`,
			`[true,true,true,false]`},
		{"Set methods with a Map", `const s = new Set(["a", "x"]); const m = new Map([["a", 1], ["b", 2]]); return [[...s.union(m)], [...s.intersection(m)]]`,
			`[["a","x","b"],["a"]]`},
		{"Set methods with a set-like", `const like = { size: 2, has: v => v < 3, keys: () => [1, 2][Symbol.iterator]() };
			return [[...new Set([1, 5]).intersection(like)], new Set([1]).isSubsetOf(like), [...new Set([9]).union(like)]]`, `[[1],true,[9,1,2]]`},
		{"Array.fromAsync async iterable", `const it = { [Symbol.asyncIterator]() { let i = 0; return { next: async () => ({ value: i, done: i++ >= 3 }) }; } };
			return await Array.fromAsync(it)`, `[0,1,2]`},
		{"Array.fromAsync promises and map", `return await Array.fromAsync([Promise.resolve(1), 2], async (v, k) => v * 10 + k)`, `[10,21]`},
		{"Array.fromAsync array-like", `return await Array.fromAsync({ length: 2, 0: "a", 1: Promise.resolve("b") })`, `["a","b"]`},
		{"Array.fromAsync rejects", `try { await Array.fromAsync(null) } catch (e) { return e.name }`, `"TypeError"`},
		{"isWellFormed", `return ["ab".isWellFormed(), "a\uD800".isWellFormed(), "😀".isWellFormed(), "\uDC00x".isWellFormed()]`, `[true,false,true,false]`},
		{"toWellFormed", `return ["a\uD800b".toWellFormed() === "a\uFFFDb", "😀".toWellFormed() === "😀", "\uDC00\uD800".toWellFormed().length]`, `[true,true,2]`},
		{"transfer", `const a = new Uint8Array([1, 2, 3]).buffer; const b = a.transfer(); return [a.detached, a.byteLength, b.byteLength, [...new Uint8Array(b)]]`,
			`[true,0,3,[1,2,3]]`},
		{"transfer grow and shrink", `const a = new Uint8Array([1, 2, 3]).buffer; const b = a.transfer(5); const c = b.transferToFixedLength(2);
			return [[...new Uint8Array(c)], b.detached, c.detached, new ArrayBuffer(1).transfer(4).byteLength]`, `[[1,2],true,false,4]`},
		{"sumPrecise", `return [Math.sumPrecise([1e20, 0.1, -1e20]), Math.sumPrecise([0.1, 0.2]), Object.is(Math.sumPrecise([]), -0), String(Math.sumPrecise([1, Infinity])),
			Number.isNaN(Math.sumPrecise([Infinity, -Infinity])), String(Math.sumPrecise([1e308, 1e308])), Math.sumPrecise(new Set([3, 4]))]`, `[0.1,0.30000000000000004,true,"Infinity",true,"Infinity",7]`},
		{"sumPrecise needs numbers", `try { Math.sumPrecise(["1"]) } catch (e) { return e.name }`, `"TypeError"`},
		{"captureStackTrace", `function Make() { const o = {}; Error.captureStackTrace(o); return o.stack } function outer() { return Make() }
			return outer().split("\n").slice(0, 3).map(l => l.replace(/\(.*\)/, "(...)"))`, `["Error","    at Make (...)","    at outer (...)"]`},
		{"captureStackTrace hides the constructor", `class MyError extends Error { constructor(m) { super(m); this.name = "MyError"; Error.captureStackTrace(this, MyError) } }
			function thrower() { return new MyError("bad") } const s = thrower().stack.split("\n"); return [s[0], s[1].trim().split(" ")[1]]`, `["MyError: bad","thrower"]`},
		{"captureStackTrace limit", `const prev = Error.stackTraceLimit; Error.stackTraceLimit = 1; function a() { const o = {}; Error.captureStackTrace(o); return o.stack } function b() { return a() }
			const s = b(); Error.stackTraceLimit = prev; return [s.split("\n").length, typeof prev]`, `[2,"number"]`},
		{"prepareStackTrace call sites", `Error.prepareStackTrace = (err, sites) => sites; function here() { const o = {}; Error.captureStackTrace(o); return o.stack }
			const sites = here(); delete Error.prepareStackTrace;
			return [Array.isArray(sites), sites[0].getFunctionName(), typeof sites[0].getLineNumber(), typeof sites[0].getFileName()]`, `[true,"here","number","undefined"]`},
		{"captureStackTrace needs an object", `try { Error.captureStackTrace(1) } catch (e) { return e.name }`, `"TypeError"`},
	})
}
