// Checks dwk.json, what dwk's Web Crypto produced, with Node.js's: its
// signatures verify, its ciphertexts decrypt, its keys import in every
// format it exported them in, and both sides derive the same bits.
// Run from this directory: node node-check.mjs
import { readFileSync } from "node:fs";

const { subtle } = globalThis.crypto;
const D = JSON.parse(readFileSync(new URL("./dwk.json", import.meta.url)));
const hex = (s) => Buffer.from(s, "hex");
const toHex = (b) => Buffer.from(b).toString("hex");
const msg = hex(D.message);
const bad = [];
const check = (what, ok) => { if (!ok) bad.push(what); };

for (const f of D.ecdsa) {
  const alg = { name: "ECDSA", namedCurve: f.namedCurve };
  const pub = await subtle.importKey("spki", hex(f.spki), alg, false, ["verify"]);
  const raw = await subtle.importKey("raw", hex(f.raw), alg, false, ["verify"]);
  check("ECDSA " + f.namedCurve + " spki", await subtle.verify({ name: "ECDSA", hash: f.hash }, pub, hex(f.signature), msg));
  check("ECDSA " + f.namedCurve + " raw", await subtle.verify({ name: "ECDSA", hash: f.hash }, raw, hex(f.signature), msg));
  const priv = await subtle.importKey("jwk", f.private_jwk, alg, false, ["sign"]);
  check("ECDSA " + f.namedCurve + " jwk", await subtle.verify({ name: "ECDSA", hash: f.hash }, pub, await subtle.sign({ name: "ECDSA", hash: f.hash }, priv, msg), msg));
}
{
  const f = D.ed25519;
  const pub = await subtle.importKey("spki", hex(f.spki), "Ed25519", false, ["verify"]);
  check("Ed25519", await subtle.verify("Ed25519", pub, hex(f.signature), msg));
  for (const [format, data] of [["pkcs8", hex(f.pkcs8)], ["jwk", f.private_jwk]]) {
    const priv = await subtle.importKey(format, data, "Ed25519", false, ["sign"]);
    check("Ed25519 " + format, toHex(await subtle.sign("Ed25519", priv, msg)) === f.signature);
  }
}
for (const f of D.rsa) {
  const alg = { name: f.name, hash: f.hash };
  const params = { ...f.params, label: f.params.label && hex(f.params.label) };
  if (f.ciphertext) {
    for (const [format, data] of [["pkcs8", hex(f.pkcs8)], ["jwk", f.private_jwk]]) {
      const priv = await subtle.importKey(format, data, alg, false, ["decrypt"]);
      check(f.name + " " + format, toHex(await subtle.decrypt(params, priv, hex(f.ciphertext))) === D.message);
    }
    continue;
  }
  const pub = await subtle.importKey("spki", hex(f.spki), alg, false, ["verify"]);
  check(f.name, await subtle.verify(params, pub, hex(f.signature), msg));
  for (const [format, data] of [["pkcs8", hex(f.pkcs8)], ["jwk", f.private_jwk]]) {
    const priv = await subtle.importKey(format, data, alg, false, ["sign"]);
    check(f.name + " " + format, await subtle.verify(params, pub, await subtle.sign(params, priv, msg), msg));
  }
}
for (const f of D.agreement) {
  const what = f.alg.name + " " + (f.alg.namedCurve || "");
  const a = await subtle.importKey("pkcs8", hex(f.a_pkcs8), f.alg, true, ["deriveBits"]);
  const bPub = await subtle.importKey("raw", hex(f.b_raw), f.alg, true, []);
  const b = await subtle.importKey("jwk", f.b_jwk, f.alg, true, ["deriveBits"]);
  check(what + " a·B", toHex(await subtle.deriveBits({ name: f.alg.name, public: bPub }, a, null)) === f.bits);
  const aJWK = await subtle.exportKey("jwk", a);
  const aPub = await subtle.importKey("jwk", { kty: aJWK.kty, crv: aJWK.crv, x: aJWK.x, y: aJWK.y }, f.alg, true, []);
  check(what + " b·A", toHex(await subtle.deriveBits({ name: f.alg.name, public: aPub }, b, null)) === f.bits);
}
{
  const k = await subtle.importKey("jwk", D.aesgcm.jwk, "AES-GCM", false, ["decrypt"]);
  check("AES-GCM", toHex(await subtle.decrypt({ name: "AES-GCM", iv: hex(D.aesgcm.iv), tagLength: D.aesgcm.tagLength }, k, hex(D.aesgcm.ciphertext))) === D.message);
  const kek = await subtle.importKey("raw", hex(D.aeskw.kek), "AES-KW", false, ["unwrapKey"]);
  const inner = await subtle.unwrapKey("raw", hex(D.aeskw.wrapped), kek, "AES-KW", "AES-GCM", true, ["encrypt"]);
  check("AES-KW", toHex(await subtle.exportKey("raw", inner)) === D.aeskw.key);
}
if (bad.length) {
  console.error("Node.js rejects what dwk made: " + bad.join(", "));
  process.exit(1);
}
console.log("ok: Node.js accepts everything in dwk.json");
