package webcrypto

import (
	"fmt"
	"testing"
)

// seq is JavaScript for the bytes from, from+1, … (n of them).
func seq(from, n int) string {
	return fmt.Sprintf(`(() => { const b = new Uint8Array(%d); for (let i = 0; i < b.length; i++) b[i] = %d + i; return b; })()`, n, from)
}

// PBKDF2 vectors from RFC 6070 (HMAC-SHA-1) and RFC 7914 section 11
// (HMAC-SHA-256).
func TestPBKDF2KnownAnswers(t *testing.T) {
	vectors := []struct {
		hash, password, salt string
		iterations, bits     int
		want                 string
	}{
		{"SHA-1", `utf8("password")`, `utf8("salt")`, 1, 160, "0c60c80f961f0e71f3a9b524af6012062fe037a6"},
		{"SHA-1", `utf8("password")`, `utf8("salt")`, 2, 160, "ea6c014dc72d6f8ccd1ed92ace1d41f0d8de8957"},
		{"SHA-1", `utf8("password")`, `utf8("salt")`, 4096, 160, "4b007901b765489abead49d926f721d065a429c1"},
		{"SHA-1", `utf8("passwordPASSWORDpassword")`, `utf8("saltSALTsaltSALTsaltSALTsaltSALTsalt")`, 4096, 200, "3d2eec4fe41c849b80c8d83662c0e44a8b291a964cf2f07038"},
		{"SHA-1", `utf8("pass\0word")`, `utf8("sa\0lt")`, 4096, 128, "56fa6aa75548099dcc37d7f03425e0c3"},
		{"SHA-256", `utf8("passwd")`, `utf8("salt")`, 1, 512, "55ac046e56e3089fec1691c22544b605f94185216dde0465e68b9d57c20dacbc49ca9cccf179b645991664b39d77ef317c71b845b1e30bd509112041d3a19783"},
	}
	var cases []evalCase
	for i, v := range vectors {
		cases = append(cases, evalCase{
			name: fmt.Sprintf("%d %s", i+1, v.hash),
			body: fmt.Sprintf(`const k = await crypto.subtle.importKey("raw", %s, "PBKDF2", false, ["deriveBits"]);
				return toHex(await crypto.subtle.deriveBits({ name: "PBKDF2", hash: "%s", salt: %s, iterations: %d }, k, %d));`,
				v.password, v.hash, v.salt, v.iterations, v.bits),
			want: `"` + v.want + `"`,
		})
	}
	runCases(t, newIsolate(t), cases)
}

// HKDF vectors from RFC 5869: test cases 1, 2 and 3 (SHA-256) and 4
// (SHA-1).
func TestHKDFKnownAnswers(t *testing.T) {
	vectors := []struct {
		name, hash, ikm, salt, info string
		bits                        int
		want                        string
	}{
		{"1", "SHA-256", `new Uint8Array(22).fill(0x0b)`, seq(0, 13), seq(0xf0, 10), 336,
			"3cb25f25faacd57a90434f64d0362f2a2d2d0a90cf1a5a4c5db02d56ecc4c5bf34007208d5b887185865"},
		{"2", "SHA-256", seq(0, 80), seq(0x60, 80), seq(0xb0, 80), 656,
			"b11e398dc80327a1c8e7f78c596a49344f012eda2d4efad8a050cc4c19afa97c59045a99cac7827271cb41c65e590e09da3275600c2f09b8367793a9aca3db71cc30c58179ec3e87c14c01d5c1f3434f1d87"},
		{"3", "SHA-256", `new Uint8Array(22).fill(0x0b)`, `new Uint8Array(0)`, `new Uint8Array(0)`, 336,
			"8da4e775a563c18f715f802a063c5a31b8a11f5c5ee1879ec3454e5f3c738d2d9d201395faa4b61a96c8"},
		{"4", "SHA-1", `new Uint8Array(11).fill(0x0b)`, seq(0, 13), seq(0xf0, 10), 336,
			"085a01ea1b10f36933068b56efa5ad81a4f14b822f5b091568a9cdd4f155fda2c22e422478d305f3f896"},
	}
	var cases []evalCase
	for _, v := range vectors {
		cases = append(cases, evalCase{
			name: "test case " + v.name,
			body: fmt.Sprintf(`const k = await crypto.subtle.importKey("raw", %s, "HKDF", false, ["deriveBits"]);
				return toHex(await crypto.subtle.deriveBits({ name: "HKDF", hash: "%s", salt: %s, info: %s }, k, %d));`,
				v.ikm, v.hash, v.salt, v.info, v.bits),
			want: `"` + v.want + `"`,
		})
	}
	runCases(t, newIsolate(t), cases)
}

func TestKDFs(t *testing.T) {
	const pbkdf2 = `const k = await crypto.subtle.importKey("raw", utf8("password"), "PBKDF2", false, ["deriveBits", "deriveKey"]);
		const alg = (iterations) => ({ name: "PBKDF2", hash: "SHA-256", salt: utf8("salt"), iterations });`
	runCases(t, newIsolate(t), []evalCase{
		{"Node.js's bits",
			`const r = [];
			for (const f of F.kdf) {
				const k = await crypto.subtle.importKey("raw", hex(f.key), f.name, false, ["deriveBits"]);
				const alg = f.name === "PBKDF2" ? { name: f.name, hash: f.hash, salt: hex(f.salt), iterations: f.iterations }
					: { name: f.name, hash: f.hash, salt: hex(f.salt), info: hex(f.info) };
				r.push(toHex(await crypto.subtle.deriveBits(alg, k, f.bits.length * 4)) === f.bits);
			}
			return r;`,
			`[true,true,true,true,true,true]`},
		{"deriveKey gives the key of deriveBits",
			pbkdf2 + `const bits = toHex(await crypto.subtle.deriveBits(alg(1000), k, 256));
			const aes = await crypto.subtle.deriveKey(alg(1000), k, { name: "AES-GCM", length: 256 }, true, ["encrypt"]);
			const hmac = await crypto.subtle.deriveKey(alg(1000), k, { name: "HMAC", hash: "SHA-1" }, true, ["sign"]);
			return [toHex(await crypto.subtle.exportKey("raw", aes)) === bits, aes.algorithm, hmac.algorithm.length];`,
			`[true,{"length":256,"name":"AES-GCM"},512]`},
		{"the key algorithm",
			pbkdf2 + `return [k.type, k.extractable, k.algorithm, k.usages];`,
			`["secret",false,{"name":"PBKDF2"},["deriveKey","deriveBits"]]`},
		{"zero bits", pbkdf2 + `return (await crypto.subtle.deriveBits(alg(1), k, 0)).byteLength;`, `0`},
		{"100000 iterations", pbkdf2 + `return (await crypto.subtle.deriveBits(alg(100000), k, 128)).byteLength;`, `16`},
		{"more than 100000 iterations", pbkdf2 + `return errorOf(crypto.subtle.deriveBits(alg(100001), k, 128));`, `"NotSupportedError"`},
		{"zero iterations", pbkdf2 + `return errorOf(crypto.subtle.deriveBits(alg(0), k, 128));`, `"OperationError"`},
		{"a null length", pbkdf2 + `return errorOf(crypto.subtle.deriveBits(alg(1), k, null));`, `"OperationError"`},
		{"no length", pbkdf2 + `return errorOf(crypto.subtle.deriveBits(alg(1), k));`, `"OperationError"`},
		{"a length not a multiple of 8", pbkdf2 + `return errorOf(crypto.subtle.deriveBits(alg(1), k, 12));`, `"OperationError"`},
		{"a negative length", pbkdf2 + `return errorOf(crypto.subtle.deriveBits(alg(1), k, -8));`, `"TypeError"`},
		{"no salt", pbkdf2 + `return errorOf(crypto.subtle.deriveBits({ name: "PBKDF2", hash: "SHA-256", iterations: 1 }, k, 128));`, `"TypeError"`},
		{"deriveKey of a PBKDF2 key", pbkdf2 + `return errorOf(crypto.subtle.deriveKey(alg(1), k, "PBKDF2", false, ["deriveBits"]));`, `"OperationError"`},
		{"deriveKey of a 100-bit AES key", pbkdf2 + `return errorOf(crypto.subtle.deriveKey(alg(1), k, { name: "AES-GCM", length: 100 }, false, ["encrypt"]));`, `"OperationError"`},
		{"deriveKey of a 0-bit HMAC key", pbkdf2 + `return errorOf(crypto.subtle.deriveKey(alg(1), k, { name: "HMAC", hash: "SHA-1", length: 0 }, false, ["sign"]));`, `"TypeError"`},
		{"deriveKey with no usages", pbkdf2 + `return errorOf(crypto.subtle.deriveKey(alg(1), k, { name: "AES-GCM", length: 128 }, false, []));`, `"SyntaxError"`},
		{"deriveKey without the usage",
			`const k = await crypto.subtle.importKey("raw", utf8("password"), "PBKDF2", false, ["deriveBits"]);
			return errorOf(crypto.subtle.deriveKey({ name: "PBKDF2", hash: "SHA-256", salt: utf8("salt"), iterations: 1 }, k, { name: "AES-GCM", length: 128 }, false, ["encrypt"]));`,
			`"InvalidAccessError"`},
		{"an extractable import", `return errorOf(crypto.subtle.importKey("raw", utf8("password"), "PBKDF2", true, ["deriveBits"]));`, `"SyntaxError"`},
		{"a jwk import", `return errorOf(crypto.subtle.importKey("jwk", { kty: "oct", k: "AQID" }, "HKDF", false, ["deriveBits"]));`, `"NotSupportedError"`},
		{"export", pbkdf2 + `return errorOf(crypto.subtle.exportKey("raw", k));`, `"NotSupportedError"`},
		{"generate", `return errorOf(crypto.subtle.generateKey({ name: "HKDF" }, false, ["deriveBits"]));`, `"NotSupportedError"`},
		{"HKDF: too many bits",
			`const k = await crypto.subtle.importKey("raw", new Uint8Array(8), "HKDF", false, ["deriveBits"]);
			return errorOf(crypto.subtle.deriveBits({ name: "HKDF", hash: "SHA-1", salt: new Uint8Array(0), info: new Uint8Array(0) }, k, 255 * 160 + 8));`,
			`"OperationError"`},
		{"HKDF: no info",
			`const k = await crypto.subtle.importKey("raw", new Uint8Array(8), "HKDF", false, ["deriveBits"]);
			return errorOf(crypto.subtle.deriveBits({ name: "HKDF", hash: "SHA-1", salt: new Uint8Array(0) }, k, 128));`,
			`"TypeError"`},
	})
}
