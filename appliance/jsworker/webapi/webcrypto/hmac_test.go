package webcrypto

import "testing"

// HMAC vectors from RFC 4231 (test cases 1, 2, 3 and 6) and RFC 2202
// (SHA-1, test cases 1 and 2).
func TestHMACKnownAnswers(t *testing.T) {
	keys := map[string]string{
		"tc1": `new Uint8Array(20).fill(0x0b)`,
		"tc2": `utf8("Jefe")`,
		"tc3": `new Uint8Array(20).fill(0xaa)`,
		"tc6": `new Uint8Array(131).fill(0xaa)`,
	}
	data := map[string]string{
		"tc1": `utf8("Hi There")`,
		"tc2": `utf8("what do ya want for nothing?")`,
		"tc3": `new Uint8Array(50).fill(0xdd)`,
		"tc6": `utf8("Test Using Larger Than Block-Size Key - Hash Key First")`,
	}
	vectors := []struct{ tc, hash, mac string }{
		{"tc1", "SHA-1", "b617318655057264e28bc0b6fb378c8ef146be00"},
		{"tc2", "SHA-1", "effcdf6ae5eb2fa2d27416d5f184df9c259a7c79"},
		{"tc1", "SHA-256", "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"},
		{"tc1", "SHA-384", "afd03944d84895626b0825f4ab46907f15f9dadbe4101ec682aa034c7cebc59cfaea9ea9076ede7f4af152e8b2fa9cb6"},
		{"tc1", "SHA-512", "87aa7cdea5ef619d4ff0b4241a1d6cb02379f4e2ce4ec2787ad0b30545e17cdedaa833b7d6b8a702038b274eaea3f4e4be9d914eeb61f1702e696c203a126854"},
		{"tc2", "SHA-256", "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"},
		{"tc2", "SHA-384", "af45d2e376484031617f78d2b58a6b1b9c7ef464f5a01b47e42ec3736322445e8e2240ca5e69e2c78b3239ecfab21649"},
		{"tc2", "SHA-512", "164b7a7bfcf819e2e395fbe73b56e0a387bd64222e831fd610270cd7ea2505549758bf75c05a994a6d034f65f8f0e6fdcaeab1a34d4a6b4b636e070a38bce737"},
		{"tc3", "SHA-256", "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe"},
		{"tc3", "SHA-512", "fa73b0089d56a284efb0f0756c890be9b1b5dbdd8ee81a3655f83e33b2279d39bf3e848279a722c806b485a47e67c807b946a337bee8942674278859e13292fb"},
		{"tc6", "SHA-256", "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"},
		{"tc6", "SHA-384", "4ece084485813e9088d2c63a041bc5b44f9ef1012a2b588f3cd11f05033ac4c60c2ef6ab4030fe8296248df163f44952"},
		{"tc6", "SHA-512", "80b24263c7c1a3ebb71493c1dd7be8b49b46d1f41b4aeec1121b013783f8f3526b56d037e05f2598bd0fd2215d6a1e5295e64f73f63f0aec8b915a985d786598"},
	}
	var cases []evalCase
	for _, v := range vectors {
		cases = append(cases, evalCase{
			name: v.tc + " " + v.hash,
			body: `const k = await crypto.subtle.importKey("raw", ` + keys[v.tc] + `, { name: "HMAC", hash: "` + v.hash + `" }, false, ["sign", "verify"]);
				const mac = await crypto.subtle.sign("HMAC", k, ` + data[v.tc] + `);
				const bad = new Uint8Array(mac).slice(); bad[0] ^= 1;
				return [toHex(mac), await crypto.subtle.verify("HMAC", k, mac, ` + data[v.tc] + `), await crypto.subtle.verify("HMAC", k, bad, ` + data[v.tc] + `)];`,
			want: `["` + v.mac + `",true,false]`,
		})
	}
	runCases(t, newIsolate(t), cases)
}

func TestHMACKeys(t *testing.T) {
	runCases(t, newIsolate(t), []evalCase{
		{"generated lengths default to the hash's block size",
			`const r = [];
			for (const hash of ["SHA-1", "SHA-256", "SHA-384", "SHA-512"]) {
				const k = await crypto.subtle.generateKey({ name: "HMAC", hash }, true, ["sign"]);
				r.push(k.algorithm.length, (await crypto.subtle.exportKey("raw", k)).byteLength * 8);
			}
			return r;`,
			`[512,512,512,512,1024,1024,1024,1024]`},
		{"a generated length",
			`const k = await crypto.subtle.generateKey({ name: "HMAC", hash: "SHA-256", length: 100 }, true, ["sign"]);
			const raw = new Uint8Array(await crypto.subtle.exportKey("raw", k));
			return [k.algorithm.length, raw.length, raw[12] & 0x0f];`,
			`[100,13,0]`},
		{"jwk round trip",
			`const k = await crypto.subtle.importKey("raw", hex(F.secret), { name: "HMAC", hash: "SHA-384" }, true, ["verify", "sign"]);
			const jwk = await crypto.subtle.exportKey("jwk", k);
			const k2 = await crypto.subtle.importKey("jwk", jwk, { name: "HMAC", hash: "SHA-384" }, false, ["sign"]);
			return [jwk, toHex(await crypto.subtle.sign("HMAC", k2, hex(F.message))) === F["hmac_SHA-384"]];`,
			`[{"alg":"HS384","ext":true,"k":"AQIDBAUGBwgJCgsMDQ4PEBESExQVFhcYGRobHB0eHyA","key_ops":["sign","verify"],"kty":"oct"},true]`},
		{"Node.js's MACs",
			`const r = [];
			for (const hash of ["SHA-1", "SHA-256", "SHA-384", "SHA-512"]) {
				const k = await crypto.subtle.importKey("raw", hex(F.secret), { name: "HMAC", hash }, false, ["sign"]);
				r.push(toHex(await crypto.subtle.sign("HMAC", k, hex(F.message))) === F["hmac_" + hash]);
			}
			return r;`,
			`[true,true,true,true]`},
		{"import with a length",
			`const k = await crypto.subtle.importKey("raw", new Uint8Array(4), { name: "HMAC", hash: "SHA-256", length: 25 }, true, ["sign"]);
			return k.algorithm;`,
			`{"hash":{"name":"SHA-256"},"length":25,"name":"HMAC"}`},
		{"a length longer than the key",
			`return errorOf(crypto.subtle.importKey("raw", new Uint8Array(4), { name: "HMAC", hash: "SHA-256", length: 33 }, true, ["sign"]));`,
			`"DataError"`},
		{"a length a byte shorter than the key",
			`return errorOf(crypto.subtle.importKey("raw", new Uint8Array(4), { name: "HMAC", hash: "SHA-256", length: 24 }, true, ["sign"]));`,
			`"DataError"`},
		{"an empty key", `return errorOf(crypto.subtle.importKey("raw", new Uint8Array(0), { name: "HMAC", hash: "SHA-256" }, true, ["sign"]));`, `"DataError"`},
		{"no hash", `return errorOf(crypto.subtle.importKey("raw", new Uint8Array(4), { name: "HMAC" }, true, ["sign"]));`, `"TypeError"`},
		{"an unknown hash", `return errorOf(crypto.subtle.importKey("raw", new Uint8Array(4), { name: "HMAC", hash: "SHA-3" }, true, ["sign"]));`, `"NotSupportedError"`},
		{"a jwk alg for another hash",
			`return errorOf(crypto.subtle.importKey("jwk", { kty: "oct", k: "AQID", alg: "HS512" }, { name: "HMAC", hash: "SHA-256" }, true, ["sign"]));`,
			`"DataError"`},
		{"a jwk of another kty",
			`return errorOf(crypto.subtle.importKey("jwk", { kty: "EC", k: "AQID" }, { name: "HMAC", hash: "SHA-256" }, true, ["sign"]));`,
			`"DataError"`},
		{"a jwk use of enc",
			`return errorOf(crypto.subtle.importKey("jwk", { kty: "oct", k: "AQID", use: "enc" }, { name: "HMAC", hash: "SHA-256" }, true, ["sign"]));`,
			`"DataError"`},
		{"jwk key_ops without the usage",
			`return errorOf(crypto.subtle.importKey("jwk", { kty: "oct", k: "AQID", key_ops: ["verify"] }, { name: "HMAC", hash: "SHA-256" }, true, ["sign"]));`,
			`"DataError"`},
		{"jwk key_ops with a duplicate",
			`return errorOf(crypto.subtle.importKey("jwk", { kty: "oct", k: "AQID", key_ops: ["sign", "sign"] }, { name: "HMAC", hash: "SHA-256" }, true, ["sign"]));`,
			`"DataError"`},
		{"jwk ext false imported extractable",
			`return errorOf(crypto.subtle.importKey("jwk", { kty: "oct", k: "AQID", ext: false }, { name: "HMAC", hash: "SHA-256" }, true, ["sign"]));`,
			`"DataError"`},
		{"jwk ext false imported not extractable",
			`const k = await crypto.subtle.importKey("jwk", { kty: "oct", k: "AQID", ext: false, use: "sig", key_ops: ["sign", "verify"] }, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
			return k.usages;`,
			`["sign"]`},
		{"jwk without k",
			`return errorOf(crypto.subtle.importKey("jwk", { kty: "oct" }, { name: "HMAC", hash: "SHA-256" }, true, ["sign"]));`,
			`"DataError"`},
		{"jwk k not base64url",
			`return errorOf(crypto.subtle.importKey("jwk", { kty: "oct", k: "a+b/" }, { name: "HMAC", hash: "SHA-256" }, true, ["sign"]));`,
			`"DataError"`},
	})
}
