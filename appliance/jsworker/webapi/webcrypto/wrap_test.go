package webcrypto

import "testing"

func TestWrapKey(t *testing.T) {
	runCases(t, newIsolate(t), []evalCase{
		{"an HMAC key as a JWK in AES-GCM",
			`const kek = await crypto.subtle.generateKey({ name: "AES-GCM", length: 256 }, false, ["wrapKey", "unwrapKey"]);
			const key = await crypto.subtle.importKey("raw", hex(F.secret), { name: "HMAC", hash: "SHA-256" }, true, ["sign"]);
			const alg = { name: "AES-GCM", iv: new Uint8Array(12) };
			const wrapped = await crypto.subtle.wrapKey("jwk", key, kek, alg);
			const back = await crypto.subtle.unwrapKey("jwk", wrapped, kek, alg, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
			return [back.extractable, back.algorithm, toHex(await crypto.subtle.sign("HMAC", back, hex(F.message))) === F["hmac_SHA-256"]];`,
			`[false,{"hash":{"name":"SHA-256"},"length":256,"name":"HMAC"},true]`},
		{"an EC private key as pkcs8 in AES-CBC",
			`const kek = await crypto.subtle.generateKey({ name: "AES-CBC", length: 128 }, false, ["wrapKey", "unwrapKey"]);
			const key = await crypto.subtle.importKey("pkcs8", hex(F.ecdsa[0].keys.private_pkcs8), { name: "ECDSA", namedCurve: "P-256" }, true, ["sign"]);
			const alg = { name: "AES-CBC", iv: new Uint8Array(16) };
			const wrapped = await crypto.subtle.wrapKey("pkcs8", key, kek, alg);
			const back = await crypto.subtle.unwrapKey("pkcs8", wrapped, kek, alg, { name: "ECDSA", namedCurve: "P-256" }, true, ["sign"]);
			return [back.type, toHex(await crypto.subtle.exportKey("pkcs8", back)) === F.ecdsa[0].keys.private_pkcs8];`,
			`["private",true]`},
		{"an AES key in RSA-OAEP",
			`const oaep = F.rsa[4];
			const pub = await crypto.subtle.importKey("spki", hex(oaep.keys.public_spki), { name: "RSA-OAEP", hash: "SHA-256" }, false, ["wrapKey"]);
			const priv = await crypto.subtle.importKey("pkcs8", hex(oaep.keys.private_pkcs8), { name: "RSA-OAEP", hash: "SHA-256" }, false, ["unwrapKey"]);
			const key = await crypto.subtle.importKey("raw", hex(F.secret), "AES-CTR", true, ["encrypt"]);
			const wrapped = await crypto.subtle.wrapKey("raw", key, pub, "RSA-OAEP");
			const back = await crypto.subtle.unwrapKey("raw", wrapped, priv, "RSA-OAEP", "AES-CTR", true, ["encrypt", "decrypt"]);
			return [wrapped.byteLength, toHex(await crypto.subtle.exportKey("raw", back)) === F.secret, back.usages];`,
			`[256,true,["encrypt","decrypt"]]`},
		{"a key that is not extractable",
			`const kek = await crypto.subtle.generateKey({ name: "AES-KW", length: 128 }, false, ["wrapKey"]);
			const key = await crypto.subtle.generateKey({ name: "AES-GCM", length: 128 }, false, ["encrypt"]);
			return errorOf(crypto.subtle.wrapKey("raw", key, kek, "AES-KW"));`,
			`"InvalidAccessError"`},
		{"a wrapping key without wrapKey",
			`const kek = await crypto.subtle.generateKey({ name: "AES-GCM", length: 128 }, false, ["encrypt"]);
			const key = await crypto.subtle.generateKey({ name: "AES-GCM", length: 128 }, true, ["encrypt"]);
			return errorOf(crypto.subtle.wrapKey("raw", key, kek, { name: "AES-GCM", iv: new Uint8Array(12) }));`,
			`"InvalidAccessError"`},
		{"a wrapping algorithm that does not wrap",
			`const kek = await crypto.subtle.generateKey({ name: "AES-GCM", length: 128 }, false, ["wrapKey"]);
			const key = await crypto.subtle.generateKey({ name: "AES-GCM", length: 128 }, true, ["encrypt"]);
			return errorOf(crypto.subtle.wrapKey("raw", key, kek, "HMAC"));`,
			`"NotSupportedError"`},
		{"unwrapping with the wrong key",
			`const a = await crypto.subtle.generateKey({ name: "AES-KW", length: 128 }, false, ["wrapKey", "unwrapKey"]);
			const b = await crypto.subtle.generateKey({ name: "AES-KW", length: 128 }, false, ["wrapKey", "unwrapKey"]);
			const key = await crypto.subtle.generateKey({ name: "AES-GCM", length: 128 }, true, ["encrypt"]);
			const wrapped = await crypto.subtle.wrapKey("raw", key, a, "AES-KW");
			return errorOf(crypto.subtle.unwrapKey("raw", wrapped, b, "AES-KW", "AES-GCM", true, ["encrypt"]));`,
			`"OperationError"`},
		{"unwrapping to no usages",
			`const kek = await crypto.subtle.generateKey({ name: "AES-KW", length: 128 }, false, ["wrapKey", "unwrapKey"]);
			const key = await crypto.subtle.generateKey({ name: "AES-GCM", length: 128 }, true, ["encrypt"]);
			const wrapped = await crypto.subtle.wrapKey("raw", key, kek, "AES-KW");
			return errorOf(crypto.subtle.unwrapKey("raw", wrapped, kek, "AES-KW", "AES-GCM", true, []));`,
			`"SyntaxError"`},
		{"unwrapping something that is not JSON",
			`const kek = await crypto.subtle.generateKey({ name: "AES-GCM", length: 128 }, false, ["encrypt", "unwrapKey"]);
			const alg = { name: "AES-GCM", iv: new Uint8Array(12) };
			const wrapped = await crypto.subtle.encrypt(alg, kek, utf8("{not json"));
			return errorOf(crypto.subtle.unwrapKey("jwk", wrapped, kek, alg, "AES-GCM", true, ["encrypt"]));`,
			`"DataError"`},
	})
}
