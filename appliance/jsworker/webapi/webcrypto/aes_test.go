package webcrypto

import (
	"strings"
	"testing"
)

// aesRoundTrip is the body of a test that encrypts plain with key and
// params, returns the ciphertext's hex, and fails unless decrypting it
// gives plain back.
func aesRoundTrip(name, key, params, plain string) string {
	return `const k = await crypto.subtle.importKey("raw", hex("` + key + `"), "` + name + `", false, ["encrypt", "decrypt"]);
		const alg = { name: "` + name + `", ` + params + ` };
		const ct = await crypto.subtle.encrypt(alg, k, hex("` + plain + `"));
		const back = toHex(await crypto.subtle.decrypt(alg, k, ct));
		if (back !== "` + plain + `") throw new Error("decrypted " + back);
		return toHex(ct);`
}

// AES-GCM vectors from the GCM specification's test cases (McGrew and
// Viega), which NIST's validation uses: 2, 3, 4, 5 (8-byte IV), 6 (60-byte
// IV), 14 and 16 (AES-256).
func TestAESGCMKnownAnswers(t *testing.T) {
	const (
		k128  = "feffe9928665731c6d6a8f9467308308"
		k256  = k128 + k128
		p64   = "d9313225f88406e5a55909c5aff5269a86a7a9531534f7da2e4c303d8a318a721c3c0c95956809532fcf0e2449a6b525b16aedf5aa0de657ba637b391aafd255"
		p60   = "d9313225f88406e5a55909c5aff5269a86a7a9531534f7da2e4c303d8a318a721c3c0c95956809532fcf0e2449a6b525b16aedf5aa0de657ba637b39"
		aad   = `additionalData: hex("feedfacedeadbeeffeedfacedeadbeefabaddad2")`
		iv96  = `iv: hex("cafebabefacedbaddecaf888")`
		zeros = "00000000000000000000000000000000"
	)
	vectors := []struct{ name, key, params, plain, want string }{
		{"2", zeros, `iv: new Uint8Array(12)`, zeros, "0388dace60b6a392f328c2b971b2fe78" + "ab6e47d42cec13bdf53a67b21257bddf"},
		{"3", k128, iv96, p64, "42831ec2217774244b7221b784d0d49ce3aa212f2c02a4e035c17e2329aca12e21d514b25466931c7d8f6a5aac84aa051ba30b396a0aac973d58e091473f5985" + "4d5c2af327cd64a62cf35abd2ba6fab4"},
		{"4", k128, iv96 + ", " + aad, p60, "42831ec2217774244b7221b784d0d49ce3aa212f2c02a4e035c17e2329aca12e21d514b25466931c7d8f6a5aac84aa051ba30b396a0aac973d58e091" + "5bc94fbc3221a5db94fae95ae7121a47"},
		{"4 with a 96-bit tag", k128, iv96 + ", " + aad + ", tagLength: 96", p60, "42831ec2217774244b7221b784d0d49ce3aa212f2c02a4e035c17e2329aca12e21d514b25466931c7d8f6a5aac84aa051ba30b396a0aac973d58e091" + "5bc94fbc3221a5db94fae95a"},
		{"4 with a 32-bit tag", k128, iv96 + ", " + aad + ", tagLength: 32", p60, "42831ec2217774244b7221b784d0d49ce3aa212f2c02a4e035c17e2329aca12e21d514b25466931c7d8f6a5aac84aa051ba30b396a0aac973d58e091" + "5bc94fbc"},
		{"5", k128, `iv: hex("cafebabefacedbad"), ` + aad, p60, "61353b4c2806934a777ff51fa22a4755699b2a714fcdc6f83766e5f97b6c742373806900e49f24b22b097544d4896b424989b5e1ebac0f07c23f4598" + "3612d2e79e3b0785561be14aaca2fccb"},
		{"6", k128, `iv: hex("9313225df88406e555909c5aff5269aa6a7a9538534f7da1e4c303d2a318a728c3c0c95156809539fcf0e2429a6b525416aedbf5a0de6a57a637b39b"), ` + aad, p60, "8ce24998625615b603a033aca13fb894be9112a5c3a211a8ba262a3cca7e2ca701e4a9a4fba43c90ccdcb281d48c7c6fd62875d2aca417034c34aee5" + "619cc5aefffe0bfa462af43c1699d050"},
		{"14", zeros + zeros, `iv: new Uint8Array(12)`, zeros, "cea7403d4d606b6e074ec5d3baf39d18" + "d0d1c8a799996bf0265b98b5d48ab919"},
		{"16", k256, iv96 + ", " + aad, p60, "522dc1f099567d07f47f37a32a84427d643a8cdcbfe5c0c97598a2bd2555d1aa8cb08e48590dbb3da7b08b1056828838c5f61e6393ba7a0abcc9f662" + "76fc6ece0f4e1768cddf8853bb2d551b"},
	}
	var cases []evalCase
	for _, v := range vectors {
		cases = append(cases, evalCase{"test case " + v.name, aesRoundTrip("AES-GCM", v.key, v.params, v.plain), `"` + v.want + `"`})
	}
	runCases(t, newIsolate(t), cases)
}

// AES-CBC and AES-CTR vectors from NIST SP 800-38A (F.2.1 and F.5.1).
// Web Crypto's CBC adds PKCS#7 padding: a full block after the four.
func TestAESCBCAndCTRKnownAnswers(t *testing.T) {
	const (
		key   = "2b7e151628aed2a6abf7158809cf4f3c"
		plain = "6bc1bee22e409f96e93d7e117393172aae2d8a571e03ac9c9eb76fac45af8e5130c81c46a35ce411e5fbc1191a0a52eff69f2445df4f9b17ad2b417be66c3710"
		cbc   = "7649abac8119b246cee98e9b12e9197d5086cb9b507219ee95db113a917678b273bed6b8e3c1743b7116e69e222295163ff1caa1681fac09120eca307586e1a7"
		ctr   = "874d6191b620e3261bef6864990db6ce9806f66b7970fdff8617187bb9fffdff5ae4df3edbd5d35e5b4f09020db03eab1e031dda2fbe03d1792170a0f3009cee"
	)
	iso := newIsolate(t)
	runCases(t, iso, []evalCase{
		{"CTR, 128-bit counter", aesRoundTrip("AES-CTR", key, `counter: hex("f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff"), length: 128`, plain), `"` + ctr + `"`},
		{"CTR, 64-bit counter", aesRoundTrip("AES-CTR", key, `counter: hex("f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff"), length: 64`, plain), `"` + ctr + `"`},
	})
	got := evalString(t, iso, aesRoundTrip("AES-CBC", key, `iv: hex("000102030405060708090a0b0c0d0e0f")`, plain))
	if !strings.HasPrefix(got, cbc) || len(got) != len(cbc)+32 {
		t.Errorf("CBC: got %s\nwant %s and a padding block", got, cbc)
	}
}

// AES-KW vectors from RFC 3394 (4.1, 4.3 and 4.6), through wrapKey and
// unwrapKey.
func TestAESKWKnownAnswers(t *testing.T) {
	const (
		kek128 = "000102030405060708090a0b0c0d0e0f"
		kek256 = kek128 + "101112131415161718191a1b1c1d1e1f"
	)
	vectors := []struct{ name, kek, key, want string }{
		{"4.1", kek128, "00112233445566778899aabbccddeeff", "1fa68b0a8112b447aef34bd8fb5a7b829d3e862371d2cfe5"},
		{"4.3", kek256, "00112233445566778899aabbccddeeff", "64e8c3f9ce0f5ba263e9777905818a2a93c8191e7d6e8ae7"},
		{"4.6", kek256, "00112233445566778899aabbccddeeff000102030405060708090a0b0c0d0e0f", "28c9f404c4b810f4cbccb35cfb87f8263f5786e2d80ed326cbc7f0e71a99f43bfb988b9b7a02dd21"},
	}
	var cases []evalCase
	for _, v := range vectors {
		cases = append(cases, evalCase{
			name: v.name,
			body: `const kek = await crypto.subtle.importKey("raw", hex("` + v.kek + `"), "AES-KW", false, ["wrapKey", "unwrapKey"]);
				const key = await crypto.subtle.importKey("raw", hex("` + v.key + `"), "AES-CBC", true, ["encrypt"]);
				const wrapped = await crypto.subtle.wrapKey("raw", key, kek, "AES-KW");
				const back = await crypto.subtle.unwrapKey("raw", wrapped, kek, { name: "aes-kw" }, "AES-CBC", true, ["decrypt"]);
				return [toHex(wrapped), toHex(await crypto.subtle.exportKey("raw", back)), back.usages];`,
			want: `["` + v.want + `","` + v.key + `",["decrypt"]]`,
		})
	}
	cases = append(cases, evalCase{"a corrupted wrapped key",
		`const kek = await crypto.subtle.importKey("raw", hex("` + kek128 + `"), "AES-KW", false, ["unwrapKey"]);
		return errorOf(crypto.subtle.unwrapKey("raw", hex("1fa68b0a8112b447aef34bd8fb5a7b829d3e862371d2cfe6"), kek, "AES-KW", "AES-CBC", true, ["decrypt"]));`,
		`"OperationError"`})
	runCases(t, newIsolate(t), cases)
}

// TestAESNodeFixtures decrypts what Node.js encrypted and encrypts to the
// same bytes (every mode here is deterministic for a given iv or counter).
func TestAESNodeFixtures(t *testing.T) {
	got := evalString(t, newIsolate(t), `const r = [];
		for (const f of F.aes) {
			const k = await crypto.subtle.importKey("raw", hex(f.key), f.name, false, ["encrypt", "decrypt"]);
			const alg = { name: f.name };
			for (const [m, v] of Object.entries(f.params)) alg[m] = typeof v === "number" ? v : hex(v);
			const plain = toHex(await crypto.subtle.decrypt(alg, k, hex(f.ciphertext)));
			const ct = toHex(await crypto.subtle.encrypt(alg, k, hex(F.message)));
			if (plain !== F.message || ct !== f.ciphertext) r.push(f.name + " " + JSON.stringify(f.params) + ": decrypted " + plain + ", encrypted " + ct);
		}
		const kek = await crypto.subtle.importKey("raw", hex(F.aeskw.kek), "AES-KW", false, ["unwrapKey"]);
		const inner = await crypto.subtle.unwrapKey("raw", hex(F.aeskw.wrapped), kek, "AES-KW", "AES-GCM", true, ["encrypt"]);
		if (toHex(await crypto.subtle.exportKey("raw", inner)) !== F.aeskw.key) r.push("AES-KW unwrapped another key");
		return r.join("\n") || "ok";`)
	if got != "ok" {
		t.Errorf("Node.js fixtures:\n%s", got)
	}
}

func TestAESErrors(t *testing.T) {
	const key = `const k = await crypto.subtle.importKey("raw", new Uint8Array(16), "%s", true, ["encrypt", "decrypt"]);`
	with := func(alg, body string) string { return strings.Replace(key, "%s", alg, 1) + body }
	runCases(t, newIsolate(t), []evalCase{
		{"GCM: a changed ciphertext",
			with("AES-GCM", `const ct = new Uint8Array(await crypto.subtle.encrypt({ name: "AES-GCM", iv: new Uint8Array(12) }, k, utf8("hello"))); ct[0] ^= 1;
			return errorOf(crypto.subtle.decrypt({ name: "AES-GCM", iv: new Uint8Array(12) }, k, ct));`), `"OperationError"`},
		{"GCM: a changed short tag",
			with("AES-GCM", `const alg = { name: "AES-GCM", iv: new Uint8Array(12), tagLength: 64 };
			const ct = new Uint8Array(await crypto.subtle.encrypt(alg, k, utf8("hello"))); ct[ct.length - 1] ^= 1;
			return [ct.length, await errorOf(crypto.subtle.decrypt(alg, k, ct))];`), `[13,"OperationError"]`},
		{"GCM: other additional data",
			with("AES-GCM", `const ct = await crypto.subtle.encrypt({ name: "AES-GCM", iv: new Uint8Array(12), additionalData: utf8("a") }, k, utf8("hello"));
			return errorOf(crypto.subtle.decrypt({ name: "AES-GCM", iv: new Uint8Array(12), additionalData: utf8("b") }, k, ct));`), `"OperationError"`},
		{"GCM: shorter than the tag",
			with("AES-GCM", `return errorOf(crypto.subtle.decrypt({ name: "AES-GCM", iv: new Uint8Array(12) }, k, new Uint8Array(15)));`), `"OperationError"`},
		{"GCM: a bad tagLength",
			with("AES-GCM", `return errorOf(crypto.subtle.encrypt({ name: "AES-GCM", iv: new Uint8Array(12), tagLength: 100 }, k, utf8("hello")));`), `"OperationError"`},
		{"GCM: an empty iv",
			with("AES-GCM", `return errorOf(crypto.subtle.encrypt({ name: "AES-GCM", iv: new Uint8Array(0) }, k, utf8("hello")));`), `"OperationError"`},
		{"GCM: no iv",
			with("AES-GCM", `return errorOf(crypto.subtle.encrypt({ name: "AES-GCM" }, k, utf8("hello")));`), `"TypeError"`},
		{"CBC: a short iv",
			with("AES-CBC", `return errorOf(crypto.subtle.encrypt({ name: "AES-CBC", iv: new Uint8Array(8) }, k, utf8("hello")));`), `"OperationError"`},
		{"CBC: bad padding",
			with("AES-CBC", `const alg = { name: "AES-CBC", iv: new Uint8Array(16) };
			const ct = new Uint8Array(await crypto.subtle.encrypt(alg, k, utf8("hello"))); ct[15] ^= 0x55;
			return errorOf(crypto.subtle.decrypt(alg, k, ct));`), `"OperationError"`},
		{"CBC: not whole blocks",
			with("AES-CBC", `return errorOf(crypto.subtle.decrypt({ name: "AES-CBC", iv: new Uint8Array(16) }, k, new Uint8Array(17)));`), `"OperationError"`},
		{"CTR: a zero length",
			with("AES-CTR", `return errorOf(crypto.subtle.encrypt({ name: "AES-CTR", counter: new Uint8Array(16), length: 0 }, k, utf8("hello")));`), `"OperationError"`},
		{"CTR: more blocks than counter values",
			with("AES-CTR", `return errorOf(crypto.subtle.encrypt({ name: "AES-CTR", counter: new Uint8Array(16), length: 1 }, k, new Uint8Array(33)));`), `"OperationError"`},
		{"CTR: a length above 255 is a TypeError",
			with("AES-CTR", `return errorOf(crypto.subtle.encrypt({ name: "AES-CTR", counter: new Uint8Array(16), length: 256 }, k, utf8("hello")));`), `"TypeError"`},
		{"CTR: a counter block of 8 bytes",
			with("AES-CTR", `return errorOf(crypto.subtle.encrypt({ name: "AES-CTR", counter: new Uint8Array(8), length: 64 }, k, utf8("hello")));`), `"OperationError"`},
		{"import: 100-bit key", `return errorOf(crypto.subtle.importKey("raw", new Uint8Array(12), "AES-GCM", true, ["encrypt"]));`, `"DataError"`},
		{"generate: 100-bit key", `return errorOf(crypto.subtle.generateKey({ name: "AES-GCM", length: 100 }, true, ["encrypt"]));`, `"OperationError"`},
		{"generate: no length", `return errorOf(crypto.subtle.generateKey({ name: "AES-GCM" }, true, ["encrypt"]));`, `"TypeError"`},
		{"jwk alg for another length",
			`return errorOf(crypto.subtle.importKey("jwk", { kty: "oct", k: "AAAAAAAAAAAAAAAAAAAAAA", alg: "A256GCM" }, "AES-GCM", true, ["encrypt"]));`, `"DataError"`},
		{"jwk alg for another mode",
			`return errorOf(crypto.subtle.importKey("jwk", { kty: "oct", k: "AAAAAAAAAAAAAAAAAAAAAA", alg: "A128CBC" }, "AES-GCM", true, ["encrypt"]));`, `"DataError"`},
		{"AES-KW cannot encrypt",
			`const k = await crypto.subtle.importKey("raw", new Uint8Array(16), "AES-KW", true, ["wrapKey"]);
			return errorOf(crypto.subtle.encrypt("AES-KW", k, new Uint8Array(16)));`, `"NotSupportedError"`},
		{"AES-KW needs multiples of 8 bytes",
			`const kek = await crypto.subtle.importKey("raw", new Uint8Array(16), "AES-KW", true, ["wrapKey"]);
			const h = await crypto.subtle.importKey("raw", new Uint8Array(20), { name: "HMAC", hash: "SHA-1" }, true, ["sign"]);
			return errorOf(crypto.subtle.wrapKey("raw", h, kek, "AES-KW"));`, `"OperationError"`},
	})
}

// TestAESCTRWraps checks that the counter's low length bits wrap around
// while the rest stays: the block after ...ff with length 8 uses ...00 of
// the same upper bytes, not a carry into them.
func TestAESCTRWraps(t *testing.T) {
	got := evalString(t, newIsolate(t), `
		const k = await crypto.subtle.importKey("raw", hex("2b7e151628aed2a6abf7158809cf4f3c"), "AES-CTR", false, ["encrypt"]);
		const ecb = await crypto.subtle.importKey("raw", hex("2b7e151628aed2a6abf7158809cf4f3c"), "AES-CBC", false, ["encrypt"]);
		// One AES block of a counter value: CBC of a zero block with the counter as iv.
		const block = async (c) => toHex(new Uint8Array(await crypto.subtle.encrypt({ name: "AES-CBC", iv: hex(c) }, ecb, new Uint8Array(16))).slice(0, 16));
		const ct = toHex(await crypto.subtle.encrypt({ name: "AES-CTR", counter: hex("000102030405060708090a0b0c0d0eff"), length: 8 }, k, new Uint8Array(32)));
		const want = (await block("000102030405060708090a0b0c0d0eff")) + (await block("000102030405060708090a0b0c0d0e00"));
		return ct === want ? "ok" : ct + " != " + want;`)
	if got != "ok" {
		t.Error(got)
	}
}
