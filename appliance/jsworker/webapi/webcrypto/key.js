// ---- Web Crypto: CryptoKey, key usages and formats.

// USAGES is the KeyUsage enum in the order CryptoKey.usages lists them.
const USAGES = ["encrypt", "decrypt", "sign", "verify", "deriveKey", "deriveBits", "wrapKey", "unwrapKey"];

// KEYS describes each key algorithm: the usages of each key type, the
// formats it imports, and whether its keys may be extractable.
const SIGNING = { public: ["verify"], private: ["sign"], formats: ["raw", "spki", "pkcs8", "jwk"] };
const RSA_SIGNING = { public: ["verify"], private: ["sign"], formats: ["spki", "pkcs8", "jwk"] };
const AGREEMENT = { public: [], private: ["deriveKey", "deriveBits"], formats: ["raw", "spki", "pkcs8", "jwk"] };
const AES_KEY = { secret: ["encrypt", "decrypt", "wrapKey", "unwrapKey"], formats: ["raw", "jwk"] };
const KDF_KEY = { secret: ["deriveKey", "deriveBits"], formats: ["raw"], derivesOnly: true };
const KEYS = {
  HMAC: { secret: ["sign", "verify"], formats: ["raw", "jwk"] },
  "AES-CTR": AES_KEY, "AES-CBC": AES_KEY, "AES-GCM": AES_KEY,
  "AES-KW": { secret: ["wrapKey", "unwrapKey"], formats: ["raw", "jwk"] },
  PBKDF2: KDF_KEY, HKDF: KDF_KEY,
  "RSASSA-PKCS1-v1_5": RSA_SIGNING, "RSA-PSS": RSA_SIGNING,
  "RSA-OAEP": { public: ["encrypt", "wrapKey"], private: ["decrypt", "unwrapKey"], formats: ["spki", "pkcs8", "jwk"] },
  ECDSA: SIGNING, Ed25519: SIGNING, "NODE-ED25519": SIGNING,
  ECDH: AGREEMENT, X25519: AGREEMENT,
};

// sequence converts a WebIDL sequence argument to an array.
function sequence(v, what) {
  if (v === null || typeof v !== "object" || typeof v[Symbol.iterator] !== "function") {
    throw new TypeError(`${what} must be a sequence (an array or another iterable)`);
  }
  return Array.from(v);
}

// usageList converts keyUsages: a sequence of KeyUsage, returned without
// duplicates in USAGES order.
function usageList(v) {
  const given = sequence(v, "keyUsages").map((u) => `${u}`);
  for (const u of given) {
    if (!USAGES.includes(u)) throw new TypeError(`"${u}" is not a key usage (want one of ${USAGES.join(", ")})`);
  }
  return USAGES.filter((u) => given.includes(u));
}

function checkUsages(name, type, usages) {
  const allowed = KEYS[name][type];
  for (const u of usages) {
    if (!allowed.includes(u)) throw domError("SyntaxError", `A ${type} ${name} key cannot have the usage "${u}"`);
  }
}

const token = Symbol("webcrypto");
let keyInternals;

// CryptoKey holds a key's type, extractability, algorithm and usages, and
// the handle of its Go key material. JavaScript cannot construct one. As in
// workerd, the four attributes are the instance's own enumerable, read-only
// properties (so JSON.stringify and console.log show them); the operations
// check a private copy, which changing them cannot reach.
class CryptoKey {
  #k; // { handle, type, name, extractable, usages }
  constructor(t, k, algorithm) {
    if (t !== token) throw new TypeError("Illegal constructor");
    this.#k = k;
    Object.defineProperties(this, {
      type: { value: k.type, enumerable: true },
      extractable: { value: k.extractable, enumerable: true },
      algorithm: { value: algorithm, enumerable: true },
      usages: { value: k.usages.slice(), enumerable: true },
    });
  }
  static {
    keyInternals = (v) => (v !== null && typeof v === "object" && #k in v ? v.#k : undefined);
  }
}
Object.defineProperty(CryptoKey.prototype, Symbol.toStringTag, { value: "CryptoKey", configurable: true });

// makeKey makes a CryptoKey from what a native returned ({handle, type,
// algorithm}).
function makeKey(r, extractable, usages) {
  return new CryptoKey(token, { handle: r.handle, type: r.type, name: r.algorithm.name, extractable, usages }, r.algorithm);
}

// keyArg returns the internals of a CryptoKey argument.
function keyArg(v, what) {
  const k = keyInternals(v);
  if (k === undefined) throw new TypeError(`${what} must be a CryptoKey`);
  return k;
}

// checkKey throws an InvalidAccessError unless the key is for alg and has
// the usage.
function checkKey(k, alg, usage) {
  if (k.name !== alg.name) throw domError("InvalidAccessError", `The key is a ${k.name} key, not a ${alg.name} key`);
  if (!k.usages.includes(usage)) throw domError("InvalidAccessError", `The key's usages do not include "${usage}"`);
}
