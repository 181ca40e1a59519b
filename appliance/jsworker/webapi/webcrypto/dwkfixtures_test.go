package webcrypto

import (
	"flag"
	"os"
	"testing"
)

var writeFixtures = flag.Bool("webcrypto.write-fixtures", false,
	"write testdata/dwk.json anew (then check it with: node testdata/node-check.mjs)")

// makeDwkFixtures is JavaScript that makes what dwk produces with fresh
// keys: public keys, signatures and ciphertexts of the randomized
// algorithms, and exported private keys, for Node.js to check.
const makeDwkFixtures = `
	const s = crypto.subtle, out = { message: F.message };
	const msg = hex(F.message);
	const exp = async (f, k) => { const v = await s.exportKey(f, k); return f === "jwk" ? v : toHex(v); };
	out.ecdsa = [];
	for (const [namedCurve, hash] of [["P-256", "SHA-256"], ["P-384", "SHA-384"], ["P-521", "SHA-512"]]) {
		const p = await s.generateKey({ name: "ECDSA", namedCurve }, true, ["sign", "verify"]);
		out.ecdsa.push({ namedCurve, hash, spki: await exp("spki", p.publicKey), raw: await exp("raw", p.publicKey), private_jwk: await exp("jwk", p.privateKey),
			signature: toHex(await s.sign({ name: "ECDSA", hash }, p.privateKey, msg)) });
	}
	{
		const p = await s.generateKey("Ed25519", true, ["sign", "verify"]);
		out.ed25519 = { spki: await exp("spki", p.publicKey), pkcs8: await exp("pkcs8", p.privateKey), private_jwk: await exp("jwk", p.privateKey),
			signature: toHex(await s.sign("Ed25519", p.privateKey, msg)) };
	}
	out.rsa = [];
	for (const [name, hash, params] of [["RSASSA-PKCS1-v1_5", "SHA-256", { name: "RSASSA-PKCS1-v1_5" }], ["RSA-PSS", "SHA-256", { name: "RSA-PSS", saltLength: 32 }],
		["RSA-OAEP", "SHA-256", { name: "RSA-OAEP", label: utf8("label") }]]) {
		const oaep = name === "RSA-OAEP";
		const p = await s.generateKey({ name, hash, modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]) }, true, oaep ? ["encrypt", "decrypt"] : ["sign", "verify"]);
		const f = { name, hash, params: { ...params, label: params.label && toHex(params.label) }, spki: await exp("spki", p.publicKey), pkcs8: await exp("pkcs8", p.privateKey), private_jwk: await exp("jwk", p.privateKey) };
		if (oaep) f.ciphertext = toHex(await s.encrypt(params, p.publicKey, msg));
		else f.signature = toHex(await s.sign(params, p.privateKey, msg));
		out.rsa.push(f);
	}
	out.agreement = [];
	for (const alg of [{ name: "ECDH", namedCurve: "P-256" }, { name: "ECDH", namedCurve: "P-521" }, { name: "X25519" }]) {
		const a = await s.generateKey(alg, true, ["deriveBits"]);
		const b = await s.generateKey(alg, true, ["deriveBits"]);
		out.agreement.push({ alg, a_pkcs8: await exp("pkcs8", a.privateKey), b_raw: await exp("raw", b.publicKey), b_jwk: await exp("jwk", b.privateKey),
			bits: toHex(await s.deriveBits({ name: alg.name, public: b.publicKey }, a.privateKey, null)) });
	}
	{
		const k = await s.generateKey({ name: "AES-GCM", length: 256 }, true, ["encrypt", "decrypt"]);
		const iv = crypto.getRandomValues(new Uint8Array(16));
		out.aesgcm = { jwk: await exp("jwk", k), iv: toHex(iv), tagLength: 64, ciphertext: toHex(await s.encrypt({ name: "AES-GCM", iv, tagLength: 64 }, k, msg)) };
		const kek = await s.generateKey({ name: "AES-KW", length: 192 }, true, ["wrapKey", "unwrapKey"]);
		out.aeskw = { kek: await exp("raw", kek), key: await exp("raw", k), wrapped: toHex(await s.wrapKey("raw", k, kek, "AES-KW")) };
	}
	return JSON.stringify(out, null, 1);`

// checkDwkFixtures is JavaScript that checks, with D the fixtures, that
// dwk still imports its committed keys and verifies and decrypts what it
// produced (Node.js checked the same with testdata/node-check.mjs).
const checkDwkFixtures = `
	const s = crypto.subtle, msg = hex(D.message), bad = [];
	for (const f of D.ecdsa) {
		const alg = { name: "ECDSA", namedCurve: f.namedCurve };
		const pub = await s.importKey("spki", hex(f.spki), alg, false, ["verify"]);
		if (!await s.verify({ name: "ECDSA", hash: f.hash }, pub, hex(f.signature), msg)) bad.push("ECDSA " + f.namedCurve);
		await s.importKey("jwk", f.private_jwk, alg, false, ["sign"]);
	}
	{
		const pub = await s.importKey("spki", hex(D.ed25519.spki), "Ed25519", false, ["verify"]);
		if (!await s.verify("Ed25519", pub, hex(D.ed25519.signature), msg)) bad.push("Ed25519");
	}
	for (const f of D.rsa) {
		const alg = { name: f.name, hash: f.hash };
		const params = { ...f.params, label: f.params.label && hex(f.params.label) };
		if (f.ciphertext) {
			const priv = await s.importKey("jwk", f.private_jwk, alg, false, ["decrypt"]);
			if (toHex(await s.decrypt(params, priv, hex(f.ciphertext))) !== D.message) bad.push(f.name);
		} else {
			const pub = await s.importKey("spki", hex(f.spki), alg, false, ["verify"]);
			if (!await s.verify(params, pub, hex(f.signature), msg)) bad.push(f.name);
		}
	}
	for (const f of D.agreement) {
		const priv = await s.importKey("pkcs8", hex(f.a_pkcs8), f.alg, false, ["deriveBits"]);
		const pub = await s.importKey("raw", hex(f.b_raw), f.alg, false, []);
		if (toHex(await s.deriveBits({ name: f.alg.name, public: pub }, priv, null)) !== f.bits) bad.push(f.alg.name + " " + f.alg.namedCurve);
	}
	{
		const k = await s.importKey("jwk", D.aesgcm.jwk, "AES-GCM", false, ["decrypt"]);
		if (toHex(await s.decrypt({ name: "AES-GCM", iv: hex(D.aesgcm.iv), tagLength: D.aesgcm.tagLength }, k, hex(D.aesgcm.ciphertext))) !== D.message) bad.push("AES-GCM");
		const kek = await s.importKey("raw", hex(D.aeskw.kek), "AES-KW", false, ["unwrapKey"]);
		const inner = await s.unwrapKey("raw", hex(D.aeskw.wrapped), kek, "AES-KW", "AES-GCM", true, ["encrypt"]);
		if (toHex(await s.exportKey("raw", inner)) !== D.aeskw.key) bad.push("AES-KW");
	}
	return bad.join(", ") || "ok";`

// TestDwkFixtures checks dwk against testdata/dwk.json, what dwk made and
// Node.js verified; with -webcrypto.write-fixtures it writes the file anew.
func TestDwkFixtures(t *testing.T) {
	iso := newIsolate(t)
	if *writeFixtures {
		out := evalString(t, iso, makeDwkFixtures)
		if err := os.WriteFile("testdata/dwk.json", []byte(out+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		t.Log("wrote testdata/dwk.json: check it with node testdata/node-check.mjs")
	}
	b, err := os.ReadFile("testdata/dwk.json")
	if err != nil {
		t.Fatal(err)
	}
	if got := evalString(t, iso, `const D = `+string(b)+`;`+checkDwkFixtures); got != "ok" {
		t.Errorf("dwk no longer checks its own fixtures: %s", got)
	}
}
