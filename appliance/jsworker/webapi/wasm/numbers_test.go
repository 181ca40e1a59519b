package wasm

import "testing"

func TestNumbersCrossTheBoundary(t *testing.T) {
	iso := newIsolate(t)
	const setup = `const {instance} = await WebAssembly.instantiate(fixture("numbers")); const e = instance.exports;`
	runCases(t, iso, []evalCase{
		{"i32", setup + `return [e.add(2, 3), e.add(0x7fffffff, 1), e.add(1.9, "2"), e.add()]`, "[5,-2147483648,3,0]"},
		{"i64 takes and gives BigInt", setup + `return String(e.add64(40n, 2n)) + " " + typeof e.add64(1n, 1n)`, `"42 bigint"`},
		{"i64 wraps", setup + `return String(e.add64(0x7fffffffffffffffn, 1n)) + " " + String(e.add64(2n ** 64n + 5n, 0n))`, `"-9223372036854775808 5"`},
		{"i64 refuses a number", setup + `try { e.add64(1, 2); return "no error" } catch (err) { return err.constructor.name }`, `"TypeError"`},
		{"f32 rounds", setup + `return e.mulf(0.1, 3)`, "0.30000001192092896"},
		{"f64", setup + `return [e.divd(1, 4), String(e.divd(1, 0))]`, `[0.25,"Infinity"]`},
		{"multi-value gives an array", setup + `const r = e.swap(7, 9n); return [Array.isArray(r), String(r[0]), r[1]]`, `[true,"9",7]`},
		{"function name and length", setup + `return [e.add.name, e.add.length, e.boom.length]`, `["0",2,0]`},
		{"exports object", setup + `return [Object.isFrozen(e), Object.getPrototypeOf(e), Object.keys(e).join()]`, `[true,null,"add,add64,mulf,divd,swap,divs,boom,deep,peek"]`},
	})
}

func TestTrapsAreRuntimeErrors(t *testing.T) {
	iso := newIsolate(t)
	const setup = `const {instance} = await WebAssembly.instantiate(fixture("numbers")); const e = instance.exports;
		function trap(f) { try { f(); return "no trap" } catch (err) { return [err instanceof WebAssembly.RuntimeError, err.name, err.message] } }`
	runCases(t, iso, []evalCase{
		{"unreachable", setup + `return trap(() => e.boom())`, `[true,"RuntimeError","unreachable"]`},
		{"divide by zero", setup + `return trap(() => e.divs(1, 0))`, `[true,"RuntimeError","divide by zero"]`},
		{"overflow", setup + `return trap(() => e.divs(-2147483648, -1))`, `[true,"RuntimeError","integer overflow"]`},
		{"out of bounds", setup + `return trap(() => e.peek(65535))`, `[true,"RuntimeError","memory access out of bounds"]`},
		{"stack overflow", setup + `return trap(() => e.deep(0))`, `[true,"RuntimeError","Maximum call stack size exceeded"]`},
		{"usable after a trap", setup + `trap(() => e.boom()); return e.add(1, 1)`, "2"},
	})
}
