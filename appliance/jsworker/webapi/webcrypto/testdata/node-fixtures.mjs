// Generates node.json, the Node.js Web Crypto fixtures the package's tests
// check dwk against: keys in every format, signatures, ciphertexts, derived
// bits and JWTs. Run from this directory: node node-fixtures.mjs > node.json
const { subtle } = globalThis.crypto;
const hex = (b) => Buffer.from(b instanceof ArrayBuffer ? new Uint8Array(b) : b).toString("hex");
const b64url = (b) => Buffer.from(b).toString("base64url");
const enc = (s) => new TextEncoder().encode(s);
const message = enc("The quick brown fox jumps over the lazy dog");

async function exportAll(pair, formats) {
  const out = {};
  for (const [which, key] of [["public", pair.publicKey], ["private", pair.privateKey]]) {
    for (const f of formats[which]) {
      const v = await subtle.exportKey(f, key);
      out[which + "_" + f] = f === "jwk" ? v : hex(v);
    }
  }
  return out;
}
const ASYM = { public: ["spki", "jwk"], private: ["pkcs8", "jwk"] };
const EC = { public: ["spki", "jwk", "raw"], private: ["pkcs8", "jwk"] };

const out = { message: hex(message) };

// HMAC and the secret-key algorithms, with fixed keys.
const secret = new Uint8Array(32).map((_, i) => i + 1);
out.secret = hex(secret);
for (const hash of ["SHA-1", "SHA-256", "SHA-384", "SHA-512"]) {
  const k = await subtle.importKey("raw", secret, { name: "HMAC", hash }, true, ["sign"]);
  out["hmac_" + hash] = hex(await subtle.sign("HMAC", k, message));
}

// RSA: one 2048-bit key per algorithm and hash.
out.rsa = [];
for (const [name, hash, params] of [
  ["RSASSA-PKCS1-v1_5", "SHA-256", { name: "RSASSA-PKCS1-v1_5" }],
  ["RSASSA-PKCS1-v1_5", "SHA-512", { name: "RSASSA-PKCS1-v1_5" }],
  ["RSA-PSS", "SHA-256", { name: "RSA-PSS", saltLength: 32 }],
  ["RSA-PSS", "SHA-384", { name: "RSA-PSS", saltLength: 20 }],
  ["RSA-OAEP", "SHA-256", { name: "RSA-OAEP", label: enc("label") }],
  ["RSA-OAEP", "SHA-1", { name: "RSA-OAEP" }],
]) {
  const oaep = name === "RSA-OAEP";
  const pair = await subtle.generateKey({ name, hash, modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]) }, true,
    oaep ? ["encrypt", "decrypt"] : ["sign", "verify"]);
  const f = { name, hash, params: { ...params, label: params.label && hex(params.label) }, keys: await exportAll(pair, ASYM) };
  if (oaep) f.ciphertext = hex(await subtle.encrypt(params, pair.publicKey, message));
  else f.signature = hex(await subtle.sign(params, pair.privateKey, message));
  out.rsa.push(f);
}

// ECDSA on each curve, signatures in P1363 form.
out.ecdsa = [];
for (const [namedCurve, hash] of [["P-256", "SHA-256"], ["P-384", "SHA-384"], ["P-521", "SHA-512"], ["P-256", "SHA-1"]]) {
  const pair = await subtle.generateKey({ name: "ECDSA", namedCurve }, true, ["sign", "verify"]);
  out.ecdsa.push({ namedCurve, hash, keys: await exportAll(pair, EC),
    signature: hex(await subtle.sign({ name: "ECDSA", hash }, pair.privateKey, message)) });
}

// Ed25519.
{
  const pair = await subtle.generateKey({ name: "Ed25519" }, true, ["sign", "verify"]);
  out.ed25519 = { keys: await exportAll(pair, EC), signature: hex(await subtle.sign("Ed25519", pair.privateKey, message)) };
}

// ECDH and X25519: two parties and their shared bits.
out.agreement = [];
for (const [name, namedCurve] of [["ECDH", "P-256"], ["ECDH", "P-384"], ["ECDH", "P-521"], ["X25519"]]) {
  const alg = namedCurve ? { name, namedCurve } : { name };
  const a = await subtle.generateKey(alg, true, ["deriveBits"]);
  const b = await subtle.generateKey(alg, true, ["deriveBits"]);
  out.agreement.push({ name, namedCurve, a: await exportAll(a, EC), b: await exportAll(b, EC),
    bits: hex(await subtle.deriveBits({ name, public: b.publicKey }, a.privateKey, null)) });
}

// AES with fixed keys and ivs.
const aesKey = (name, bytes) => subtle.importKey("raw", bytes, name, true, name === "AES-KW" ? ["wrapKey", "unwrapKey"] : ["encrypt", "decrypt"]);
const iv16 = new Uint8Array(16).map((_, i) => 0xa0 + i);
const iv12 = iv16.slice(0, 12);
out.aes = [];
for (const [name, params, keyBytes] of [
  ["AES-GCM", { iv: iv12, additionalData: enc("header") }, secret],
  ["AES-GCM", { iv: iv12, tagLength: 96 }, secret.slice(0, 16)],
  ["AES-GCM", { iv: iv12, tagLength: 64 }, secret.slice(0, 24)],
  ["AES-GCM", { iv: iv12, tagLength: 32, additionalData: enc("header") }, secret],
  ["AES-GCM", { iv: iv16 }, secret],
  ["AES-CBC", { iv: iv16 }, secret],
  ["AES-CBC", { iv: iv16 }, secret.slice(0, 16)],
  ["AES-CTR", { counter: iv16, length: 64 }, secret],
  ["AES-CTR", { counter: new Uint8Array(16).fill(0xff, 14).fill(0x11, 0, 14), length: 8 }, secret.slice(0, 16)],
  ["AES-CTR", { counter: new Uint8Array(16).fill(0xfe, 12), length: 16 }, secret.slice(0, 16)],
]) {
  const k = await aesKey(name, keyBytes);
  const hexParams = Object.fromEntries(Object.entries(params).map(([m, v]) => [m, typeof v === "number" ? v : hex(v)]));
  out.aes.push({ name, key: hex(keyBytes), params: hexParams, ciphertext: hex(await subtle.encrypt({ name, ...params }, k, message)) });
}

// AES-KW wrapping a raw AES key and a JWK.
{
  const kek = await aesKey("AES-KW", secret);
  const inner = await subtle.importKey("raw", secret.slice(0, 16), "AES-GCM", true, ["encrypt"]);
  out.aeskw = { kek: hex(secret), key: hex(secret.slice(0, 16)), wrapped: hex(await subtle.wrapKey("raw", inner, kek, "AES-KW")) };
}

// PBKDF2 and HKDF.
out.kdf = [];
for (const hash of ["SHA-1", "SHA-256", "SHA-512"]) {
  const pb = await subtle.importKey("raw", enc("password"), "PBKDF2", false, ["deriveBits"]);
  out.kdf.push({ name: "PBKDF2", hash, salt: hex(enc("salt")), iterations: 1000, key: hex(enc("password")),
    bits: hex(await subtle.deriveBits({ name: "PBKDF2", hash, salt: enc("salt"), iterations: 1000 }, pb, 256)) });
  const hk = await subtle.importKey("raw", secret, "HKDF", false, ["deriveBits"]);
  out.kdf.push({ name: "HKDF", hash, salt: hex(enc("salt")), info: hex(enc("info")), key: hex(secret),
    bits: hex(await subtle.deriveBits({ name: "HKDF", hash, salt: enc("salt"), info: enc("info") }, hk, 384)) });
}

// JWTs as an issuer makes them: HS256 with a shared secret, ES256 with a
// P-256 key whose public JWK the verifier has.
{
  const header = (alg) => b64url(JSON.stringify({ alg, typ: "JWT" }));
  const payload = b64url(JSON.stringify({ sub: "1234567890", name: "dwk", iat: 1700000000 }));
  const hsKey = await subtle.importKey("raw", enc("a-string-secret-at-least-256-bits-long"), { name: "HMAC", hash: "SHA-256" }, true, ["sign"]);
  const hsInput = header("HS256") + "." + payload;
  const hs = hsInput + "." + b64url(new Uint8Array(await subtle.sign("HMAC", hsKey, enc(hsInput))));
  const es = await subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, true, ["sign", "verify"]);
  const esInput = header("ES256") + "." + payload;
  const esToken = esInput + "." + b64url(new Uint8Array(await subtle.sign({ name: "ECDSA", hash: "SHA-256" }, es.privateKey, enc(esInput))));
  const hsJWK = await subtle.exportKey("jwk", hsKey);
  delete hsJWK.key_ops;
  const esJWK = await subtle.exportKey("jwk", es.publicKey);
  delete esJWK.key_ops;
  out.jwt = { hs256: { token: hs, jwk: hsJWK }, es256: { token: esToken, jwk: { ...esJWK, alg: "ES256", use: "sig" } } };
}

console.log(JSON.stringify(out, null, 1));
