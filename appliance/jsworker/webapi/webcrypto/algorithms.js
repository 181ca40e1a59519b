// ---- Web Crypto: errors and algorithm normalization.
const native = host.webcrypto;

// domError makes a DOMException (an Error of that name if the events
// extension, which defines DOMException, is not there).
function domError(name, message) {
  const D = global.DOMException;
  if (typeof D === "function") return new D(message, name);
  const e = new Error(message);
  e.name = name;
  return e;
}

const bufferSource = internal.bufferSource;

function asciiUpper(s) {
  return s.replace(/[a-z]+/g, (m) => m.toUpperCase());
}

// WebIDL integer conversion with [EnforceRange].
function enforceRange(v, max, what) {
  const n = Number(v);
  if (!Number.isFinite(n)) throw new TypeError(`${what} must be a finite number, not ${String(v)}`);
  const t = Math.trunc(n);
  if (t < 0 || t > max) throw new TypeError(`${what} must be between 0 and ${max}, not ${t}`);
  return t;
}

// The algorithm dictionaries: member → [type, required].
const DICTS = {
  Algorithm: {},
  RsaHashedKeyGenParams: { modulusLength: ["ulong", true], publicExponent: ["bytes", true], hash: ["hash", true] },
  RsaHashedImportParams: { hash: ["hash", true] },
  RsaPssParams: { saltLength: ["ulong", true] },
  RsaOaepParams: { label: ["bytes", false] },
  EcdsaParams: { hash: ["hash", true] },
  EcKeyGenParams: { namedCurve: ["string", true] },
  EcKeyImportParams: { namedCurve: ["string", true] },
  EcdhKeyDeriveParams: { public: ["key", true] },
  AesCtrParams: { counter: ["bytes", true], length: ["octet", true] },
  AesKeyGenParams: { length: ["ushort", true] },
  AesDerivedKeyParams: { length: ["ushort", true] },
  AesCbcParams: { iv: ["bytes", true] },
  AesGcmParams: { iv: ["bytes", true], additionalData: ["bytes", false], tagLength: ["octet", false] },
  HmacImportParams: { hash: ["hash", true], length: ["ulong", false] },
  HmacKeyGenParams: { hash: ["hash", true], length: ["ulong", false] },
  HkdfParams: { hash: ["hash", true], salt: ["bytes", true], info: ["bytes", true] },
  Pbkdf2Params: { salt: ["bytes", true], iterations: ["ulong", true], hash: ["hash", true] },
};

const AES = ["AES-CTR", "AES-CBC", "AES-GCM"];
const AES_PARAMS = { "AES-CTR": "AesCtrParams", "AES-CBC": "AesCbcParams", "AES-GCM": "AesGcmParams" };
function each(names, dict) {
  const o = {};
  for (const n of names) o[n] = dict;
  return o;
}

// The registered algorithms of each operation and their dictionaries.
const REGISTERED = {
  digest: each(["SHA-1", "SHA-256", "SHA-384", "SHA-512", "MD5"], "Algorithm"),
  encrypt: { "RSA-OAEP": "RsaOaepParams", ...AES_PARAMS },
  decrypt: { "RSA-OAEP": "RsaOaepParams", ...AES_PARAMS },
  sign: {
    "RSASSA-PKCS1-v1_5": "Algorithm", "RSA-PSS": "RsaPssParams", ECDSA: "EcdsaParams",
    HMAC: "Algorithm", Ed25519: "Algorithm", "NODE-ED25519": "Algorithm",
  },
  generateKey: {
    ...each(["RSASSA-PKCS1-v1_5", "RSA-PSS", "RSA-OAEP"], "RsaHashedKeyGenParams"),
    ...each(["ECDSA", "ECDH", "NODE-ED25519"], "EcKeyGenParams"),
    ...each([...AES, "AES-KW"], "AesKeyGenParams"),
    HMAC: "HmacKeyGenParams", Ed25519: "Algorithm", X25519: "Algorithm",
  },
  importKey: {
    ...each(["RSASSA-PKCS1-v1_5", "RSA-PSS", "RSA-OAEP"], "RsaHashedImportParams"),
    ...each(["ECDSA", "ECDH", "NODE-ED25519"], "EcKeyImportParams"),
    ...each([...AES, "AES-KW", "PBKDF2", "HKDF", "Ed25519", "X25519"], "Algorithm"),
    HMAC: "HmacImportParams",
  },
  deriveBits: { ECDH: "EcdhKeyDeriveParams", X25519: "EcdhKeyDeriveParams", HKDF: "HkdfParams", PBKDF2: "Pbkdf2Params" },
  wrapKey: { "AES-KW": "Algorithm" },
  unwrapKey: { "AES-KW": "Algorithm" },
  "get key length": {
    ...each([...AES, "AES-KW"], "AesDerivedKeyParams"),
    HMAC: "HmacImportParams", HKDF: "Algorithm", PBKDF2: "Algorithm",
  },
};
REGISTERED.verify = REGISTERED.sign;

// registry[op] maps an upper-cased name to [registered name, dictionary].
const registry = {};
for (const op of Object.keys(REGISTERED)) {
  const m = new Map();
  for (const name of Object.keys(REGISTERED[op])) m.set(asciiUpper(name), [name, DICTS[REGISTERED[op][name]]]);
  registry[op] = m;
}

// normalize is the specification's "normalize an algorithm": it returns
// a fresh dictionary with the registered name and the converted members,
// or throws a NotSupportedError (unknown name) or a TypeError (bad member).
function normalize(op, alg) {
  const obj = alg !== null && (typeof alg === "object" || typeof alg === "function") ? alg : { name: `${alg}` };
  if (obj.name === undefined) throw new TypeError(`The algorithm for ${op} has no name`);
  const given = `${obj.name}`;
  const entry = registry[op].get(asciiUpper(given));
  if (entry === undefined) throw domError("NotSupportedError", `Unrecognized or unsupported algorithm "${given}" for ${op}`);
  const [name, dict] = entry;
  const out = { name };
  for (const member of Object.keys(dict)) {
    const [type, required] = dict[member];
    const v = obj[member];
    if (v === undefined) {
      if (required) throw new TypeError(`${name} needs the algorithm member "${member}"`);
      continue;
    }
    out[member] = convert(type, v, `${name}'s "${member}"`);
  }
  return out;
}

function convert(type, v, what) {
  switch (type) {
    case "hash": return normalize("digest", v);
    case "bytes": return bufferSource(v, what);
    case "string": return `${v}`;
    case "ulong": return enforceRange(v, 0xffffffff, what);
    case "ushort": return enforceRange(v, 0xffff, what);
    case "octet": return enforceRange(v, 0xff, what);
    case "key":
      if (!keyInternals(v)) throw new TypeError(`${what} must be a CryptoKey`);
      return v;
  }
  throw new TypeError(`unknown member type ${type}`);
}
