// ---- Web Crypto: Crypto, crypto.DigestStream and the globals.

// The typed arrays getRandomValues fills, by their @@toStringTag.
const INTEGER_ARRAYS = new Set([
  "Int8Array", "Uint8Array", "Uint8ClampedArray", "Int16Array", "Uint16Array",
  "Int32Array", "Uint32Array", "BigInt64Array", "BigUint64Array",
]);
const MAX_RANDOM_BYTES = 65536;

// The DigestStream class, made on first use from the WritableStream the
// streams extension defines (null when there is none).
let digestStreamClass;

class Crypto {
  #subtle;
  constructor(t) {
    if (t !== token) throw new TypeError("Illegal constructor");
    this.#subtle = new SubtleCrypto(token);
  }

  get subtle() { return this.#subtle; }

  getRandomValues(array) {
    if (!ArrayBuffer.isView(array)) throw new TypeError("getRandomValues needs an integer typed array");
    if (!INTEGER_ARRAYS.has(array[Symbol.toStringTag])) {
      throw domError("TypeMismatchError", "getRandomValues needs an integer typed array, not a " + (array[Symbol.toStringTag] || "DataView"));
    }
    if (array.byteLength > MAX_RANDOM_BYTES) {
      throw domError("QuotaExceededError", `getRandomValues fills at most ${MAX_RANDOM_BYTES} bytes, not ${array.byteLength}`);
    }
    native.fillRandom(array);
    return array;
  }

  randomUUID() { return native.randomUUID(); }

  // DigestStream is Cloudflare's: a WritableStream whose digest promise
  // resolves with the hash of what was written, once it is closed.
  // It is undefined when there is no WritableStream.
  get DigestStream() {
    if (digestStreamClass === undefined) {
      digestStreamClass = typeof global.WritableStream === "function" ? makeDigestStream(global.WritableStream) : null;
    }
    return digestStreamClass === null ? undefined : digestStreamClass;
  }
}
for (const name of ["subtle", "getRandomValues", "randomUUID"]) {
  Object.defineProperty(Crypto.prototype, name, { enumerable: true });
}
Object.defineProperty(Crypto.prototype, Symbol.toStringTag, { value: "Crypto", configurable: true });

// The DigestStream algorithms that are not digest algorithms (names
// compared exactly, as workerd does).
const CHECKSUMS = ["crc32", "crc32c", "crc64nvme"];

function streamHashName(algorithm) {
  const given = algorithm !== null && typeof algorithm === "object" ? algorithm.name : algorithm;
  if (CHECKSUMS.includes(given)) return given;
  return normalize("digest", algorithm).name;
}

function makeDigestStream(WritableStream) {
  class DigestStream extends WritableStream {
    #digest;
    #state;
    constructor(algorithm) {
      const h = native.hashNew(streamHashName(algorithm));
      const state = { written: 0, done: false };
      let resolve, reject;
      const digest = new Promise((res, rej) => { resolve = res; reject = rej; });
      // Nobody need look at digest: an aborted stream's rejection is not
      // an unhandled one.
      digest.catch(() => {});
      const fail = (e) => {
        if (!state.done) { state.done = true; reject(e); }
      };
      super({
        write(chunk) {
          if (typeof chunk !== "string" && !(chunk instanceof ArrayBuffer) && !ArrayBuffer.isView(chunk)) {
            const e = new TypeError("DigestStream is a byte stream but received an object of non-ArrayBuffer/ArrayBufferView/string type on its writable side.");
            fail(e);
            throw e;
          }
          state.written += native.hashWrite(h, chunk);
        },
        close() {
          if (!state.done) { state.done = true; resolve(native.hashSum(h)); }
        },
        abort(reason) { fail(reason); },
      });
      this.#digest = digest;
      this.#state = state;
    }
    get digest() { return this.#digest; }
    get bytesWritten() { return this.#state.written; }
  }
  Object.defineProperty(DigestStream.prototype, Symbol.toStringTag, { value: "DigestStream", configurable: true });
  return DigestStream;
}

internal.defineGlobal("Crypto", Crypto);
internal.defineGlobal("SubtleCrypto", SubtleCrypto);
internal.defineGlobal("CryptoKey", CryptoKey);
internal.defineGlobal("crypto", new Crypto(token));
