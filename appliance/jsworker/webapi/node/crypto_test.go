package node_test

import (
	"crypto"
	"crypto/aes"
	"crypto/cipher"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"crypto/x509"
	"encoding/base64"
	"encoding/hex"
	"encoding/pem"
	"math/big"
	"testing"

	"github.com/dwk/fleet/appliance/jsworker/jsrt/jsrttest"
	"github.com/dwk/fleet/appliance/jsworker/webapi/node"
)

const importCrypto = `const crypto = __dwk_import("node:crypto");`

func TestHashes(t *testing.T) {
	iso := newIsolate(t)
	for _, tc := range []struct{ algorithm, input, want string }{
		{"md5", "", "d41d8cd98f00b204e9800998ecf8427e"},
		{"md5", "abc", "900150983cd24fb0d6963f7d28e17f72"},
		{"sha1", "abc", "a9993e364706816aba3e25717850c26c9cd0d89d"},
		{"SHA256", "abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"},
		{"RSA-SHA256", "", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"},
		{"sha384", "abc", "cb00753f45a35e8bb5a03d699ac65007272c32ab0eded1631a8b605a43ff5bed8086072ba1e7cc2358baeca134c825a7"},
		{"sha512", "abc", "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f"},
		{"sha3-256", "abc", "3a985da74fe225b2045c172d6bd390bd855f086e3e9d525b46bfe24511431532"},
		{"ripemd160", "abc", "8eb208f7e05d987a9b044a8e98c6b087f15a0bfc"},
	} {
		t.Run(tc.algorithm+" "+tc.input, func(t *testing.T) {
			got := mustEvalString(t, iso, importCrypto+`return crypto.createHash(`+quote(tc.algorithm)+`).update(`+quote(tc.input)+`).digest("hex")`)
			if got != tc.want {
				t.Errorf("got %s, want %s", got, tc.want)
			}
		})
	}
	runCases(t, iso, []evalCase{
		{"updates in pieces and encodings", importCrypto + `return crypto.createHash("sha256").update("a").update(Buffer.from("b")).update("63", "hex").digest("hex")`, `"ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"`},
		{"digest encodings", importCrypto + `const d = () => crypto.createHash("md5").update("abc"); return [d().digest("base64"), d().digest("base64url"), d().digest().length, d().digest("latin1").length]`,
			`["kAFQmDzST7DWlj99KOF/cg==","kAFQmDzST7DWlj99KOF_cg",16,16]`},
		{"copy", importCrypto + `const h = crypto.createHash("sha256").update("a"); const c = h.copy(); h.update("bc"); c.update("bc"); return h.digest("hex") === c.digest("hex")`, `true`},
		{"one-shot hash", importCrypto + `return [crypto.hash("sha1", "abc"), crypto.hash("md5", "abc", "base64"), crypto.hash("md5", "abc", "buffer").length]`, `["a9993e364706816aba3e25717850c26c9cd0d89d","kAFQmDzST7DWlj99KOF/cg==",16]`},
		{"hmac RFC 4231 case 2", importCrypto + `return crypto.createHmac("sha256", "Jefe").update("what do ya want for nothing?").digest("hex")`, `"5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"`},
		{"hmac with a KeyObject", importCrypto + `return crypto.createHmac("sha256", crypto.createSecretKey(Buffer.from("Jefe"))).update("what do ya want for nothing?").digest("hex").slice(0, 8)`, `"5bdcc146"`},
		{"hash as a stream", importCrypto + `const h = crypto.createHash("sha1"); h.setEncoding("hex"); h.end("abc"); return await new Promise(r => h.on("data", r))`, `"a9993e364706816aba3e25717850c26c9cd0d89d"`},
		{"getHashes", importCrypto + `const h = crypto.getHashes(); return ["md5", "sha1", "sha256", "sha512"].every(n => h.includes(n))`, `true`},
		{"timingSafeEqual", importCrypto + `return [crypto.timingSafeEqual(Buffer.from("ab"), Buffer.from("ab")), crypto.timingSafeEqual(new Uint8Array([1]), new Uint8Array([2]))]`, `[true,false]`},
	})
	runErrorCases(t, iso, []errorCase{
		{"unknown digest", importCrypto + `crypto.createHash("sha999")`, "Error", `Digest method not supported: "sha999"`},
		{"digest twice", importCrypto + `const h = crypto.createHash("md5"); h.digest(); h.digest()`, "Error", "Digest already called"},
		{"update after digest", importCrypto + `const h = crypto.createHash("md5"); h.digest(); h.update("x")`, "Error", "Digest already called"},
		{"update with a number", importCrypto + `crypto.createHash("md5").update(1)`, "TypeError", `The "data" argument must be of type string`},
		{"timingSafeEqual of different lengths", importCrypto + `crypto.timingSafeEqual(Buffer.alloc(1), Buffer.alloc(2))`, "RangeError", "Input buffers must have the same byte length"},
	})
}

func TestRandom(t *testing.T) {
	iso := newIsolate(t)
	runCases(t, iso, []evalCase{
		{"randomBytes", importCrypto + `const a = crypto.randomBytes(16), b = crypto.randomBytes(16); return [a.length, a instanceof Buffer, a.equals(b)]`, `[16,true,false]`},
		{"randomBytes with a callback", importCrypto + `return await new Promise(r => crypto.randomBytes(8, (err, buf) => r([err, buf.length])))`, `[null,8]`},
		{"randomFillSync of a range", importCrypto + `const b = Buffer.alloc(64); crypto.randomFillSync(b, 8, 8); return [b.subarray(0, 8).every(x => x === 0), b.subarray(16).every(x => x === 0), b.subarray(8, 16).some(x => x !== 0)]`, `[true,true,true]`},
		{"randomFillSync of a Uint32Array counts elements", importCrypto + `const a = new Uint32Array(4); crypto.randomFillSync(a, 1, 2); return [a[0], a[3]]`, `[0,0]`},
		{"randomInt in range", importCrypto + `const seen = new Set(); for (let k = 0; k < 200; k++) { const n = crypto.randomInt(3, 6); if (n < 3 || n >= 6 || !Number.isInteger(n)) return n; seen.add(n); } return [...seen].sort()`, `[3,4,5]`},
		{"randomInt with only max", importCrypto + `const n = crypto.randomInt(1); return n`, `0`},
		{"randomUUID", importCrypto + `const u = crypto.randomUUID(); return [/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/.test(u), u === crypto.randomUUID()]`, `[true,false]`},
		{"getRandomValues", importCrypto + `const a = new Uint8Array(32); return crypto.getRandomValues(a) === a && a.some(x => x !== 0)`, `true`},
	})
	runErrorCases(t, iso, []errorCase{
		{"randomInt max <= min", importCrypto + `crypto.randomInt(5, 5)`, "RangeError", `The value of "max" is out of range`},
		{"randomInt range too wide", importCrypto + `crypto.randomInt(0, 2 ** 49)`, "RangeError", `The value of "max - min" is out of range`},
		{"randomBytes negative", importCrypto + `crypto.randomBytes(-1)`, "RangeError", `The value of "size" is out of range`},
	})
}

func TestKeyDerivation(t *testing.T) {
	iso := newIsolate(t)
	runCases(t, iso, []evalCase{
		{"pbkdf2Sync RFC 6070", importCrypto + `return crypto.pbkdf2Sync("password", "salt", 4096, 20, "sha1").toString("hex")`, `"4b007901b765489abead49d926f721d065a429c1"`},
		{"pbkdf2 with a callback", importCrypto + `return await new Promise((res, rej) => crypto.pbkdf2("password", "salt", 2, 20, "sha1", (e, k) => e ? rej(e) : res(k.toString("hex"))))`, `"ea6c014dc72d6f8ccd1ed92ace1d41f0d8de8957"`},
		{"hkdfSync RFC 5869 case 1", importCrypto + `const k = crypto.hkdfSync("sha256", Buffer.alloc(22, 0x0b), Buffer.from("000102030405060708090a0b0c", "hex"), Buffer.from("f0f1f2f3f4f5f6f7f8f9", "hex"), 42);
			return [k instanceof ArrayBuffer, Buffer.from(k).toString("hex")]`, `[true,"3cb25f25faacd57a90434f64d0362f2a2d2d0a90cf1a5a4c5db02d56ecc4c5bf34007208d5b887185865"]`},
		{"hkdf with a callback", importCrypto + `return await new Promise(r => crypto.hkdf("sha256", "key", "", "", 4, (e, k) => r(k.byteLength)))`, `4`},
		{"scryptSync RFC 7914", importCrypto + `return crypto.scryptSync("password", "NaCl", 64, { N: 1024, r: 8, p: 16 }).toString("hex")`,
			`"fdbabe1c9d3472007856e7190d01e9fe7c6ad7cbc8237830e77376634b3731622eaf30d92e22a3886ff109279d9830dac727afb94a83ee6d8360cbdfa2cc0640"`},
		{"scrypt with a callback", importCrypto + `return await new Promise(r => crypto.scrypt("pw", "salt", 8, (e, k) => r([e, k.length])))`, `[null,8]`},
		{"zero-length keys", importCrypto + `return [crypto.pbkdf2Sync("a", "b", 1, 0, "sha256").length, crypto.hkdfSync("sha256", "a", "b", "c", 0).byteLength, crypto.scryptSync("a", "b", 0).length]`, `[0,0,0]`},
	})
	runErrorCases(t, iso, []errorCase{
		{"pbkdf2 without a digest", importCrypto + `crypto.pbkdf2Sync("p", "s", 1, 20)`, "TypeError", `The "digest" argument must be of type string`},
		{"pbkdf2 with an unknown digest", importCrypto + `crypto.pbkdf2Sync("p", "s", 1, 20, "md99")`, "TypeError", "Invalid digest: md99"},
		{"pbkdf2 with zero iterations", importCrypto + `crypto.pbkdf2Sync("p", "s", 0, 20, "sha1")`, "RangeError", `The value of "iterations" is out of range`},
		{"scrypt over maxmem", importCrypto + `crypto.scryptSync("p", "s", 8, { N: 2 ** 20 })`, "RangeError", "Invalid scrypt params"},
		{"scrypt N not a power of two", importCrypto + `crypto.scryptSync("p", "s", 8, { N: 1000 })`, "RangeError", "Invalid scrypt params"},
		{"hkdf too long", importCrypto + `crypto.hkdfSync("sha256", "k", "", "", 255 * 32 + 1)`, "RangeError", "Invalid key length"},
		{"pbkdf2 callback rejection", importCrypto + `await new Promise((res, rej) => crypto.pbkdf2("p", "s", 1, 20, "sha1", 5))`, "TypeError", `The "callback" argument must be of type function`},
	})
}

func TestCiphers(t *testing.T) {
	iso := newIsolate(t)
	runCases(t, iso, []evalCase{
		{"aes-128-cbc SP 800-38A F.2.1", importCrypto + `const c = crypto.createCipheriv("aes-128-cbc", Buffer.from("2b7e151628aed2a6abf7158809cf4f3c", "hex"), Buffer.from("000102030405060708090a0b0c0d0e0f", "hex")).setAutoPadding(false);
			return c.update("6bc1bee22e409f96e93d7e117393172a", "hex", "hex") + c.final("hex")`, `"7649abac8119b246cee98e9b12e9197d"`},
		{"aes-128-ctr SP 800-38A F.5.1", importCrypto + `const c = crypto.createCipheriv("aes-128-ctr", Buffer.from("2b7e151628aed2a6abf7158809cf4f3c", "hex"), Buffer.from("f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff", "hex"));
			return c.update(Buffer.from("6bc1bee22e409f96e93d7e117393172a", "hex")).toString("hex") + c.final("hex")`, `"874d6191b620e3261bef6864990db6ce"`},
		{"aes-128-gcm test case 4", importCrypto + `const c = crypto.createCipheriv("aes-128-gcm", Buffer.from("feffe9928665731c6d6a8f9467308308", "hex"), Buffer.from("cafebabefacedbaddecaf888", "hex"));
			c.setAAD(Buffer.from("feedfacedeadbeeffeedfacedeadbeefabaddad2", "hex"));
			const p = Buffer.from("d9313225f88406e5a55909c5aff5269a86a7a9531534f7da2e4c303d8a318a721c3c0c95956809532fcf0e2449a6b525b16aedf5aa0de657ba637b39", "hex");
			const ct = Buffer.concat([c.update(p.subarray(0, 7)), c.update(p.subarray(7)), c.final()]);
			return [ct.toString("hex"), c.getAuthTag().toString("hex")]`,
			`["42831ec2217774244b7221b784d0d49ce3aa212f2c02a4e035c17e2329aca12e21d514b25466931c7d8f6a5aac84aa051ba30b396a0aac973d58e091","5bc94fbc3221a5db94fae95ae7121a47"]`},
		{"cbc round trip with padding", importCrypto + `const key = crypto.randomBytes(32), iv = crypto.randomBytes(16);
			const c = crypto.createCipheriv("aes-256-cbc", key, iv); const ct = c.update("attack at dawn, attack at dawn!!", "utf8", "base64") + c.final("base64");
			const d = crypto.createDecipheriv("aes-256-cbc", key, iv); return [Buffer.from(ct, "base64").length, d.update(ct, "base64", "utf8") + d.final("utf8")]`, `[48,"attack at dawn, attack at dawn!!"]`},
		{"ecb round trip", importCrypto + `const key = Buffer.alloc(16, 1); const c = crypto.createCipheriv("aes-128-ecb", key, null); const ct = Buffer.concat([c.update("x"), c.final()]);
			const d = crypto.createDecipheriv("aes-128-ecb", key, null); return Buffer.concat([d.update(ct), d.final()]).toString()`, `"x"`},
		{"decipher update splits no characters", importCrypto + `const key = Buffer.alloc(16), iv = Buffer.alloc(16); const c = crypto.createCipheriv("aes-128-ctr", key, iv); const ct = c.update("€€");
			const d = crypto.createDecipheriv("aes-128-ctr", key, iv); return [d.update(ct.subarray(0, 4), undefined, "utf8"), d.update(ct.subarray(4), undefined, "utf8")]`, `["€","€"]`},
		{"cipher as a stream", importCrypto + `const { pipeline, Readable, Writable } = __dwk_import("node:stream"); const key = Buffer.alloc(16, 7), iv = Buffer.alloc(16, 9); const out = [];
			await new Promise((res, rej) => pipeline(Readable.from([Buffer.from("hello "), Buffer.from("streams")]), crypto.createCipheriv("aes-128-cbc", key, iv), crypto.createDecipheriv("aes-128-cbc", key, iv),
				new Writable({ write(c, e, cb) { out.push(c); cb(); } }), e => e ? rej(e) : res()));
			return Buffer.concat(out).toString()`, `"hello streams"`},
		{"getCiphers", importCrypto + `const c = crypto.getCiphers(); return ["aes-256-gcm", "aes-128-cbc", "aes-192-ctr", "aes256"].every(n => c.includes(n))`, `true`},
	})
	runErrorCases(t, iso, []errorCase{
		{"unknown cipher", importCrypto + `crypto.createCipheriv("des-ede3-cbc", Buffer.alloc(24), Buffer.alloc(8))`, "Error", `Unknown cipher "des-ede3-cbc"`},
		{"wrong key length", importCrypto + `crypto.createCipheriv("aes-256-cbc", Buffer.alloc(16), Buffer.alloc(16))`, "RangeError", "Invalid key length: aes-256-cbc takes a 32-byte key, not 16 bytes"},
		{"wrong iv length", importCrypto + `crypto.createCipheriv("aes-128-cbc", Buffer.alloc(16), Buffer.alloc(12))`, "TypeError", "Invalid initialization vector"},
		{"bad padding", importCrypto + `const d = crypto.createDecipheriv("aes-128-cbc", Buffer.alloc(16), Buffer.alloc(16)); d.update(Buffer.alloc(16)); d.final()`, "Error", "bad decrypt"},
		{"gcm with a wrong tag", importCrypto + `const key = Buffer.alloc(16), iv = Buffer.alloc(12); const c = crypto.createCipheriv("aes-128-gcm", key, iv); const ct = Buffer.concat([c.update("secret"), c.final()]);
			const d = crypto.createDecipheriv("aes-128-gcm", key, iv); d.setAuthTag(Buffer.alloc(16)); d.update(ct); d.final()`, "Error", "Unsupported state or unable to authenticate data"},
		{"gcm without a tag", importCrypto + `const d = crypto.createDecipheriv("aes-128-gcm", Buffer.alloc(16), Buffer.alloc(12)); d.update(Buffer.alloc(4)); d.final()`, "Error", "Unsupported state or unable to authenticate data"},
		{"update after final", importCrypto + `const c = crypto.createCipheriv("aes-128-ctr", Buffer.alloc(16), Buffer.alloc(16)); c.final(); c.update("x")`, "Error", "Invalid state for operation update"},
	})
}

// TestGCMAgainstGo checks the streaming GCM against Go's AEAD for IVs of
// several lengths (the counter of a 12-byte IV and GHASH's for others),
// fed in uneven pieces, with AAD and truncated tags.
func TestGCMAgainstGo(t *testing.T) {
	iso := newIsolate(t)
	key := make([]byte, 32)
	rand.Read(key)
	plain := make([]byte, 1000)
	rand.Read(plain)
	aad := []byte("additional data")
	for _, ivLen := range []int{12, 8, 16, 60} {
		iv := make([]byte, ivLen)
		rand.Read(iv)
		block, _ := aes.NewCipher(key)
		aead, err := cipher.NewGCMWithNonceSize(block, ivLen)
		if err != nil {
			t.Fatal(err)
		}
		sealed := aead.Seal(nil, iv, plain, aad)
		want := hex.EncodeToString(sealed[:len(plain)]) + " " + hex.EncodeToString(sealed[len(plain):len(plain)+12])
		got := mustEvalString(t, iso, importCrypto+`
			const key = Buffer.from("`+hex.EncodeToString(key)+`", "hex"), iv = Buffer.from("`+hex.EncodeToString(iv)+`", "hex");
			const plain = Buffer.from("`+hex.EncodeToString(plain)+`", "hex"), aad = Buffer.from("`+string(aad)+`");
			const c = crypto.createCipheriv("aes-256-gcm", key, iv, { authTagLength: 12 }); c.setAAD(aad);
			const parts = []; for (let k = 0; k < plain.length; k += 333) parts.push(c.update(plain.subarray(k, k + 333)));
			parts.push(c.final()); const ct = Buffer.concat(parts); const tag = c.getAuthTag();
			const d = crypto.createDecipheriv("aes-256-gcm", key, iv, { authTagLength: 12 }); d.setAAD(aad); d.setAuthTag(tag);
			const back = Buffer.concat([d.update(ct.subarray(0, 1)), d.update(ct.subarray(1)), d.final()]);
			if (!back.equals(plain)) throw new Error("round trip failed");
			return ct.toString("hex") + " " + tag.toString("hex");`)
		if got != want {
			t.Errorf("iv of %d bytes:\ngot  %.80s\nwant %.80s", ivLen, got, want)
		}
	}
}

// TestSignAndVerify signs in JavaScript and verifies in Go, and the other
// way round, for RSA, ECDSA and Ed25519 keys read from PEM.
func TestSignAndVerify(t *testing.T) {
	iso := newIsolate(t)
	rsaKey, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	ecKey, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	_, edKey, _ := ed25519.GenerateKey(rand.Reader)
	pemOf := func(typ string, der []byte) string {
		return string(pem.EncodeToMemory(&pem.Block{Type: typ, Bytes: der}))
	}
	pkcs8 := func(k any) string {
		der, err := x509.MarshalPKCS8PrivateKey(k)
		if err != nil {
			t.Fatal(err)
		}
		return pemOf("PRIVATE KEY", der)
	}
	spki := func(k any) string {
		der, err := x509.MarshalPKIXPublicKey(k)
		if err != nil {
			t.Fatal(err)
		}
		return pemOf("PUBLIC KEY", der)
	}
	message := []byte("the message")
	digest := sha256.Sum256(message)
	b64 := base64.StdEncoding

	// JavaScript signs, Go verifies.
	sig := mustEvalString(t, iso, importCrypto+`return crypto.createSign("RSA-SHA256").update("the ").update("message").sign(`+quote(pemOf("RSA PRIVATE KEY", x509.MarshalPKCS1PrivateKey(rsaKey)))+`, "base64")`)
	raw, _ := b64.DecodeString(sig)
	if err := rsa.VerifyPKCS1v15(&rsaKey.PublicKey, crypto.SHA256, digest[:], raw); err != nil {
		t.Errorf("RSA PKCS#1 v1.5 signature from JavaScript: %v", err)
	}
	sig = mustEvalString(t, iso, importCrypto+`return crypto.sign("sha256", Buffer.from("the message"), { key: `+quote(pkcs8(rsaKey))+`, padding: crypto.constants.RSA_PKCS1_PSS_PADDING, saltLength: 32 }).toString("base64")`)
	raw, _ = b64.DecodeString(sig)
	if err := rsa.VerifyPSS(&rsaKey.PublicKey, crypto.SHA256, digest[:], raw, &rsa.PSSOptions{SaltLength: 32}); err != nil {
		t.Errorf("RSA PSS signature from JavaScript: %v", err)
	}
	sig = mustEvalString(t, iso, importCrypto+`return crypto.sign("sha256", Buffer.from("the message"), { key: `+quote(pkcs8(ecKey))+`, dsaEncoding: "ieee-p1363" }).toString("base64")`)
	raw, _ = b64.DecodeString(sig)
	if len(raw) != 64 {
		t.Errorf("ECDSA P-256 signature in IEEE P1363 form has %d bytes, want 64", len(raw))
	} else if !ecdsa.Verify(&ecKey.PublicKey, digest[:], new(big.Int).SetBytes(raw[:32]), new(big.Int).SetBytes(raw[32:])) {
		t.Error("ECDSA signature from JavaScript does not verify")
	}
	sig = mustEvalString(t, iso, importCrypto+`return crypto.sign(null, Buffer.from("the message"), `+quote(pkcs8(edKey))+`).toString("base64")`)
	raw, _ = b64.DecodeString(sig)
	if !ed25519.Verify(edKey.Public().(ed25519.PublicKey), message, raw) {
		t.Error("Ed25519 signature from JavaScript does not verify")
	}

	// Go signs, JavaScript verifies.
	rsaSig, _ := rsa.SignPKCS1v15(rand.Reader, rsaKey, crypto.SHA256, digest[:])
	ecSig, _ := ecdsa.SignASN1(rand.Reader, ecKey, digest[:])
	edSig := ed25519.Sign(edKey, message)
	cert := selfSigned(t, ecKey)
	runCases(t, iso, []evalCase{
		{"rsa", importCrypto + `const sig = Buffer.from("` + b64.EncodeToString(rsaSig) + `", "base64");
			return [crypto.createVerify("SHA256").update("the message").verify(` + quote(spki(&rsaKey.PublicKey)) + `, sig), crypto.verify("sha256", Buffer.from("other"), ` + quote(spki(&rsaKey.PublicKey)) + `, sig)]`, `[true,false]`},
		{"ecdsa from the private key and a certificate", importCrypto + `const sig = "` + b64.EncodeToString(ecSig) + `";
			return [crypto.createVerify("sha256").update("the message").verify(` + quote(pkcs8(ecKey)) + `, sig, "base64"), crypto.verify("sha256", Buffer.from("the message"), ` + quote(cert) + `, Buffer.from(sig, "base64"))]`, `[true,true]`},
		{"ed25519", importCrypto + `return crypto.verify(null, Buffer.from("the message"), ` + quote(spki(edKey.Public())) + `, Buffer.from("` + b64.EncodeToString(edSig) + `", "base64"))`, `true`},
		{"key objects", importCrypto + `const priv = crypto.createPrivateKey(` + quote(pkcs8(rsaKey)) + `); const pub = crypto.createPublicKey(priv);
			const again = crypto.createPublicKey(pub.export({ type: "pkcs1", format: "pem" }));
			return [priv.type, pub.type, priv.asymmetricKeyType, priv.asymmetricKeyDetails.modulusLength, pub.equals(again), __dwk_import("node:util").types.isKeyObject(pub), pub.export({ format: "jwk" }).kty]`,
			`["private","public","rsa",2048,true,true,"RSA"]`},
		{"jwk round trip", importCrypto + `const priv = crypto.createPrivateKey(` + quote(pkcs8(ecKey)) + `); const jwk = priv.export({ format: "jwk" });
			const back = crypto.createPrivateKey({ key: jwk, format: "jwk" }); const sig = crypto.sign("sha256", Buffer.from("m"), back);
			return [jwk.crv, crypto.verify("sha256", Buffer.from("m"), priv, sig), back.asymmetricKeyDetails.namedCurve]`, `["P-256",true,"prime256v1"]`},
		{"secret key", importCrypto + `const k = crypto.createSecretKey("abc", "utf8"); return [k.type, k.symmetricKeySize, k.export().toString(), k.export({ format: "jwk" }).k]`, `["secret",3,"abc","YWJj"]`},
		{"generateKeyPairSync with encodings", importCrypto + `const { publicKey, privateKey } = crypto.generateKeyPairSync("ed25519", { publicKeyEncoding: { type: "spki", format: "pem" }, privateKeyEncoding: { type: "pkcs8", format: "pem" } });
			return [publicKey.startsWith("-----BEGIN PUBLIC KEY-----"), crypto.verify(null, Buffer.from("x"), publicKey, crypto.sign(null, Buffer.from("x"), privateKey))]`, `[true,true]`},
		{"generateKeyPair with a callback", importCrypto + `return await new Promise(r => crypto.generateKeyPair("ec", { namedCurve: "secp384r1" }, (e, pub, priv) => r([e, pub.asymmetricKeyDetails.namedCurve, priv.type])))`, `[null,"secp384r1","private"]`},
	})
	runErrorCases(t, iso, []errorCase{
		{"sign with a public key", importCrypto + `crypto.sign("sha256", Buffer.from("x"), ` + quote(spki(&rsaKey.PublicKey)) + `)`, "TypeError", "a private key is needed"},
		{"garbage key", importCrypto + `crypto.createPrivateKey("not a key")`, "TypeError", "unsupported key: no PEM block found"},
		{"JWK with a bad modulus", importCrypto + `crypto.createPublicKey({ key: { kty: "RSA", n: "AQ", e: "AQAB" }, format: "jwk" })`, "TypeError", `JWK RSA key: "n" or "e" is missing or invalid`},
		{"JWK off the curve", importCrypto + `crypto.createPublicKey({ key: { kty: "EC", crv: "P-256", x: "AQ", y: "AQ" }, format: "jwk" })`, "TypeError", "are not a point of P-256"},
		{"RSA too large to generate", importCrypto + `crypto.generateKeyPairSync("rsa", { modulusLength: 65536 })`, "RangeError", "modulusLength must be from 1024 to 16384 bits"},
		{"encrypted key", importCrypto + `crypto.createPrivateKey("-----BEGIN ENCRYPTED PRIVATE KEY-----\nAAAA\n-----END ENCRYPTED PRIVATE KEY-----\n")`, "TypeError", "the key is encrypted"},
		{"unsupported function", importCrypto + `crypto.createECDH("prime256v1")`, "Error", "dwk does not support crypto.createECDH"},
	})
}

func selfSigned(t *testing.T, key *ecdsa.PrivateKey) string {
	t.Helper()
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1)}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	return string(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}))
}

// TestWebcryptoIsTheGlobal checks that crypto.webcrypto and subtle are
// looked up when used.
func TestWebcryptoIsTheGlobal(t *testing.T) {
	iso := jsrttest.New(t, node.Extension)
	runCases(t, iso, []evalCase{
		{"without a global crypto", importCrypto + `return [crypto.webcrypto === undefined, crypto.subtle === undefined]`, `[true,true]`},
		{"after one is defined", importCrypto + `globalThis.crypto = { subtle: {} }; return [crypto.webcrypto === globalThis.crypto, crypto.subtle === globalThis.crypto.subtle]`, `[true,true]`},
	})
}
