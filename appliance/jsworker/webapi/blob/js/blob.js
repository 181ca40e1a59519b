// Blob: immutable bytes and a type. A Blob holds a Uint8Array that
// nothing changes; slices and Blobs made of one Blob share its memory.
const natives = host.blob;
const Promise = global.Promise; // as the prelude found it
const INTERNAL = Symbol("internal");
const EMPTY = new Uint8Array(0);
const isView = ArrayBuffer.isView;
// CHUNK is the size of the chunks of Blob.stream().
const CHUNK = 65536;

// usv converts a string to a USVString: lone surrogates become U+FFFD.
const surrogate = /[\uD800-\uDFFF]/;
function usv(s) {
  return surrogate.test(s) ? natives.usv(s) : s;
}

// str is Web IDL's conversion to a string (a Symbol is a TypeError).
function str(v) { return `${v}`; }

// normalizeType is the File API's type: printable ASCII, lowercased, or
// else the empty string.
const printable = /^[\x20-\x7E]*$/;
function normalizeType(t) {
  return printable.test(t) ? t.toLowerCase() : "";
}

function dict(v, what) {
  if (v === undefined || v === null) return undefined;
  if (typeof v !== "object" && typeof v !== "function") throw new TypeError(`${what} must be an object`);
  return v;
}

// blobOptions reads BlobPropertyBag (and FilePropertyBag's lastModified).
function blobOptions(options, file) {
  const d = dict(options, "The options");
  let endings = d === undefined ? undefined : d.endings;
  const lastModified = file && d !== undefined ? d.lastModified : undefined;
  let type = d === undefined ? undefined : d.type;
  endings = endings === undefined ? "transparent" : str(endings);
  if (endings !== "transparent" && endings !== "native") {
    throw new TypeError(`The options' endings must be "transparent" or "native", not "${endings}"`);
  }
  type = type === undefined ? "" : normalizeType(str(type));
  return { native: endings === "native", type, lastModified };
}

// partsBytes is the bytes of a sequence of BlobParts: ArrayBuffers,
// views, Blobs and strings (as UTF-8). One Blob is shared, not copied.
function partsBytes(parts, native) {
  if (parts === undefined) return EMPTY;
  if (parts === null || (typeof parts !== "object" && typeof parts !== "function") || typeof parts[Symbol.iterator] !== "function") {
    throw new TypeError("The parts of a Blob must be a sequence (an array or another iterable)");
  }
  const list = [];
  let blobs = 0;
  for (const p of parts) {
    if (isBlob(p)) {
      list.push(blobBytes(p));
      blobs++;
    } else if (isView(p)) {
      list.push(p instanceof Uint8Array ? p : new Uint8Array(p.buffer, p.byteOffset, p.byteLength));
    } else if (p instanceof ArrayBuffer) {
      list.push(new Uint8Array(p));
    } else {
      list.push(str(p));
    }
  }
  if (list.length === 0) return EMPTY;
  if (list.length === 1 && blobs === 1) return list[0];
  return natives.join(list, native);
}

// relative is a slice index: negative from the end, clamped to [0, size].
function relative(v, size, def) {
  if (v === undefined) return def;
  let n = Math.trunc(Number(v));
  if (Number.isNaN(n)) n = 0;
  return n < 0 ? Math.max(size + n, 0) : Math.min(n, size);
}

let isBlob, blobBytes;
class Blob {
  #bytes;
  #type;
  constructor(blobParts = undefined, options = undefined) {
    if (blobParts === INTERNAL) {
      this.#bytes = arguments[1];
      this.#type = arguments[2];
      return;
    }
    const o = blobOptions(options, false);
    this.#bytes = partsBytes(blobParts, o.native);
    this.#type = o.type;
  }
  static {
    isBlob = (x) => x !== null && typeof x === "object" && #bytes in x;
    blobBytes = (b) => b.#bytes;
  }
  get size() { return this.#bytes.byteLength; }
  get type() { return this.#type; }
  slice(start = undefined, end = undefined, contentType = undefined) {
    const b = this.#bytes;
    const size = b.byteLength;
    const from = relative(start, size, 0);
    const to = relative(end, size, size);
    const type = contentType === undefined ? "" : normalizeType(str(contentType));
    return newBlob(to > from ? b.subarray(from, to) : EMPTY, type);
  }
  text() {
    try {
      return Promise.resolve(natives.text(this.#bytes));
    } catch (e) {
      return Promise.reject(e);
    }
  }
  arrayBuffer() {
    try {
      return Promise.resolve(this.#bytes.slice().buffer);
    } catch (e) {
      return Promise.reject(e);
    }
  }
  bytes() {
    try {
      return Promise.resolve(this.#bytes.slice());
    } catch (e) {
      return Promise.reject(e);
    }
  }
  stream() {
    const b = this.#bytes;
    if (typeof internal.pullStream !== "function") throw new TypeError("Blob.stream() needs ReadableStream (the streams extension)");
    let off = 0;
    return internal.pullStream(() => {
      if (off >= b.byteLength) return null;
      const n = Math.min(CHUNK, b.byteLength - off);
      const chunk = b.slice(off, off + n);
      off += n;
      return chunk;
    }, undefined, b.byteLength);
  }
}

// newBlob makes a Blob over bytes (not a copy: nothing may change them).
function newBlob(bytes, type) {
  return new Blob(INTERNAL, bytes, type);
}

// webidl makes a class look like a Web IDL interface: enumerable
// prototype members and a toStringTag.
function webidl(cls) {
  const p = cls.prototype;
  for (const k of Object.getOwnPropertyNames(p)) {
    if (k === "constructor") continue;
    const d = Object.getOwnPropertyDescriptor(p, k);
    d.enumerable = true;
    Object.defineProperty(p, k, d);
  }
  Object.defineProperty(p, Symbol.toStringTag, { value: cls.name, configurable: true });
}
webidl(Blob);
