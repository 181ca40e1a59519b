package webcrypto

import (
	"regexp"
	"strings"
	"testing"

	"github.com/dwk/fleet/appliance/jsworker/jsrt/jsrttest"
)

func TestGetRandomValues(t *testing.T) {
	iso := newIsolate(t)
	var cases []evalCase
	for _, typ := range []string{"Int8Array", "Uint8Array", "Uint8ClampedArray", "Int16Array", "Uint16Array", "Int32Array", "Uint32Array", "BigInt64Array", "BigUint64Array"} {
		cases = append(cases, evalCase{
			name: typ,
			// 64 random bytes are all zero with probability 2^-512.
			body: `const a = new ` + typ + `(64 / ` + typ + `.BYTES_PER_ELEMENT);
				const r = crypto.getRandomValues(a);
				return [r === a, new Uint8Array(a.buffer).some((x) => x !== 0)];`,
			want: `[true,true]`,
		})
	}
	cases = append(cases, []evalCase{
		{"subarray fills only its bytes",
			`const a = new Uint8Array(48); crypto.getRandomValues(a.subarray(16, 32));
			return [a.slice(0, 16).every((x) => x === 0), a.slice(16, 32).some((x) => x !== 0), a.slice(32).every((x) => x === 0)];`,
			`[true,true,true]`},
		{"two calls differ",
			`const a = crypto.getRandomValues(new Uint8Array(32)), b = crypto.getRandomValues(new Uint8Array(32));
			return toHex(a) !== toHex(b);`,
			`true`},
		{"65536 bytes is the most",
			`return crypto.getRandomValues(new Uint32Array(16384)).byteLength;`,
			`65536`},
		{"more is QuotaExceededError",
			`return errorOf((async () => crypto.getRandomValues(new Uint8Array(65537)))());`,
			`"QuotaExceededError"`},
		{"Float32Array is TypeMismatchError",
			`return errorOf((async () => crypto.getRandomValues(new Float32Array(4)))());`,
			`"TypeMismatchError"`},
		{"Float64Array is TypeMismatchError",
			`return errorOf((async () => crypto.getRandomValues(new Float64Array(4)))());`,
			`"TypeMismatchError"`},
		{"DataView is TypeMismatchError",
			`return errorOf((async () => crypto.getRandomValues(new DataView(new ArrayBuffer(4))))());`,
			`"TypeMismatchError"`},
		{"an ArrayBuffer is a TypeError",
			`return errorOf((async () => crypto.getRandomValues(new ArrayBuffer(4)))());`,
			`"TypeError"`},
		{"no argument is a TypeError",
			`return errorOf((async () => crypto.getRandomValues())());`,
			`"TypeError"`},
	}...)
	runCases(t, iso, cases)
}

func TestRandomUUID(t *testing.T) {
	iso := newIsolate(t)
	got := jsrttest.MustEval(t, iso, `return Array.from({ length: 100 }, () => crypto.randomUUID()).join(" ");`)
	uuids := strings.Fields(strings.Trim(got, `"`))
	v4 := regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`)
	seen := map[string]bool{}
	for _, u := range uuids {
		if !v4.MatchString(u) {
			t.Errorf("%q is not a version 4 UUID", u)
		}
		if seen[u] {
			t.Errorf("%q came twice", u)
		}
		seen[u] = true
	}
	if len(uuids) != 100 {
		t.Errorf("got %d UUIDs, want 100", len(uuids))
	}
}

func TestGlobals(t *testing.T) {
	runCases(t, newIsolate(t), []evalCase{
		{"classes and instances",
			`return [crypto instanceof Crypto, crypto.subtle instanceof SubtleCrypto, crypto.subtle === crypto.subtle,
				Object.prototype.toString.call(crypto), Object.prototype.toString.call(crypto.subtle),
				Object.keys(globalThis).includes("crypto")];`,
			`[true,true,true,"[object Crypto]","[object SubtleCrypto]",false]`},
		{"not constructible",
			`const r = [];
			for (const C of [Crypto, SubtleCrypto, CryptoKey]) { try { new C(); r.push("constructed"); } catch (e) { r.push(e instanceof TypeError); } }
			return r;`,
			`[true,true,true]`},
		{"key attributes",
			`const k = await crypto.subtle.generateKey({ name: "AES-GCM", length: 128 }, false, ["decrypt", "encrypt", "encrypt"]);
			return [k instanceof CryptoKey, Object.prototype.toString.call(k), k.type, k.extractable, k.algorithm, k.usages,
				k.algorithm === k.algorithm, Object.keys(Object.getPrototypeOf(k)).sort()];`,
			`[true,"[object CryptoKey]","secret",false,{"length":128,"name":"AES-GCM"},["encrypt","decrypt"],true,["algorithm","extractable","type","usages"]]`},
		{"the handle stays hidden",
			`const k = await crypto.subtle.generateKey({ name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
			return [JSON.stringify(k), Object.getOwnPropertyNames(k).length, Object.getOwnPropertySymbols(k).length];`,
			`["{}",0,0]`},
		{"a getter called on another object throws",
			`const get = Object.getOwnPropertyDescriptor(CryptoKey.prototype, "type").get;
			try { get.call({}); return "no error"; } catch (e) { return e instanceof TypeError; }`,
			`true`},
	})
}
