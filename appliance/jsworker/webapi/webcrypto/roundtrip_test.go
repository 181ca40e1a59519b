package webcrypto

import "testing"

// TestGenerateExportImport generates a key of each algorithm, exports it in
// every format its type has, imports each export, and checks that the
// import exports the same JWK and works with the original key's other half.
func TestGenerateExportImport(t *testing.T) {
	cases := []struct{ name, gen, use string }{
		{"HMAC", `{ name: "HMAC", hash: "SHA-512" }`, "sign"},
		{"AES-GCM", `{ name: "AES-GCM", length: 192 }`, "encrypt"},
		{"AES-CBC", `{ name: "AES-CBC", length: 128 }`, "encrypt"},
		{"AES-CTR", `{ name: "AES-CTR", length: 256 }`, "encrypt"},
		{"AES-KW", `{ name: "AES-KW", length: 256 }`, "wrapKey"},
		{"ECDSA", `{ name: "ECDSA", namedCurve: "P-521" }`, "sign"},
		{"ECDH", `{ name: "ECDH", namedCurve: "P-384" }`, "derive"},
		{"Ed25519", `{ name: "Ed25519" }`, "sign"},
		{"X25519", `{ name: "X25519" }`, "derive"},
		{"RSASSA-PKCS1-v1_5", `{ name: "RSASSA-PKCS1-v1_5", hash: "SHA-1", modulusLength: 1024, publicExponent: new Uint8Array([1, 0, 1]) }`, "sign"},
		{"RSA-OAEP", `{ name: "RSA-OAEP", hash: "SHA-384", modulusLength: 2048, publicExponent: new Uint8Array([0, 1, 0, 1]) }`, "encrypt"},
	}
	var evals []evalCase
	for _, c := range cases {
		evals = append(evals, evalCase{c.name, `
			const gen = ` + c.gen + `, use = "` + c.use + `", s = crypto.subtle;
			const usages = { sign: ["sign", "verify"], encrypt: ["encrypt", "decrypt"], wrapKey: ["wrapKey", "unwrapKey"], derive: ["deriveBits"] }[use];
			const made = await s.generateKey(gen, true, usages);
			const pair = made.privateKey ? made : { publicKey: made, privateKey: made };
			const importAlg = { ...gen, modulusLength: undefined, publicExponent: undefined, length: undefined };
			const formats = (k) => k.type === "secret" ? ["raw", "jwk"] : k.type === "private" ? ["pkcs8", "jwk"]
				: gen.name.startsWith("RSA") ? ["spki", "jwk"] : ["raw", "spki", "jwk"];
			const r = [];
			for (const k of made.privateKey ? [pair.publicKey, pair.privateKey] : [made]) {
				const want = JSON.stringify(await s.exportKey("jwk", k));
				for (const f of formats(k)) {
					const data = await s.exportKey(f, k);
					const back = await s.importKey(f, data, importAlg, true, k.usages);
					const same = JSON.stringify(await s.exportKey("jwk", back)) === want;
					const other = k.type === "public" ? pair.privateKey : k.type === "private" ? pair.publicKey : k;
					let works;
					const pub = k.type === "public" ? back : other, priv = k.type === "private" || k.type === "secret" ? back : other;
					if (use === "sign") {
						const alg = { name: gen.name, hash: "SHA-256" };
						works = await s.verify(alg, pub, await s.sign(alg, priv, utf8("m")), utf8("m"));
					} else if (use === "encrypt") {
						const alg = { name: gen.name, iv: new Uint8Array(16), counter: new Uint8Array(16), length: 64 };
						works = toHex(await s.decrypt(alg, priv, await s.encrypt(alg, pub, utf8("m")))) === "6d";
					} else if (use === "wrapKey") {
						const inner = await s.generateKey({ name: "HMAC", hash: "SHA-256" }, true, ["sign"]);
						const w = await s.wrapKey("raw", inner, back, gen.name);
						works = toHex(await s.exportKey("raw", await s.unwrapKey("raw", w, k, gen.name, inner.algorithm, true, ["sign"]))) === toHex(await s.exportKey("raw", inner));
					} else {
						const bits = async (a, b) => toHex(await s.deriveBits({ name: gen.name, public: a }, b, null));
						works = (await bits(pub, priv)) === (await bits(pair.publicKey, pair.privateKey));
					}
					r.push(k.type + " " + f + (same ? "" : " exports another key") + (works ? "" : " does not work"));
				}
			}
			return r.join(", ");`, map[string]string{
			"HMAC": `"secret raw, secret jwk"`, "AES-GCM": `"secret raw, secret jwk"`, "AES-CBC": `"secret raw, secret jwk"`,
			"AES-CTR": `"secret raw, secret jwk"`, "AES-KW": `"secret raw, secret jwk"`,
			"ECDSA": `"public raw, public spki, public jwk, private pkcs8, private jwk"`, "ECDH": `"public raw, public spki, public jwk, private pkcs8, private jwk"`,
			"Ed25519": `"public raw, public spki, public jwk, private pkcs8, private jwk"`, "X25519": `"public raw, public spki, public jwk, private pkcs8, private jwk"`,
			"RSASSA-PKCS1-v1_5": `"public spki, public jwk, private pkcs8, private jwk"`, "RSA-OAEP": `"public spki, public jwk, private pkcs8, private jwk"`,
		}[c.name]})
	}
	runCases(t, newIsolate(t), evals)
}
