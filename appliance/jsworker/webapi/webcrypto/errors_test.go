package webcrypto

import "testing"

// TestErrors covers the argument checks every method shares: algorithm
// normalization, key and usage checks, formats, and usages at import and
// generation.
func TestErrors(t *testing.T) {
	const aes = `const aes = await crypto.subtle.generateKey({ name: "AES-GCM", length: 128 }, false, ["encrypt"]);
		const gcm = { name: "AES-GCM", iv: new Uint8Array(12) };`
	runCases(t, newIsolate(t), []evalCase{
		{"DOMExceptions are DOMExceptions",
			`try { await crypto.subtle.digest("nope", new Uint8Array(0)); } catch (e) { return [e instanceof DOMException, e.name, typeof e.message]; }`,
			`[true,"NotSupportedError","string"]`},
		{"an unknown algorithm", aes + `return errorOf(crypto.subtle.encrypt({ name: "AES-XTS" }, aes, utf8("x")));`, `"NotSupportedError"`},
		{"a name that is not a string is converted", `return errorOf(crypto.subtle.digest({ name: 256 }, utf8("x")));`, `"NotSupportedError"`},
		{"a number algorithm is converted", `return errorOf(crypto.subtle.digest(1, utf8("x")));`, `"NotSupportedError"`},
		{"an algorithm for another operation", aes + `return errorOf(crypto.subtle.encrypt("HMAC", aes, utf8("x")));`, `"NotSupportedError"`},
		{"a key for another algorithm", aes + `return errorOf(crypto.subtle.encrypt({ name: "AES-CBC", iv: new Uint8Array(16) }, aes, utf8("x")));`, `"InvalidAccessError"`},
		{"a key without the usage", aes + `return errorOf(crypto.subtle.decrypt(gcm, aes, new Uint8Array(32)));`, `"InvalidAccessError"`},
		{"a key that is not a CryptoKey", `return errorOf(crypto.subtle.encrypt({ name: "AES-GCM", iv: new Uint8Array(12) }, {}, utf8("x")));`, `"TypeError"`},
		{"data that is not a buffer", aes + `return errorOf(crypto.subtle.encrypt(gcm, aes, "x"));`, `"TypeError"`},
		{"a member that is not a buffer", aes + `return errorOf(crypto.subtle.encrypt({ name: "AES-GCM", iv: [1, 2] }, aes, utf8("x")));`, `"TypeError"`},
		{"a member out of range", `return errorOf(crypto.subtle.generateKey({ name: "AES-GCM", length: 70000 }, true, ["encrypt"]));`, `"TypeError"`},
		{"a member that is not a number", `return errorOf(crypto.subtle.generateKey({ name: "AES-GCM", length: "long" }, true, ["encrypt"]));`, `"TypeError"`},
		{"an unknown format", `return errorOf(crypto.subtle.importKey("pem", new Uint8Array(16), "AES-GCM", true, ["encrypt"]));`, `"NotSupportedError"`},
		{"a format the algorithm has not", `return errorOf(crypto.subtle.importKey("spki", new Uint8Array(16), "AES-GCM", true, ["encrypt"]));`, `"NotSupportedError"`},
		{"jwk data that is not an object", `return errorOf(crypto.subtle.importKey("jwk", new Uint8Array(16), "AES-GCM", true, ["encrypt"]));`, `"TypeError"`},
		{"raw data that is not a buffer", `return errorOf(crypto.subtle.importKey("raw", { kty: "oct" }, "AES-GCM", true, ["encrypt"]));`, `"TypeError"`},
		{"bad key data", `return errorOf(crypto.subtle.importKey("spki", utf8("not DER"), { name: "ECDSA", namedCurve: "P-256" }, true, ["verify"]));`, `"DataError"`},
		{"a usage that is not a usage", `return errorOf(crypto.subtle.importKey("raw", new Uint8Array(16), "AES-GCM", true, ["encrypt", "fly"]));`, `"TypeError"`},
		{"usages that are not a sequence", `return errorOf(crypto.subtle.importKey("raw", new Uint8Array(16), "AES-GCM", true, "encrypt"));`, `"TypeError"`},
		{"a usage the algorithm has not", `return errorOf(crypto.subtle.importKey("raw", new Uint8Array(16), "AES-GCM", true, ["sign"]));`, `"SyntaxError"`},
		{"no usages for a secret key", `return errorOf(crypto.subtle.importKey("raw", new Uint8Array(16), "AES-GCM", true, []));`, `"SyntaxError"`},
		{"no usages for a generated key", `return errorOf(crypto.subtle.generateKey({ name: "HMAC", hash: "SHA-256" }, true, []));`, `"SyntaxError"`},
		{"only public usages for a key pair", `return errorOf(crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, true, ["verify"]));`, `"SyntaxError"`},
		{"a usage a key pair has not", `return errorOf(crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, true, ["sign", "encrypt"]));`, `"SyntaxError"`},
		{"a private key's usage on a public key",
			`return errorOf(crypto.subtle.importKey("jwk", F.ecdsa[0].keys.public_jwk, { name: "ECDSA", namedCurve: "P-256" }, true, ["sign"]));`,
			`"SyntaxError"`},
		{"no usages for a private key",
			`return errorOf(crypto.subtle.importKey("pkcs8", hex(F.ecdsa[0].keys.private_pkcs8), { name: "ECDSA", namedCurve: "P-256" }, true, []));`,
			`"SyntaxError"`},
		{"no usages for a public key are fine",
			`const k = await crypto.subtle.importKey("spki", hex(F.ecdsa[0].keys.public_spki), { name: "ECDSA", namedCurve: "P-256" }, true, []);
			return k.usages;`,
			`[]`},
		{"export of a key that is not extractable", aes + `return errorOf(crypto.subtle.exportKey("raw", aes));`, `"InvalidAccessError"`},
		{"export in a format the key has not",
			`const k = await crypto.subtle.generateKey({ name: "AES-GCM", length: 128 }, true, ["encrypt"]);
			return errorOf(crypto.subtle.exportKey("spki", k));`,
			`"NotSupportedError"`},
		{"a failed decryption",
			`const k = await crypto.subtle.generateKey({ name: "AES-GCM", length: 128 }, false, ["decrypt"]);
			return errorOf(crypto.subtle.decrypt({ name: "AES-GCM", iv: new Uint8Array(12) }, k, new Uint8Array(32)));`,
			`"OperationError"`},
		{"every method rejects rather than throws",
			`const s = crypto.subtle, r = [];
			for (const m of ["encrypt", "decrypt", "sign", "verify", "digest", "generateKey", "deriveKey", "deriveBits", "importKey", "exportKey", "wrapKey", "unwrapKey"]) {
				try { r.push(await errorOf(s[m]())); } catch (e) { r.push(m + " threw"); }
			}
			return r.every((x) => x === "TypeError" || x === "NotSupportedError") || r;`,
			`true`},
		{"a name in any case", `const k = await crypto.subtle.generateKey({ name: "aes-gcm", length: 128 }, false, ["encrypt"]); return k.algorithm.name;`, `"AES-GCM"`},
		{"a name with a non-ASCII letter is not a match", `return errorOf(crypto.subtle.digest("\u017fha-256", utf8("x")));`, `"NotSupportedError"`},
	})
}
