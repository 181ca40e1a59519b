package webcrypto

import "testing"

// Ed25519 vectors from RFC 8032 section 7.1 (tests 1, 2 and 3), imported
// as JWKs.
func TestEd25519KnownAnswers(t *testing.T) {
	vectors := []struct{ name, secret, public, msg, sig string }{
		{"1", "9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60", "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a", "",
			"e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b"},
		{"2", "4ccd089b28ff96da9db6c346ec114e0f5b8a319f35aba624da8cf6ed4fb8a6fb", "3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c", "72",
			"92a009a9f0d4cab8720e820b5f642540a2b27b5416503f8fb3762223ebdb69da085ac1e43e15996e458f3613d0f11d8c387b2eaeb4302aeeb00d291612bb0c00"},
		{"3", "c5aa8df43f9f837bedb7442f31dcb7b166d38535076f094b85ce3a2e0b4458f7", "fc51cd8e6218a1a38da47ed00230f0580816ed13ba3303ac5deb911548908025", "af82",
			"6291d657deec24024827e69c3abe01a30ce548a284743a445e3680d7db5ac3ac18ff9b538d16f290ae67f760984dc6594a7c15e9716ed28dc027beceea1ec40a"},
	}
	var cases []evalCase
	for _, v := range vectors {
		cases = append(cases, evalCase{
			name: "test " + v.name,
			body: `const priv = await crypto.subtle.importKey("jwk", { kty: "OKP", crv: "Ed25519", d: toB64url(hex("` + v.secret + `")), x: toB64url(hex("` + v.public + `")) }, "Ed25519", false, ["sign"]);
				const pub = await crypto.subtle.importKey("raw", hex("` + v.public + `"), { name: "ed25519" }, false, ["verify"]);
				const sig = await crypto.subtle.sign("Ed25519", priv, hex("` + v.msg + `"));
				const other = hex("` + v.sig + `"); other[0] ^= 1;
				return [toHex(sig), await crypto.subtle.verify("Ed25519", pub, sig, hex("` + v.msg + `")), await crypto.subtle.verify("Ed25519", pub, other, hex("` + v.msg + `"))];`,
			want: `["` + v.sig + `",true,false]`,
		})
	}
	runCases(t, newIsolate(t), cases)
}

func TestEd25519(t *testing.T) {
	runCases(t, newIsolate(t), []evalCase{
		{"Node.js's signature, and the same one from dwk",
			`const f = F.ed25519;
			const pub = await crypto.subtle.importKey("spki", hex(f.keys.public_spki), "Ed25519", false, ["verify"]);
			const priv = await crypto.subtle.importKey("pkcs8", hex(f.keys.private_pkcs8), "Ed25519", false, ["sign"]);
			return [await crypto.subtle.verify("Ed25519", pub, hex(f.signature), hex(F.message)), toHex(await crypto.subtle.sign("Ed25519", priv, hex(F.message))) === f.signature];`,
			`[true,true]`},
		{"a generated pair",
			`const { publicKey, privateKey } = await crypto.subtle.generateKey("Ed25519", false, ["sign", "verify"]);
			const sig = await crypto.subtle.sign("Ed25519", privateKey, utf8("hi"));
			return [publicKey.type, publicKey.extractable, publicKey.usages, privateKey.type, privateKey.extractable, privateKey.usages, privateKey.algorithm,
				sig.byteLength, await crypto.subtle.verify("Ed25519", publicKey, sig, utf8("hi")), await crypto.subtle.verify("Ed25519", publicKey, sig, utf8("ho"))];`,
			`["public",true,["verify"],"private",false,["sign"],{"name":"Ed25519"},64,true,false]`},
		{"NODE-ED25519",
			`const alg = { name: "NODE-ED25519", namedCurve: "NODE-ED25519" };
			const { publicKey, privateKey } = await crypto.subtle.generateKey(alg, true, ["sign", "verify"]);
			const sig = await crypto.subtle.sign(alg, privateKey, utf8("hi"));
			const raw = await crypto.subtle.exportKey("raw", publicKey);
			const ed = await crypto.subtle.importKey("raw", raw, "Ed25519", false, ["verify"]);
			return [publicKey.algorithm, await crypto.subtle.verify("NODE-ED25519", publicKey, sig, utf8("hi")), await crypto.subtle.verify("Ed25519", ed, sig, utf8("hi")),
				(await crypto.subtle.exportKey("jwk", privateKey)).crv];`,
			`[{"name":"NODE-ED25519","namedCurve":"NODE-ED25519"},true,true,"Ed25519"]`},
		{"NODE-ED25519 with another curve",
			`return errorOf(crypto.subtle.generateKey({ name: "NODE-ED25519", namedCurve: "Ed448" }, true, ["sign"]));`,
			`"NotSupportedError"`},
		{"NODE-ED25519 without a curve",
			`return errorOf(crypto.subtle.generateKey({ name: "NODE-ED25519" }, true, ["sign"]));`,
			`"TypeError"`},
		{"jwk export",
			`const { privateKey } = await crypto.subtle.generateKey("Ed25519", true, ["sign", "verify"]);
			const j = await crypto.subtle.exportKey("jwk", privateKey);
			return [j.kty, j.crv, j.alg, b64url(j.d).length, b64url(j.x).length, j.key_ops];`,
			`["OKP","Ed25519","EdDSA",32,32,["sign"]]`},
		{"a 63-byte signature",
			`const { publicKey } = await crypto.subtle.generateKey("Ed25519", false, ["sign", "verify"]);
			return errorOf(crypto.subtle.verify("Ed25519", publicKey, new Uint8Array(63), utf8("hi")));`,
			`"OperationError"`},
		{"a 31-byte raw key", `return errorOf(crypto.subtle.importKey("raw", new Uint8Array(31), "Ed25519", false, ["verify"]));`, `"DataError"`},
		{"a jwk whose x is not d's",
			`const a = await crypto.subtle.exportKey("jwk", (await crypto.subtle.generateKey("Ed25519", true, ["sign"])).privateKey);
			const b = await crypto.subtle.exportKey("jwk", (await crypto.subtle.generateKey("Ed25519", true, ["sign"])).privateKey);
			return errorOf(crypto.subtle.importKey("jwk", { ...a, x: b.x }, "Ed25519", false, ["sign"]));`,
			`"DataError"`},
		{"a jwk with an X25519 curve",
			`return errorOf(crypto.subtle.importKey("jwk", { kty: "OKP", crv: "X25519", x: toB64url(new Uint8Array(32)) }, "Ed25519", false, ["verify"]));`,
			`"DataError"`},
		{"an ECDSA spki",
			`return errorOf(crypto.subtle.importKey("spki", hex(F.ecdsa[0].keys.public_spki), "Ed25519", false, ["verify"]));`,
			`"DataError"`},
		{"raw export of a private key",
			`const { privateKey } = await crypto.subtle.generateKey("Ed25519", true, ["sign"]);
			return errorOf(crypto.subtle.exportKey("raw", privateKey));`,
			`"InvalidAccessError"`},
		{"spki export of a private key",
			`const { privateKey } = await crypto.subtle.generateKey("Ed25519", true, ["sign"]);
			return errorOf(crypto.subtle.exportKey("spki", privateKey));`,
			`"InvalidAccessError"`},
	})
}

func TestECDSA(t *testing.T) {
	runCases(t, newIsolate(t), []evalCase{
		{"Node.js's signatures",
			`const r = [];
			for (const f of F.ecdsa) {
				const alg = { name: "ECDSA", namedCurve: f.namedCurve };
				for (const [format, data] of [["spki", hex(f.keys.public_spki)], ["raw", hex(f.keys.public_raw)], ["jwk", f.keys.public_jwk]]) {
					const k = await crypto.subtle.importKey(format, data, alg, false, ["verify"]);
					r.push(await crypto.subtle.verify({ name: "ECDSA", hash: f.hash }, k, hex(f.signature), hex(F.message)));
				}
			}
			return r.every((x) => x) && r.length;`,
			`12`},
		{"signatures are r||s, and verify",
			`const r = [];
			for (const [namedCurve, hash] of [["P-256", "SHA-256"], ["P-384", "SHA-384"], ["P-521", "SHA-512"], ["P-256", "SHA-512"]]) {
				const { publicKey, privateKey } = await crypto.subtle.generateKey({ name: "ECDSA", namedCurve }, false, ["sign", "verify"]);
				const sig = new Uint8Array(await crypto.subtle.sign({ name: "ECDSA", hash }, privateKey, utf8("hi")));
				const bad = sig.slice(); bad[5] ^= 1;
				r.push([sig.length, await crypto.subtle.verify({ name: "ECDSA", hash }, publicKey, sig, utf8("hi")),
					await crypto.subtle.verify({ name: "ECDSA", hash }, publicKey, bad, utf8("hi")),
					await crypto.subtle.verify({ name: "ECDSA", hash }, publicKey, sig, utf8("ho")),
					await crypto.subtle.verify({ name: "ECDSA", hash: hash === "SHA-256" ? "SHA-384" : "SHA-256" }, publicKey, sig, utf8("hi")),
					await crypto.subtle.verify({ name: "ECDSA", hash }, publicKey, sig.slice(1), utf8("hi"))]);
			}
			return r;`,
			`[[64,true,false,false,false,false],[96,true,false,false,false,false],[132,true,false,false,false,false],[64,true,false,false,false,false]]`},
		{"a compressed point",
			`const f = F.ecdsa[0];
			const raw = hex(f.keys.public_raw);
			const compressed = new Uint8Array(33); compressed[0] = 2 + (raw[64] & 1); compressed.set(raw.subarray(1, 33), 1);
			const k = await crypto.subtle.importKey("raw", compressed, { name: "ECDSA", namedCurve: "P-256" }, true, ["verify"]);
			return [toHex(await crypto.subtle.exportKey("raw", k)) === f.keys.public_raw, await crypto.subtle.verify({ name: "ECDSA", hash: f.hash }, k, hex(f.signature), hex(F.message))];`,
			`[true,true]`},
		{"key algorithm and usages",
			`const { publicKey, privateKey } = await crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-384" }, true, ["verify", "sign"]);
			return [publicKey.algorithm, publicKey.usages, privateKey.usages];`,
			`[{"name":"ECDSA","namedCurve":"P-384"},["verify"],["sign"]]`},
		{"an unknown curve", `return errorOf(crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-192" }, true, ["sign"]));`, `"NotSupportedError"`},
		{"no hash",
			`const { privateKey } = await crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, true, ["sign"]);
			return errorOf(crypto.subtle.sign("ECDSA", privateKey, utf8("hi")));`,
			`"TypeError"`},
		{"a key of another curve",
			`return errorOf(crypto.subtle.importKey("spki", hex(F.ecdsa[1].keys.public_spki), { name: "ECDSA", namedCurve: "P-256" }, true, ["verify"]));`,
			`"DataError"`},
		{"a point off the curve",
			`const raw = hex(F.ecdsa[0].keys.public_raw); raw[40] ^= 1;
			return errorOf(crypto.subtle.importKey("raw", raw, { name: "ECDSA", namedCurve: "P-256" }, true, ["verify"]));`,
			`"DataError"`},
		{"a jwk alg for another curve",
			`return errorOf(crypto.subtle.importKey("jwk", { ...F.ecdsa[0].keys.public_jwk, key_ops: undefined, alg: "ES384" }, { name: "ECDSA", namedCurve: "P-256" }, true, ["verify"]));`,
			`"DataError"`},
		{"a jwk crv other than namedCurve",
			`return errorOf(crypto.subtle.importKey("jwk", { ...F.ecdsa[0].keys.public_jwk, key_ops: undefined }, { name: "ECDSA", namedCurve: "P-384" }, true, ["verify"]));`,
			`"DataError"`},
		{"a jwk with a short x",
			`const j = { ...F.ecdsa[0].keys.public_jwk, key_ops: undefined }; j.x = j.x.slice(0, -2);
			return errorOf(crypto.subtle.importKey("jwk", j, { name: "ECDSA", namedCurve: "P-256" }, true, ["verify"]));`,
			`"DataError"`},
		{"a jwk whose d is not x and y's",
			`const j = { ...F.ecdsa[0].keys.private_jwk, d: F.agreement[0].a.private_jwk.d };
			return errorOf(crypto.subtle.importKey("jwk", j, { name: "ECDSA", namedCurve: "P-256" }, true, ["sign"]));`,
			`"DataError"`},
		{"sign with a public key's usage",
			`return errorOf(crypto.subtle.importKey("spki", hex(F.ecdsa[0].keys.public_spki), { name: "ECDSA", namedCurve: "P-256" }, true, ["sign"]));`,
			`"SyntaxError"`},
		{"pkcs8 export of a public key",
			`const k = await crypto.subtle.importKey("spki", hex(F.ecdsa[0].keys.public_spki), { name: "ECDSA", namedCurve: "P-256" }, true, ["verify"]);
			return errorOf(crypto.subtle.exportKey("pkcs8", k));`,
			`"InvalidAccessError"`},
	})
}

// TestJWT verifies JWTs the way apps do: import the issuer's JWK, then
// verify the signature over "header.payload".
func TestJWT(t *testing.T) {
	const verify = `
		async function verifyJWT(token, jwk, alg, verifyAlg) {
			const [header, payload, signature] = token.split(".");
			const key = await crypto.subtle.importKey("jwk", jwk, alg, false, ["verify"]);
			const ok = await crypto.subtle.verify(verifyAlg, key, b64url(signature), utf8(header + "." + payload));
			if (!ok) return "invalid";
			const text = String.fromCharCode(...b64url(payload));
			return JSON.parse(text).name;
		}
		const tamper = (token) => { const [h, p, s] = token.split("."); return [h, p.slice(0, -2) + (p.endsWith("fQ") ? "fX" : "fQ"), s].join("."); };`
	runCases(t, newIsolate(t), []evalCase{
		{"HS256", verify + `const { token, jwk } = F.jwt.hs256;
			const alg = { name: "HMAC", hash: "SHA-256" };
			return [await verifyJWT(token, jwk, alg, "HMAC"), await verifyJWT(tamper(token), jwk, alg, "HMAC")];`,
			`["dwk","invalid"]`},
		{"ES256", verify + `const { token, jwk } = F.jwt.es256;
			const alg = { name: "ECDSA", namedCurve: "P-256" };
			const v = { name: "ECDSA", hash: "SHA-256" };
			return [await verifyJWT(token, jwk, alg, v), await verifyJWT(tamper(token), jwk, alg, v)];`,
			`["dwk","invalid"]`},
		{"an HS256 key used as ES256", verify + `return errorOf(verifyJWT(F.jwt.hs256.token, F.jwt.hs256.jwk, { name: "ECDSA", namedCurve: "P-256" }, "ECDSA"));`,
			`"DataError"`},
	})
}
