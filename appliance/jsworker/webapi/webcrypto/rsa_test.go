package webcrypto

import "testing"

func TestRSANodeFixtures(t *testing.T) {
	got := evalString(t, newIsolate(t), `
		const bad = [];
		for (const f of F.rsa) {
			const params = { ...f.params, label: f.params.label && hex(f.params.label) };
			const alg = { name: f.name, hash: f.hash };
			const what = f.name + " " + f.hash;
			if (f.name === "RSA-OAEP") {
				for (const [format, data] of [["pkcs8", hex(f.keys.private_pkcs8)], ["jwk", f.keys.private_jwk]]) {
					const k = await crypto.subtle.importKey(format, data, alg, false, ["decrypt"]);
					const plain = toHex(await crypto.subtle.decrypt(params, k, hex(f.ciphertext)));
					if (plain !== F.message) bad.push(what + " " + format + ": decrypted " + plain);
				}
				continue;
			}
			for (const [format, data] of [["spki", hex(f.keys.public_spki)], ["jwk", f.keys.public_jwk]]) {
				const k = await crypto.subtle.importKey(format, data, alg, false, ["verify"]);
				if (!await crypto.subtle.verify(params, k, hex(f.signature), hex(F.message))) bad.push(what + " " + format + ": did not verify");
			}
			if (f.name === "RSASSA-PKCS1-v1_5") {
				const k = await crypto.subtle.importKey("pkcs8", hex(f.keys.private_pkcs8), alg, false, ["sign"]);
				const sig = toHex(await crypto.subtle.sign(params, k, hex(F.message)));
				if (sig !== f.signature) bad.push(what + ": signed " + sig);
			}
		}
		return bad.join("\n") || "ok";`)
	if got != "ok" {
		t.Errorf("Node.js RSA fixtures:\n%s", got)
	}
}

func TestRSA(t *testing.T) {
	iso := newIsolate(t)
	const pss = `const gen = (name, hash, usages) => crypto.subtle.generateKey({ name, hash, modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]) }, true, usages);`
	runCases(t, iso, []evalCase{
		{"generated keys sign, verify, encrypt and decrypt",
			pss + `const r = [];
			for (const [name, hash, alg] of [["RSASSA-PKCS1-v1_5", "SHA-256", { name: "RSASSA-PKCS1-v1_5" }], ["RSA-PSS", "SHA-384", { name: "RSA-PSS", saltLength: 48 }]]) {
				const { publicKey, privateKey } = await gen(name, hash, ["sign", "verify"]);
				const sig = await crypto.subtle.sign(alg, privateKey, utf8("hi"));
				r.push(sig.byteLength, await crypto.subtle.verify(alg, publicKey, sig, utf8("hi")), await crypto.subtle.verify(alg, publicKey, sig, utf8("ho")));
			}
			const { publicKey, privateKey } = await gen("RSA-OAEP", "SHA-256", ["encrypt", "decrypt", "wrapKey", "unwrapKey"]);
			const ct = await crypto.subtle.encrypt({ name: "RSA-OAEP", label: utf8("l") }, publicKey, utf8("secret"));
			r.push(ct.byteLength, String.fromCharCode(...new Uint8Array(await crypto.subtle.decrypt({ name: "RSA-OAEP", label: utf8("l") }, privateKey, ct))),
				await errorOf(crypto.subtle.decrypt({ name: "RSA-OAEP", label: utf8("m") }, privateKey, ct)),
				publicKey.usages, privateKey.usages);
			return r;`,
			`[256,true,false,256,true,false,256,"secret","OperationError",["encrypt","wrapKey"],["decrypt","unwrapKey"]]`},
		{"key algorithm",
			`const k = await crypto.subtle.importKey("spki", hex(F.rsa[0].keys.public_spki), { name: "RSASSA-PKCS1-v1_5", hash: "SHA-256" }, true, ["verify"]);
			const a = k.algorithm;
			return [a.name, a.modulusLength, a.publicExponent instanceof Uint8Array, Array.from(a.publicExponent), a.hash];`,
			`["RSASSA-PKCS1-v1_5",2048,true,[1,0,1],{"name":"SHA-256"}]`},
		{"jwk alg follows algorithm and hash",
			`const r = [];
			for (const [name, hash, usages] of [["RSASSA-PKCS1-v1_5", "SHA-384", ["verify"]], ["RSA-PSS", "SHA-1", ["verify"]], ["RSA-OAEP", "SHA-1", ["encrypt"]], ["RSA-OAEP", "SHA-512", ["encrypt"]]]) {
				const k = await crypto.subtle.importKey("spki", hex(F.rsa[0].keys.public_spki), { name, hash }, true, usages);
				r.push((await crypto.subtle.exportKey("jwk", k)).alg);
			}
			return r;`,
			`["RS384","PS1","RSA-OAEP","RSA-OAEP-512"]`},
		{"a jwk alg for another hash",
			`return errorOf(crypto.subtle.importKey("jwk", F.rsa[0].keys.public_jwk, { name: "RSASSA-PKCS1-v1_5", hash: "SHA-1" }, true, ["verify"]));`,
			`"DataError"`},
		{"a jwk with a bad private exponent",
			`const j = { ...F.rsa[0].keys.private_jwk }; j.dp = F.rsa[1].keys.private_jwk.dp;
			return errorOf(crypto.subtle.importKey("jwk", j, { name: "RSASSA-PKCS1-v1_5", hash: "SHA-256" }, true, ["sign"]));`,
			`"DataError"`},
		{"a jwk with other primes",
			`return errorOf(crypto.subtle.importKey("jwk", { ...F.rsa[0].keys.private_jwk, oth: [{ r: "AQ", d: "AQ", t: "AQ" }] }, { name: "RSASSA-PKCS1-v1_5", hash: "SHA-256" }, true, ["sign"]));`,
			`"NotSupportedError"`},
		{"an EC key as RSA",
			`return errorOf(crypto.subtle.importKey("spki", hex(F.ecdsa[0].keys.public_spki), { name: "RSA-PSS", hash: "SHA-256" }, true, ["verify"]));`,
			`"DataError"`},
		{"raw import", `return errorOf(crypto.subtle.importKey("raw", new Uint8Array(256), { name: "RSA-PSS", hash: "SHA-256" }, true, ["verify"]));`, `"NotSupportedError"`},
		{"a 512-bit key", `return errorOf(crypto.subtle.generateKey({ name: "RSA-PSS", hash: "SHA-256", modulusLength: 512, publicExponent: new Uint8Array([1, 0, 1]) }, true, ["sign"]));`, `"OperationError"`},
		{"a modulus not a multiple of 8", `return errorOf(crypto.subtle.generateKey({ name: "RSA-PSS", hash: "SHA-256", modulusLength: 2047, publicExponent: new Uint8Array([1, 0, 1]) }, true, ["sign"]));`, `"OperationError"`},
		{"publicExponent 3", `return errorOf(crypto.subtle.generateKey({ name: "RSA-PSS", hash: "SHA-256", modulusLength: 2048, publicExponent: new Uint8Array([3]) }, true, ["sign"]));`, `"NotSupportedError"`},
		{"publicExponent 5", `return errorOf(crypto.subtle.generateKey({ name: "RSA-PSS", hash: "SHA-256", modulusLength: 2048, publicExponent: new Uint8Array([5]) }, true, ["sign"]));`, `"OperationError"`},
		{"no publicExponent", `return errorOf(crypto.subtle.generateKey({ name: "RSA-PSS", hash: "SHA-256", modulusLength: 2048 }, true, ["sign"]));`, `"TypeError"`},
		{"PSS with saltLength 0",
			`const k = await crypto.subtle.importKey("jwk", F.rsa[2].keys.private_jwk, { name: "RSA-PSS", hash: "SHA-256" }, false, ["sign"]);
			return errorOf(crypto.subtle.sign({ name: "RSA-PSS", saltLength: 0 }, k, utf8("hi")));`,
			`"NotSupportedError"`},
		{"PSS with another saltLength",
			`const f = F.rsa[2];
			const k = await crypto.subtle.importKey("spki", hex(f.keys.public_spki), { name: "RSA-PSS", hash: "SHA-256" }, false, ["verify"]);
			return crypto.subtle.verify({ name: "RSA-PSS", saltLength: 20 }, k, hex(f.signature), hex(F.message));`,
			`false`},
		{"OAEP: a message too long for the key",
			`const k = await crypto.subtle.importKey("spki", hex(F.rsa[4].keys.public_spki), { name: "RSA-OAEP", hash: "SHA-256" }, false, ["encrypt"]);
			return errorOf(crypto.subtle.encrypt("RSA-OAEP", k, new Uint8Array(200)));`,
			`"OperationError"`},
	})
}
