// node:crypto — hashes, HMAC, random values, key derivation, AES ciphers,
// KeyObjects, sign and verify, in Go natives; webcrypto is the global
// crypto (from the webcrypto extension), looked up when used.
modules["node:crypto"] = function makeCrypto() {
  const { FastBuffer } = shared("buffer");
  const { Transform } = load("node:stream");
  const StringDecoder = shared("stringDecoder");
  const kHandle = Symbol("kHandle");
  const kDecoder = Symbol("kDecoder");
  const tick = (fn, ...args) => queueMicrotask(() => fn(...args));

  const toBuffer = (ab) => new FastBuffer(ab);
  function output(ab, encoding) {
    const buf = toBuffer(ab);
    return encoding && encoding !== "buffer" ? buf.toString(encoding) : buf;
  }
  // data reads what update, sign and the key derivations take: a string
  // in encoding, or the bytes of a view or ArrayBuffer.
  function data(value, name, encoding) {
    if (typeof value === "string") return new Uint8Array(native.encode(value, normalizeEncoding(encoding) || "utf8"));
    if (value instanceof ArrayBuffer) return new Uint8Array(value);
    if (ArrayBuffer.isView(value)) return value;
    if (value && value[kKeyObject] && value.type === "secret") return new Uint8Array(value.export());
    throw errInvalidArgType(name, "of type string or an instance of ArrayBuffer, Buffer, TypedArray, or DataView", value);
  }

  // Hash, Hmac, Cipheriv and the rest are Transform streams whose stream
  // state is made on first use, as Node's LazyTransform does.
  function lazyTransform(Ctor) {
    Object.setPrototypeOf(Ctor.prototype, Transform.prototype);
    for (const prop of ["_readableState", "_writableState"]) {
      Object.defineProperty(Ctor.prototype, prop, {
        get() {
          Transform.call(this, this._options);
          return this[prop];
        },
        set(value) {
          Object.defineProperty(this, prop, { value, enumerable: true, configurable: true, writable: true });
        },
        configurable: true,
        enumerable: true,
      });
    }
  }

  // ---- Hash and Hmac.
  function Hash(algorithm, options) {
    if (!(this instanceof Hash)) return new Hash(algorithm, options);
    if (algorithm instanceof Hash) {
      this[kHandle] = native.hashCopy(algorithm[kHandle]);
    } else {
      validateString(algorithm, "algorithm");
      if (options && options.outputLength !== undefined) throw codedError(Error, "ERR_METHOD_NOT_IMPLEMENTED", "dwk's hashes have no outputLength option (no SHAKE)");
      this[kHandle] = native.hashNew(algorithm);
    }
    this._options = options;
  }
  lazyTransform(Hash);
  Hash.prototype.update = function update(value, encoding) {
    if (typeof value === "string") native.hashUpdate(this[kHandle], value, normalizeEncoding(encoding) || "utf8");
    else native.hashUpdate(this[kHandle], data(value, "data"));
    return this;
  };
  Hash.prototype.digest = function digest(encoding) {
    if (encoding !== undefined && encoding !== "buffer") return native.hashDigest(this[kHandle], normalizeEncoding(encoding) || "utf8");
    return toBuffer(native.hashDigest(this[kHandle]));
  };
  Hash.prototype.copy = function copy(options) { return new Hash(this, options); };
  Hash.prototype._transform = function (chunk, encoding, callback) {
    this.update(chunk, encoding);
    callback();
  };
  Hash.prototype._flush = function (callback) {
    this.push(this.digest());
    callback();
  };

  function Hmac(hmac, key, options) {
    if (!(this instanceof Hmac)) return new Hmac(hmac, key, options);
    validateString(hmac, "hmac");
    const k = key && key[kKeyObject] ? new Uint8Array(key.export()) : data(key, "key", options && options.encoding);
    this[kHandle] = native.hmacNew(hmac, k);
    this._options = options;
  }
  lazyTransform(Hmac);
  Hmac.prototype.update = Hash.prototype.update;
  Hmac.prototype.digest = Hash.prototype.digest;
  Hmac.prototype._transform = Hash.prototype._transform;
  Hmac.prototype._flush = Hash.prototype._flush;

  function hash(algorithm, input, outputEncoding = "hex") {
    validateString(algorithm, "algorithm");
    if (typeof input !== "string" && !ArrayBuffer.isView(input)) throw errInvalidArgType("data", "of type string or an instance of Buffer, TypedArray, or DataView", input);
    const h = native.hashNew(algorithm);
    native.hashUpdate(h, input, "utf8");
    return outputEncoding === "buffer" ? toBuffer(native.hashDigest(h)) : native.hashDigest(h, normalizeEncoding(outputEncoding) || "hex");
  }

  // ---- random values.
  const kMaxRandom = 2 ** 31 - 1;
  function randomBytes(size, callback) {
    validateNumber(size, "size", 0, kMaxRandom);
    if (callback !== undefined) validateFunction(callback, "callback");
    const buf = new FastBuffer(size);
    native.randomFill(buf);
    if (callback === undefined) return buf;
    tick(callback, null, buf);
  }
  function fillRange(buf, offset, size, name) {
    if (!(buf instanceof ArrayBuffer) && !ArrayBuffer.isView(buf)) throw errInvalidArgType(name, "an instance of ArrayBuffer or ArrayBufferView", buf);
    const bytes = buf instanceof ArrayBuffer ? new Uint8Array(buf) : new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength);
    const elementSize = buf.BYTES_PER_ELEMENT || 1;
    offset = offset === undefined ? 0 : offset;
    validateInteger(offset, "offset", 0, bytes.length / elementSize);
    offset *= elementSize;
    size = size === undefined ? bytes.length - offset : size * elementSize;
    validateInteger(size, "size", 0, bytes.length - offset);
    native.randomFill(bytes.subarray(offset, offset + size));
    return buf;
  }
  function randomFillSync(buf, offset, size) {
    return fillRange(buf, offset, size, "buf");
  }
  function randomFill(buf, offset, size, callback) {
    if (typeof offset === "function") { callback = offset; offset = undefined; size = undefined; }
    else if (typeof size === "function") { callback = size; size = undefined; }
    validateFunction(callback, "callback");
    fillRange(buf, offset, size, "buf");
    tick(callback, null, buf);
  }
  function randomInt(min, max, callback) {
    if (typeof max === "undefined" || typeof max === "function") {
      callback = max;
      max = min;
      min = 0;
    }
    if (callback !== undefined) validateFunction(callback, "callback");
    if (!Number.isSafeInteger(min)) throw errInvalidArgType("min", "a safe integer", min);
    if (!Number.isSafeInteger(max)) throw errInvalidArgType("max", "a safe integer", max);
    if (max <= min) throw errOutOfRange("max", `greater than the value of "min" (${min})`, max);
    if (max - min > 2 ** 48) throw errOutOfRange("max - min", `<= ${2 ** 48}`, max - min);
    const n = native.randomInt(min, max);
    if (callback === undefined) return n;
    tick(callback, null, n);
  }
  function getRandomValues(array) {
    if (global.crypto && typeof global.crypto.getRandomValues === "function") return global.crypto.getRandomValues(array);
    if (!ArrayBuffer.isView(array) || array instanceof DataView || array instanceof Float32Array || array instanceof Float64Array) {
      throw codedError(TypeError, "ERR_INVALID_ARG_TYPE", "The data argument must be an integer-type TypedArray");
    }
    if (array.byteLength > 65536) throw codedError(RangeError, "ERR_QUOTA_EXCEEDED", `The ArrayBufferView's byte length (${array.byteLength}) exceeds the number of bytes of entropy available via this API (65536)`);
    native.randomFill(array);
    return array;
  }

  // ---- key derivation.
  function checkCallback(callback) {
    validateFunction(callback, "callback");
    return callback;
  }
  function pbkdf2Args(password, salt, iterations, keylen, digest) {
    const p = data(password, "password"), s = data(salt, "salt");
    validateInteger(iterations, "iterations", 1, 2 ** 31 - 1);
    validateInteger(keylen, "keylen", 0, 2 ** 31 - 1);
    validateString(digest, "digest");
    return [p, s, iterations, keylen, digest];
  }
  function pbkdf2Sync(password, salt, iterations, keylen, digest) {
    return toBuffer(native.pbkdf2(...pbkdf2Args(password, salt, iterations, keylen, digest), false));
  }
  function pbkdf2(password, salt, iterations, keylen, digest, callback) {
    if (typeof digest === "function") { callback = digest; digest = undefined; }
    checkCallback(callback);
    native.pbkdf2(...pbkdf2Args(password, salt, iterations, keylen, digest), true)
      .then((ab) => callback(null, toBuffer(ab)), (err) => callback(err));
  }
  function hkdfArgs(digest, ikm, salt, info, keylen) {
    validateString(digest, "digest");
    const k = data(ikm, "ikm"), s = data(salt, "salt"), i = data(info, "info");
    validateInteger(keylen, "length", 0, 2 ** 31 - 1);
    if (i.byteLength > 1024) throw errOutOfRange("info", "must not contain more than 1024 bytes", i.byteLength);
    return [digest, k, s, i, keylen];
  }
  function hkdfSync(digest, ikm, salt, info, keylen) {
    return native.hkdf(...hkdfArgs(digest, ikm, salt, info, keylen), false);
  }
  function hkdf(digest, ikm, salt, info, keylen, callback) {
    checkCallback(callback);
    native.hkdf(...hkdfArgs(digest, ikm, salt, info, keylen), true).then((ab) => callback(null, ab), (err) => callback(err));
  }
  function scryptArgs(password, salt, keylen, options) {
    const p = data(password, "password"), s = data(salt, "salt");
    validateInteger(keylen, "keylen", 0, 2 ** 31 - 1);
    options = options || {};
    const pick = (a, b, def) => (options[a] !== undefined ? options[a] : options[b] !== undefined ? options[b] : def);
    const N = pick("N", "cost", 16384), r = pick("r", "blockSize", 8), par = pick("p", "parallelization", 1);
    const maxmem = options.maxmem !== undefined ? options.maxmem : 32 * 1024 * 1024;
    return [p, s, keylen, N, r, par, maxmem];
  }
  function scryptSync(password, salt, keylen, options) {
    return toBuffer(native.scrypt(...scryptArgs(password, salt, keylen, options), false));
  }
  function scrypt(password, salt, keylen, options, callback) {
    if (typeof options === "function") { callback = options; options = undefined; }
    checkCallback(callback);
    native.scrypt(...scryptArgs(password, salt, keylen, options), true).then((ab) => callback(null, toBuffer(ab)), (err) => callback(err));
  }

  function timingSafeEqual(a, b) {
    const x = data(a, "buf1"), y = data(b, "buf2");
    if (x.byteLength !== y.byteLength) throw codedError(RangeError, "ERR_CRYPTO_TIMING_SAFE_EQUAL_LENGTH", "Input buffers must have the same byte length");
    return native.timingSafeEqual(x, y);
  }

  // ---- ciphers.
  function Cipheriv(cipher, key, iv, options, decipher) {
    validateString(cipher, "cipher");
    const k = key && key[kKeyObject] ? new Uint8Array(key.export()) : data(key, "key");
    const v = iv === null ? null : data(iv, "iv");
    const tagLength = options && options.authTagLength !== undefined ? options.authTagLength : 0;
    this[kHandle] = native.cipherNew(cipher, k, v, decipher, tagLength);
    this._options = options;
  }
  function decode(self, buf, encoding, end) {
    if (!encoding || encoding === "buffer") return buf;
    const dec = self[kDecoder] || (self[kDecoder] = new StringDecoder(encoding));
    return end ? dec.end(buf) : dec.write(buf);
  }
  const cipherMethods = {
    update(value, inputEncoding, outputEncoding) {
      return decode(this, toBuffer(native.cipherUpdate(this[kHandle], data(value, "data", inputEncoding))), outputEncoding, false);
    },
    final(outputEncoding) {
      return decode(this, toBuffer(native.cipherFinal(this[kHandle])), outputEncoding, true);
    },
    setAutoPadding(autoPadding = true) {
      native.cipherSetAutoPadding(this[kHandle], !!autoPadding);
      return this;
    },
    setAAD(buffer) {
      native.cipherSetAAD(this[kHandle], data(buffer, "buffer"));
      return this;
    },
    _transform(chunk, encoding, callback) {
      this.push(this.update(chunk, encoding));
      callback();
    },
    _flush(callback) {
      try {
        this.push(this.final());
      } catch (err) {
        callback(err);
        return;
      }
      callback();
    },
  };
  function CipherivClass(decipher) {
    const C = function (cipher, key, iv, options) {
      if (!(this instanceof C)) return new C(cipher, key, iv, options);
      Cipheriv.call(this, cipher, key, iv, options, decipher);
    };
    lazyTransform(C);
    Object.assign(C.prototype, cipherMethods);
    if (decipher) {
      C.prototype.setAuthTag = function (tag, encoding) {
        native.cipherSetAuthTag(this[kHandle], data(tag, "buffer", encoding));
        return this;
      };
    } else {
      C.prototype.getAuthTag = function () { return toBuffer(native.cipherGetAuthTag(this[kHandle])); };
    }
    return C;
  }
  const CipherivCtor = CipherivClass(false);
  const DecipherivCtor = CipherivClass(true);
  Object.defineProperty(CipherivCtor, "name", { value: "Cipheriv" });
  Object.defineProperty(DecipherivCtor, "name", { value: "Decipheriv" });

  // ---- keys.
  class KeyObject {
    constructor(type, handle) {
      if (type !== "secret" && type !== "public" && type !== "private") throw errInvalidArgValue("type", type);
      this[kHandle] = handle;
      Object.defineProperty(this, kKeyObject, { value: true });
    }
    get type() { return native.keyDetails(this[kHandle]).type; }
    get asymmetricKeyType() { return native.keyDetails(this[kHandle]).asymmetricKeyType; }
    get asymmetricKeyDetails() {
      const d = native.keyDetails(this[kHandle]);
      if (d.type === "secret") return undefined;
      const out = {};
      if (d.modulusLength !== undefined) {
        out.modulusLength = d.modulusLength;
        out.publicExponent = BigInt(d.publicExponent);
      }
      if (d.namedCurve) out.namedCurve = d.namedCurve;
      return out;
    }
    get symmetricKeySize() { return native.keyDetails(this[kHandle]).symmetricKeySize; }
    export(options = {}) {
      const type = this.type;
      if (type === "secret") {
        if (options.format === "jwk") return JSON.parse(native.keyExport(this[kHandle], "jwk", ""));
        return toBuffer(native.keyExport(this[kHandle], "buffer", ""));
      }
      validateObject(options, "options");
      const format = options.format || "pem";
      if (format !== "pem" && format !== "der" && format !== "jwk") throw errInvalidArgValue("options.format", format);
      if (options.cipher || options.passphrase) throw codedError(Error, "ERR_METHOD_NOT_IMPLEMENTED", "dwk does not export encrypted private keys");
      const out = native.keyExport(this[kHandle], format, format === "jwk" ? "" : options.type || "");
      if (format === "jwk") return JSON.parse(out);
      return format === "der" ? toBuffer(out) : out;
    }
    equals(other) {
      if (!other || !other[kKeyObject]) throw errInvalidArgType("otherKeyObject", "an instance of KeyObject", other);
      return native.keyEquals(this[kHandle], other[kHandle]);
    }
    toCryptoKey() {
      throw codedError(Error, "ERR_METHOD_NOT_IMPLEMENTED", "dwk cannot turn a KeyObject into a CryptoKey; import it with crypto.subtle.importKey");
    }
    static from(key) {
      throw codedError(Error, "ERR_METHOD_NOT_IMPLEMENTED", "dwk cannot turn a CryptoKey into a KeyObject; export it with crypto.subtle.exportKey and use createPrivateKey, createPublicKey or createSecretKey");
    }
  }
  const makeKey = (handle) => new KeyObject(native.keyDetails(handle).type, handle);

  function createSecretKey(key, encoding) {
    return makeKey(native.keySecret(data(key, "key", encoding)));
  }
  // parseKey reads an asymmetric key input: a KeyObject, PEM text or
  // bytes, or { key, format, type, encoding }.
  function parseKey(input, want) {
    if (input && input[kKeyObject]) {
      if (want === "public" && input.type === "private") return native.keyPublic(input[kHandle]);
      return input[kHandle];
    }
    if (typeof global.CryptoKey === "function" && input instanceof global.CryptoKey) {
      throw codedError(TypeError, "ERR_INVALID_ARG_TYPE", "dwk takes a KeyObject, PEM, DER or JWK here, not a CryptoKey; export the CryptoKey first");
    }
    let key = input, format = "pem", type = "", encoding;
    if (input && typeof input === "object" && !ArrayBuffer.isView(input) && !(input instanceof ArrayBuffer)) {
      ({ key, format = "pem", type = "", encoding } = input);
      if (key && key[kKeyObject]) return parseKey(key, want);
      if (format === "jwk") return native.keyParse(want, JSON.stringify(key), "jwk", "");
    }
    if (typeof key === "string") return native.keyParse(want, format === "der" ? data(key, "key", encoding) : key, format, type);
    if (key instanceof ArrayBuffer || ArrayBuffer.isView(key)) return native.keyParse(want, data(key, "key"), format, type);
    throw errInvalidArgType("key", "of type string or an instance of ArrayBuffer, Buffer, TypedArray, DataView, or KeyObject", key);
  }
  const createPrivateKey = (key) => makeKey(parseKey(key, "private"));
  const createPublicKey = (key) => makeKey(parseKey(key, "public"));

  function generateKeyPairSync(type, options = {}) {
    validateString(type, "type");
    const handle = native.keyGenerate(type, options.modulusLength || 0, options.namedCurve || "");
    const privateKey = makeKey(handle);
    const publicKey = makeKey(native.keyPublic(handle));
    const encode = (key, enc) => (enc ? key.export(enc) : key);
    return { publicKey: encode(publicKey, options.publicKeyEncoding), privateKey: encode(privateKey, options.privateKeyEncoding) };
  }
  function generateKeyPair(type, options, callback) {
    if (typeof options === "function") { callback = options; options = {}; }
    checkCallback(callback);
    let pair;
    try {
      pair = generateKeyPairSync(type, options);
    } catch (err) {
      tick(callback, err);
      return;
    }
    tick(callback, null, pair.publicKey, pair.privateKey);
  }
  function generateKeySync(type, options) {
    validateObject(options, "options");
    validateInteger(options.length, "options.length", 8, 2 ** 31 - 1);
    if (type !== "hmac" && type !== "aes") throw errInvalidArgValue("type", type, "must be 'hmac' or 'aes'");
    return createSecretKey(randomBytes(options.length >> 3));
  }

  // ---- sign and verify.
  function signOptions(key) {
    const o = key && typeof key === "object" && !ArrayBuffer.isView(key) && !key[kKeyObject] ? key : {};
    return [o.padding, o.saltLength, o.dsaEncoding];
  }
  function Sign(algorithm, options) {
    if (!(this instanceof Sign)) return new Sign(algorithm, options);
    validateString(algorithm, "algorithm");
    this[kHandle] = native.hashNew(algorithm);
    this.algorithm = algorithm;
    this._options = options;
  }
  lazyTransform(Sign);
  Sign.prototype.update = Hash.prototype.update;
  Sign.prototype._transform = Hash.prototype._transform;
  Sign.prototype.sign = function sign(privateKey, outputEncoding) {
    const digest = native.hashDigest(this[kHandle]);
    return output(native.sign(this.algorithm, digest, parseKey(privateKey, "private"), true, ...signOptions(privateKey)), outputEncoding);
  };
  function Verify(algorithm, options) {
    if (!(this instanceof Verify)) return new Verify(algorithm, options);
    validateString(algorithm, "algorithm");
    this[kHandle] = native.hashNew(algorithm);
    this.algorithm = algorithm;
    this._options = options;
  }
  lazyTransform(Verify);
  Verify.prototype.update = Hash.prototype.update;
  Verify.prototype._transform = Hash.prototype._transform;
  Verify.prototype.verify = function verify(key, signature, signatureEncoding) {
    const digest = native.hashDigest(this[kHandle]);
    return native.verify(this.algorithm, digest, parseKey(key, "public"), data(signature, "signature", signatureEncoding), true, ...signOptions(key));
  };
  function oneShot(fn, callback) {
    if (callback === undefined) return fn();
    checkCallback(callback);
    let result;
    try {
      result = fn();
    } catch (err) {
      tick(callback, err);
      return;
    }
    tick(callback, null, result);
  }
  function sign(algorithm, input, key, callback) {
    return oneShot(() => toBuffer(native.sign(algorithm, data(input, "data"), parseKey(key, "private"), false, ...signOptions(key))), callback);
  }
  function verify(algorithm, input, key, signature, callback) {
    return oneShot(() => native.verify(algorithm, data(input, "data"), parseKey(key, "public"), data(signature, "signature"), false, ...signOptions(key)), callback);
  }

  function unsupported(name) {
    return function () {
      throw codedError(Error, "ERR_METHOD_NOT_IMPLEMENTED", `dwk does not support crypto.${name}`);
    };
  }
  const constants = Object.freeze({
    RSA_PKCS1_PADDING: 1, RSA_NO_PADDING: 3, RSA_PKCS1_OAEP_PADDING: 4, RSA_X931_PADDING: 5, RSA_PKCS1_PSS_PADDING: 6,
    RSA_PSS_SALTLEN_DIGEST: -1, RSA_PSS_SALTLEN_MAX_SIGN: -2, RSA_PSS_SALTLEN_AUTO: -2,
    POINT_CONVERSION_COMPRESSED: 2, POINT_CONVERSION_UNCOMPRESSED: 4, POINT_CONVERSION_HYBRID: 6,
    defaultCoreCipherList: "", defaultCipherList: "",
  });

  const exports = {
    constants,
    createHash: (algorithm, options) => new Hash(algorithm, options),
    createHmac: (algorithm, key, options) => new Hmac(algorithm, key, options),
    hash,
    Hash,
    Hmac,
    getHashes: () => native.hashNames(),
    getCiphers: () => native.cipherNames().sort(),
    getCurves: () => ["prime256v1", "secp384r1", "secp521r1"],
    getFips: () => 0,
    setFips() { throw codedError(Error, "ERR_CRYPTO_FIPS_FORCED", "dwk cannot enable FIPS mode"); },
    randomBytes,
    pseudoRandomBytes: randomBytes,
    prng: randomBytes,
    rng: randomBytes,
    randomFill,
    randomFillSync,
    randomInt,
    randomUUID: () => native.randomUUID(),
    getRandomValues,
    pbkdf2,
    pbkdf2Sync,
    hkdf,
    hkdfSync,
    scrypt,
    scryptSync,
    timingSafeEqual,
    createCipheriv: (cipher, key, iv, options) => new CipherivCtor(cipher, key, iv, options),
    createDecipheriv: (cipher, key, iv, options) => new DecipherivCtor(cipher, key, iv, options),
    Cipheriv: CipherivCtor,
    Decipheriv: DecipherivCtor,
    KeyObject,
    createSecretKey,
    createPrivateKey,
    createPublicKey,
    generateKeyPair,
    generateKeyPairSync,
    generateKey(type, options, callback) { oneShot(() => generateKeySync(type, options), checkCallback(callback)); },
    generateKeySync,
    createSign: (algorithm, options) => new Sign(algorithm, options),
    createVerify: (algorithm, options) => new Verify(algorithm, options),
    Sign,
    Verify,
    sign,
    verify,
    createDiffieHellman: unsupported("createDiffieHellman"),
    createDiffieHellmanGroup: unsupported("createDiffieHellmanGroup"),
    getDiffieHellman: unsupported("getDiffieHellman"),
    createECDH: unsupported("createECDH"),
    diffieHellman: unsupported("diffieHellman"),
    publicEncrypt: unsupported("publicEncrypt"),
    privateDecrypt: unsupported("privateDecrypt"),
    privateEncrypt: unsupported("privateEncrypt"),
    publicDecrypt: unsupported("publicDecrypt"),
    generatePrime: unsupported("generatePrime"),
    generatePrimeSync: unsupported("generatePrimeSync"),
    checkPrime: unsupported("checkPrime"),
    checkPrimeSync: unsupported("checkPrimeSync"),
    secureHeapUsed: () => ({ total: 0, min: 0, used: 0, utilization: 0 }),
    setEngine: unsupported("setEngine"),
    X509Certificate: unsupported("X509Certificate"),
    Certificate: unsupported("Certificate"),
    get webcrypto() { return global.crypto; },
    get subtle() { return global.crypto && global.crypto.subtle; },
  };
  return exports;
};
