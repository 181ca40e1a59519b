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
				k.algorithm === k.algorithm, Object.keys(k), JSON.stringify(k)];`,
			`[true,"[object CryptoKey]","secret",false,{"length":128,"name":"AES-GCM"},["encrypt","decrypt"],true,["type","extractable","algorithm","usages"],` +
				`"{\"type\":\"secret\",\"extractable\":false,\"algorithm\":{\"name\":\"AES-GCM\",\"length\":128},\"usages\":[\"encrypt\",\"decrypt\"]}"]`},
		{"changing the attributes changes nothing",
			`const k = await crypto.subtle.generateKey({ name: "AES-GCM", length: 128 }, true, ["encrypt"]);
			k.usages.push("decrypt"); k.algorithm.name = "AES-CBC";
			try { k.type = "public"; } catch (e) { /* strict mode: read-only */ }
			const ct = await crypto.subtle.encrypt({ name: "AES-GCM", iv: new Uint8Array(12) }, k, utf8("x"));
			return [k.type, ct.byteLength, await errorOf(crypto.subtle.decrypt({ name: "AES-GCM", iv: new Uint8Array(12) }, k, ct))];`,
			`["secret",17,"InvalidAccessError"]`},
		{"the handle stays hidden",
			`const k = await crypto.subtle.generateKey({ name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
			return [Object.getOwnPropertyNames(k), Object.getOwnPropertySymbols(k).length, Object.getOwnPropertyNames(CryptoKey.prototype)];`,
			`[["type","extractable","algorithm","usages"],0,["constructor"]]`},
		{"a look-alike is not a CryptoKey",
			`const k = await crypto.subtle.generateKey({ name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
			const fake = Object.create(CryptoKey.prototype, Object.getOwnPropertyDescriptors(k));
			return errorOf(crypto.subtle.sign("HMAC", fake, utf8("x")));`,
			`"TypeError"`},
	})
}
