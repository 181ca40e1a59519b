// ---- Web Crypto: SubtleCrypto.

const FORMATS = ["raw", "spki", "pkcs8", "jwk"];
function formatArg(v) {
  const f = `${v}`;
  if (!FORMATS.includes(f)) throw domError("NotSupportedError", `Unrecognized key format "${f}" (want raw, spki, pkcs8 or jwk)`);
  return f;
}

// jwkArg converts a JsonWebKey dictionary: its string members as strings,
// key_ops as a sequence of strings, ext as a boolean.
const JWK_STRINGS = ["kty", "use", "alg", "crv", "x", "y", "d", "n", "e", "p", "q", "dp", "dq", "qi", "k"];
function jwkArg(v) {
  if (v === null || typeof v !== "object" || v instanceof ArrayBuffer || ArrayBuffer.isView(v)) {
    throw new TypeError("The key data for the \"jwk\" format must be a JsonWebKey object");
  }
  const out = {};
  for (const m of JWK_STRINGS) if (v[m] !== undefined) out[m] = `${v[m]}`;
  if (v.key_ops !== undefined) out.key_ops = sequence(v.key_ops, "The JsonWebKey's key_ops").map((o) => `${o}`);
  if (v.ext !== undefined) out.ext = !!v.ext;
  if (v.oth !== undefined) out.oth = sequence(v.oth, "The JsonWebKey's oth").map(() => ({}));
  return out;
}

// importKeyNormalized is importKey after its arguments are converted and
// its algorithm normalized; deriveKey and unwrapKey use it too.
function importKeyNormalized(format, data, alg, extractable, usages) {
  const info = KEYS[alg.name];
  if (!info.formats.includes(format)) throw domError("NotSupportedError", `${alg.name} keys cannot be imported in the "${format}" format`);
  if (info.derivesOnly && extractable) throw domError("SyntaxError", `${alg.name} keys cannot be extractable`);
  const type = info.secret ? "secret"
    : format === "pkcs8" || format === "jwk" && data.d !== undefined ? "private"
    : "public";
  checkUsages(alg.name, type, usages);
  const r = native.importKey(format, format === "jwk" ? JSON.stringify(data) : data, alg, extractable, usages);
  if (r.type !== "public" && usages.length === 0) {
    throw domError("SyntaxError", `A ${r.type} ${alg.name} key needs at least one usage`);
  }
  return makeKey(r, extractable, usages);
}

// exportKeyNative returns what the native exports: an ArrayBuffer, or the
// JSON of a JsonWebKey.
function exportKeyNative(format, k) {
  if (KEYS[k.name].derivesOnly) throw domError("NotSupportedError", `${k.name} keys cannot be exported`);
  if (!k.extractable) throw domError("InvalidAccessError", `The ${k.name} key is not extractable`);
  return native.exportKey(format, k.handle, k.usages);
}

// deriveBitsNormalized derives length bits (null: the algorithm's own).
function deriveBitsNormalized(alg, k, length) {
  let peer;
  if (alg.public !== undefined) {
    const p = keyInternals(alg.public);
    if (p.type !== "public") throw domError("InvalidAccessError", `The "public" member must be a public key, not a ${p.type} key`);
    if (p.name !== k.name) throw domError("InvalidAccessError", `The "public" member is a ${p.name} key, not a ${k.name} key`);
    peer = p.handle;
  }
  return native.deriveBits(alg, k.handle, peer, length);
}

// HASH_BLOCK_BITS is each hash's block size: the default HMAC key length.
const HASH_BLOCK_BITS = { "SHA-1": 512, "SHA-256": 512, "SHA-384": 1024, "SHA-512": 1024, MD5: 512 };

// keyLength is the specification's "get key length" operation.
function keyLength(alg) {
  if (alg.name.startsWith("AES-")) {
    if (alg.length !== 128 && alg.length !== 192 && alg.length !== 256) {
      throw domError("OperationError", `An AES key must be 128, 192 or 256 bits long, not ${alg.length}`);
    }
    return alg.length;
  }
  if (alg.name === "HMAC") {
    if (alg.length === undefined) return HASH_BLOCK_BITS[alg.hash.name];
    if (alg.length === 0) throw new TypeError("An HMAC key cannot be 0 bits long");
    return alg.length;
  }
  return null;
}

// wrapAlgorithm normalizes a wrapping algorithm: as one for op (wrapKey or
// unwrapKey), else as one for fallback (encrypt or decrypt).
function wrapAlgorithm(op, fallback, alg) {
  try {
    return normalize(op, alg);
  } catch (e) {
    if (e === null || typeof e !== "object" || e.name !== "NotSupportedError") throw e;
    return normalize(fallback, alg);
  }
}

class SubtleCrypto {
  constructor(t) {
    if (t !== token) throw new TypeError("Illegal constructor");
  }

  async encrypt(algorithm, key, data) {
    const k = keyArg(key, "key");
    const bytes = bufferSource(data, "data");
    const alg = normalize("encrypt", algorithm);
    checkKey(k, alg, "encrypt");
    return native.encrypt(alg, k.handle, bytes);
  }

  async decrypt(algorithm, key, data) {
    const k = keyArg(key, "key");
    const bytes = bufferSource(data, "data");
    const alg = normalize("decrypt", algorithm);
    checkKey(k, alg, "decrypt");
    return native.decrypt(alg, k.handle, bytes);
  }

  async sign(algorithm, key, data) {
    const k = keyArg(key, "key");
    const bytes = bufferSource(data, "data");
    const alg = normalize("sign", algorithm);
    checkKey(k, alg, "sign");
    return native.sign(alg, k.handle, bytes);
  }

  async verify(algorithm, key, signature, data) {
    const k = keyArg(key, "key");
    const sig = bufferSource(signature, "signature");
    const bytes = bufferSource(data, "data");
    const alg = normalize("verify", algorithm);
    checkKey(k, alg, "verify");
    return native.verify(alg, k.handle, sig, bytes);
  }

  async digest(algorithm, data) {
    const bytes = bufferSource(data, "data");
    const alg = normalize("digest", algorithm);
    return native.digest(alg.name, bytes);
  }

  async generateKey(algorithm, extractable, keyUsages) {
    extractable = !!extractable;
    const usages = usageList(keyUsages);
    const alg = normalize("generateKey", algorithm);
    const info = KEYS[alg.name];
    if (info.secret) {
      checkUsages(alg.name, "secret", usages);
      if (usages.length === 0) throw domError("SyntaxError", `A secret ${alg.name} key needs at least one usage`);
      return makeKey(await native.generateKey(alg), extractable, usages);
    }
    for (const u of usages) {
      if (!info.public.includes(u) && !info.private.includes(u)) {
        throw domError("SyntaxError", `A ${alg.name} key pair cannot have the usage "${u}"`);
      }
    }
    const privateUsages = usages.filter((u) => info.private.includes(u));
    if (privateUsages.length === 0) throw domError("SyntaxError", `A ${alg.name} private key needs at least one usage`);
    const r = await native.generateKey(alg);
    return {
      publicKey: makeKey(r.publicKey, true, usages.filter((u) => info.public.includes(u))),
      privateKey: makeKey(r.privateKey, extractable, privateUsages),
    };
  }

  async deriveKey(algorithm, baseKey, derivedKeyType, extractable, keyUsages) {
    const k = keyArg(baseKey, "baseKey");
    extractable = !!extractable;
    const usages = usageList(keyUsages);
    const alg = normalize("deriveBits", algorithm);
    const importAlg = normalize("importKey", derivedKeyType);
    const lengthAlg = normalize("get key length", derivedKeyType);
    checkKey(k, alg, "deriveKey");
    const bits = deriveBitsNormalized(alg, k, keyLength(lengthAlg));
    return importKeyNormalized("raw", bits, importAlg, extractable, usages);
  }

  async deriveBits(algorithm, baseKey, length = null) {
    const k = keyArg(baseKey, "baseKey");
    if (length !== null) length = enforceRange(length, 0xffffffff, "length");
    const alg = normalize("deriveBits", algorithm);
    checkKey(k, alg, "deriveBits");
    return deriveBitsNormalized(alg, k, length);
  }

  async importKey(format, keyData, algorithm, extractable, keyUsages) {
    format = formatArg(format);
    const data = format === "jwk" ? jwkArg(keyData) : bufferSource(keyData, "keyData");
    extractable = !!extractable;
    const usages = usageList(keyUsages);
    const alg = normalize("importKey", algorithm);
    return importKeyNormalized(format, data, alg, extractable, usages);
  }

  async exportKey(format, key) {
    format = formatArg(format);
    const k = keyArg(key, "key");
    const r = exportKeyNative(format, k);
    return format === "jwk" ? JSON.parse(r) : r;
  }

  async wrapKey(format, key, wrappingKey, wrapAlgorithm_) {
    format = formatArg(format);
    const k = keyArg(key, "key");
    const w = keyArg(wrappingKey, "wrappingKey");
    const alg = wrapAlgorithm("wrapKey", "encrypt", wrapAlgorithm_);
    checkKey(w, alg, "wrapKey");
    let bytes = exportKeyNative(format, k);
    if (format === "jwk") bytes = native.utf8Encode(bytes);
    return native.encrypt(alg, w.handle, bytes);
  }

  async unwrapKey(format, wrappedKey, unwrappingKey, unwrapAlgorithm, unwrappedKeyAlgorithm, extractable, keyUsages) {
    format = formatArg(format);
    const bytes = bufferSource(wrappedKey, "wrappedKey");
    const u = keyArg(unwrappingKey, "unwrappingKey");
    extractable = !!extractable;
    const usages = usageList(keyUsages);
    const alg = wrapAlgorithm("unwrapKey", "decrypt", unwrapAlgorithm);
    const importAlg = normalize("importKey", unwrappedKeyAlgorithm);
    checkKey(u, alg, "unwrapKey");
    let data = native.decrypt(alg, u.handle, bytes);
    if (format === "jwk") {
      let parsed;
      try {
        parsed = JSON.parse(native.utf8Decode(data));
      } catch (e) {
        throw domError("DataError", `The unwrapped key is not a JSON Web Key: ${e.message}`);
      }
      if (parsed === null || typeof parsed !== "object") throw domError("DataError", "The unwrapped key is not a JSON Web Key object");
      data = jwkArg(parsed);
    }
    return importKeyNormalized(format, data, importAlg, extractable, usages);
  }

  // timingSafeEqual is Cloudflare's: it compares two buffers of the same
  // length in time that does not depend on their contents.
  timingSafeEqual(a, b) {
    return native.timingSafeEqual(bufferSource(a, "a"), bufferSource(b, "b"));
  }
}
for (const name of Object.getOwnPropertyNames(SubtleCrypto.prototype)) {
  if (name !== "constructor") Object.defineProperty(SubtleCrypto.prototype, name, { enumerable: true });
}
Object.defineProperty(SubtleCrypto.prototype, Symbol.toStringTag, { value: "SubtleCrypto", configurable: true });
