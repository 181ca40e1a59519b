package webcrypto

import "testing"

// X25519 from RFC 7748 section 6.1: Alice's and Bob's keys and their
// shared secret.
func TestX25519KnownAnswer(t *testing.T) {
	const (
		alicePriv = "77076d0a7318a57d3c16c17251b26645df4c2f87ebc0992ab177fba51db92c2a"
		alicePub  = "8520f0098930a754748b7ddcb43ef75a0dbf3a0d26381af4eba4a98eaa9b4e6a"
		bobPriv   = "5dab087e624a8a4b79e17f8b83800ee66f3bb1292618b6fd1c2f8b27ff88e0eb"
		bobPub    = "de9edb7d7b7dc1b4d35b61c2ece435373f8343c85b78674dadfc7e146f882b4f"
		shared    = "4a5d9d5ba4ce2de1728e3bf480350f25e07e21c947d19e3376f09b3c1e161742"
	)
	runCases(t, newIsolate(t), []evalCase{
		{"both sides",
			`const priv = (d, x) => crypto.subtle.importKey("jwk", { kty: "OKP", crv: "X25519", d: toB64url(hex(d)), x: toB64url(hex(x)) }, "X25519", false, ["deriveBits"]);
			const pub = (x) => crypto.subtle.importKey("raw", hex(x), "X25519", false, []);
			const a = await crypto.subtle.deriveBits({ name: "X25519", public: await pub("` + bobPub + `") }, await priv("` + alicePriv + `", "` + alicePub + `"), 256);
			const b = await crypto.subtle.deriveBits({ name: "X25519", public: await pub("` + alicePub + `") }, await priv("` + bobPriv + `", "` + bobPub + `"), null);
			return [toHex(a), toHex(b)];`,
			`["` + shared + `","` + shared + `"]`},
		{"a small-order public key",
			`const { privateKey } = await crypto.subtle.generateKey("X25519", false, ["deriveBits"]);
			const zero = await crypto.subtle.importKey("raw", new Uint8Array(32), "X25519", false, []);
			return errorOf(crypto.subtle.deriveBits({ name: "X25519", public: zero }, privateKey, 256));`,
			`"OperationError"`},
	})
}

func TestAgreement(t *testing.T) {
	runCases(t, newIsolate(t), []evalCase{
		{"Node.js's shared bits from either side",
			`const r = [];
			for (const f of F.agreement) {
				const alg = f.namedCurve ? { name: f.name, namedCurve: f.namedCurve } : { name: f.name };
				const aPriv = await crypto.subtle.importKey("pkcs8", hex(f.a.private_pkcs8), alg, false, ["deriveBits"]);
				const bPriv = await crypto.subtle.importKey("jwk", f.b.private_jwk, alg, false, ["deriveBits"]);
				const aPub = await crypto.subtle.importKey("raw", hex(f.a.public_raw), alg, false, []);
				const bPub = await crypto.subtle.importKey("spki", hex(f.b.public_spki), alg, false, []);
				r.push(toHex(await crypto.subtle.deriveBits({ name: f.name, public: bPub }, aPriv, null)) === f.bits,
					toHex(await crypto.subtle.deriveBits({ name: f.name, public: aPub }, bPriv)) === f.bits);
			}
			return r;`,
			`[true,true,true,true,true,true,true,true]`},
		{"generated pairs agree, and deriveKey",
			`const r = [];
			for (const alg of [{ name: "ECDH", namedCurve: "P-256" }, { name: "ECDH", namedCurve: "P-384" }, { name: "ECDH", namedCurve: "P-521" }, { name: "X25519" }]) {
				const a = await crypto.subtle.generateKey(alg, false, ["deriveKey", "deriveBits"]);
				const b = await crypto.subtle.generateKey(alg, false, ["deriveKey", "deriveBits"]);
				const ab = await crypto.subtle.deriveBits({ name: alg.name, public: b.publicKey }, a.privateKey, null);
				const ba = await crypto.subtle.deriveBits({ name: alg.name, public: a.publicKey }, b.privateKey, null);
				const k = await crypto.subtle.deriveKey({ name: alg.name, public: b.publicKey }, a.privateKey, { name: "AES-GCM", length: 128 }, true, ["encrypt"]);
				r.push([ab.byteLength, toHex(ab) === toHex(ba), toHex(await crypto.subtle.exportKey("raw", k)) === toHex(ab).slice(0, 32), a.publicKey.usages, a.privateKey.usages]);
			}
			return r;`,
			`[[32,true,true,[],["deriveKey","deriveBits"]],[48,true,true,[],["deriveKey","deriveBits"]],[66,true,true,[],["deriveKey","deriveBits"]],[32,true,true,[],["deriveKey","deriveBits"]]]`},
		{"a length that is not whole bytes",
			`const f = F.agreement[0];
			const alg = { name: "ECDH", namedCurve: "P-256" };
			const priv = await crypto.subtle.importKey("pkcs8", hex(f.a.private_pkcs8), alg, false, ["deriveBits"]);
			const pub = await crypto.subtle.importKey("spki", hex(f.b.public_spki), alg, false, []);
			const bits = new Uint8Array(await crypto.subtle.deriveBits({ name: "ECDH", public: pub }, priv, 100));
			const full = hex(f.bits);
			return [bits.length, toHex(bits.slice(0, 12)) === toHex(full.slice(0, 12)), bits[12] === (full[12] & 0xf0)];`,
			`[13,true,true]`},
		{"more bits than the secret has",
			`const a = await crypto.subtle.generateKey({ name: "ECDH", namedCurve: "P-256" }, false, ["deriveBits"]);
			return errorOf(crypto.subtle.deriveBits({ name: "ECDH", public: a.publicKey }, a.privateKey, 264));`,
			`"OperationError"`},
		{"a public key on another curve",
			`const a = await crypto.subtle.generateKey({ name: "ECDH", namedCurve: "P-256" }, false, ["deriveBits"]);
			const b = await crypto.subtle.generateKey({ name: "ECDH", namedCurve: "P-384" }, false, ["deriveBits"]);
			return errorOf(crypto.subtle.deriveBits({ name: "ECDH", public: b.publicKey }, a.privateKey, null));`,
			`"InvalidAccessError"`},
		{"a private key as the public one",
			`const a = await crypto.subtle.generateKey({ name: "ECDH", namedCurve: "P-256" }, false, ["deriveBits"]);
			return errorOf(crypto.subtle.deriveBits({ name: "ECDH", public: a.privateKey }, a.privateKey, null));`,
			`"InvalidAccessError"`},
		{"a public key of another algorithm",
			`const a = await crypto.subtle.generateKey({ name: "ECDH", namedCurve: "P-256" }, false, ["deriveBits"]);
			const b = await crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, false, ["sign"]);
			return errorOf(crypto.subtle.deriveBits({ name: "ECDH", public: b.publicKey }, a.privateKey, null));`,
			`"InvalidAccessError"`},
		{"no public key",
			`const a = await crypto.subtle.generateKey({ name: "ECDH", namedCurve: "P-256" }, false, ["deriveBits"]);
			return errorOf(crypto.subtle.deriveBits({ name: "ECDH" }, a.privateKey, null));`,
			`"TypeError"`},
		{"a public key that is not a CryptoKey",
			`const a = await crypto.subtle.generateKey({ name: "ECDH", namedCurve: "P-256" }, false, ["deriveBits"]);
			return errorOf(crypto.subtle.deriveBits({ name: "ECDH", public: {} }, a.privateKey, null));`,
			`"TypeError"`},
		{"a public ECDH key with usages",
			`return errorOf(crypto.subtle.importKey("spki", hex(F.agreement[0].a.public_spki), { name: "ECDH", namedCurve: "P-256" }, false, ["deriveBits"]));`,
			`"SyntaxError"`},
		{"ECDH cannot sign",
			`const a = await crypto.subtle.generateKey({ name: "ECDH", namedCurve: "P-256" }, false, ["deriveBits"]);
			return errorOf(crypto.subtle.sign({ name: "ECDH", hash: "SHA-256" }, a.privateKey, utf8("hi")));`,
			`"NotSupportedError"`},
	})
}
