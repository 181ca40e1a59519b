package lang

import "testing"

func TestIteratorHelpers(t *testing.T) {
	evalCases(t, []struct{ name, body, want string }{
		{"array iterator", `return [1, 2, 3, 4].values().filter(n => n % 2 === 0).map(n => n * 10).toArray()`, `[20,40]`},
		{"map and set iterators", `return [new Map([["a", 1]]).keys().map(k => k + "!").toArray(), new Set([1, 2, 3]).values().drop(1).toArray()]`, `[["a!"],[2,3]]`},
		{"generator take", `function* nat() { let i = 0; for (;;) yield i++; } return nat().drop(2).take(3).toArray()`, `[2,3,4]`},
		{"flatMap", `return [1, 2].values().flatMap(n => [n, n * 10]).toArray()`, `[1,10,2,20]`},
		{"flatMap rejects strings", `try { [1].values().flatMap(() => "ab").toArray() } catch (e) { return e.name }`, `"TypeError"`},
		{"reduce", `return [[1, 2, 3].values().reduce((a, b) => a + b), [1].values().reduce((a, b) => a + b, 10)]`, `[6,11]`},
		{"reduce empty", `try { [].values().reduce((a, b) => a) } catch (e) { return e.name }`, `"TypeError"`},
		{"some every find forEach", `const seen = []; [5, 6].values().forEach((v, i) => seen.push(v + ":" + i));
			return [[1, 2].values().some(v => v > 1), [1, 2].values().every(v => v > 1), [1, 2, 3].values().find(v => v > 1), seen]`,
			`[true,false,2,["5:0","6:1"]]`},
		{"closes the underlying iterator", `let closed = 0; function* g() { try { yield 1; yield 2; yield 3 } finally { closed++ } }
			const a = g().find(v => v === 2); const h = g().map(v => v); h.next(); h.return(); const t = g().take(1).toArray();
			return [a, closed]`, `[2,3]`},
		{"lazy", `const log = []; const it = [1, 2, 3].values().map(v => { log.push(v); return v; }); it.next(); return log`, `[1]`},
		{"counter argument", `return ["a", "b"].values().map((v, i) => v + i).toArray()`, `["a0","b1"]`},
		{"helper toStringTag and prototype", `const h = [].values().map(x => x);
			return [Object.prototype.toString.call(h), h instanceof Iterator, Object.getPrototypeOf(Object.getPrototypeOf(h)) === Iterator.prototype]`,
			`["[object Iterator Helper]",true,true]`},
		{"Iterator.from iterable", `return Iterator.from(new Set([1, 2])).map(x => x * 2).toArray()`, `[2,4]`},
		{"Iterator.from plain iterator", `let i = 0; const plain = { next: () => ({ value: i, done: i++ >= 2 }) };
			const w = Iterator.from(plain); return [w instanceof Iterator, w.toArray()]`, `[true,[0,1]]`},
		{"Iterator.from string", `return Iterator.from("a😀").toArray()`, `["a","😀"]`},
		{"Iterator.concat", `return Iterator.concat([1], new Set([2, 3]), "ab".split("")).toArray()`, `[1,2,3,"a","b"]`},
		{"subclass", `class Count extends Iterator { #i = 0; next() { return { value: this.#i, done: this.#i++ >= 3 } } }
			return [new Count().map(x => x + 1).toArray(), new Count() instanceof Iterator]`, `[[1,2,3],true]`},
		{"toStringTag", `return [Object.prototype.toString.call(Iterator.prototype), Iterator.prototype.constructor === Iterator]`, `["[object Iterator]",true]`},
		{"existing iterators keep their tags", `return Object.prototype.toString.call([].values())`, `"[object Array Iterator]"`},
	})
	errorCases(t, []struct{ name, body, want string }{
		{"abstract", `new Iterator()`, `TypeError`},
		{"mapper must be callable", `[1].values().map(1)`, `TypeError`},
		{"negative limit", `[1].values().take(-1)`, `RangeError`},
		{"NaN limit", `[1].values().drop(NaN)`, `RangeError`},
		{"non-object this", `Iterator.prototype.map.call(1, x => x)`, `TypeError`},
		{"from a number", `Iterator.from(5)`, `TypeError`},
		{"concat a string", `Iterator.concat("ab")`, `TypeError`},
	})
}
