// R2Bucket, R2Object, R2ObjectBody and R2MultipartUpload over the host's
// R2 buckets. Options are checked and normalized here (R2Conditional or
// Headers, ranges, HTTP metadata as an object or Headers), then Go does
// the call; object metadata comes back as JSON, bodies as Go bodies that
// stream through fetch's Body (internal.Body of kind GO).
{
  const r2 = host.bindings;
  const HTTP_FIELDS = [
    ["contentType", "content-type"], ["contentLanguage", "content-language"], ["contentDisposition", "content-disposition"],
    ["contentEncoding", "content-encoding"], ["cacheControl", "cache-control"],
  ];
  const CHECKSUMS = ["md5", "sha1", "sha256", "sha384", "sha512"];
  const STORAGE_CLASSES = new Set(["Standard", "InfrequentAccess"]);

  const isHeaders = (v) => typeof Headers === "function" && v instanceof Headers;
  // seconds turns a time of a second's granularity (an HTTP date) into the
  // last millisecond of that second, so that comparisons with Uploaded,
  // kept to the millisecond, are at second granularity.
  const seconds = (ms) => Math.floor(ms / 1000) * 1000 + 999;

  function millis(v, name) {
    const ms = v instanceof Date ? v.getTime() : NaN;
    if (Number.isNaN(ms)) throw new TypeError(`${name} must be a valid Date.`);
    return ms;
  }

  function wholeNumber(v, what) {
    const n = Number(v);
    if (!(n >= 0)) throw new RangeError(`${what} (${v}) must be greater than or equal to 0.`);
    if (!Number.isInteger(n)) throw new RangeError(`${what} (${v}) must be an integer, not floating point.`);
    return n;
  }

  function conditional(c) {
    if (c == null) return undefined;
    const out = {};
    if (isHeaders(c)) {
      const im = c.get("if-match"), inm = c.get("if-none-match");
      if (im !== null) out.etagMatches = im;
      if (inm !== null) out.etagDoesNotMatch = inm;
      // Invalid dates are ignored, as HTTP servers ignore them.
      const ims = Date.parse(c.get("if-modified-since")), ius = Date.parse(c.get("if-unmodified-since"));
      if (!Number.isNaN(ims)) out.uploadedAfter = seconds(ims);
      if (!Number.isNaN(ius)) out.uploadedBefore = seconds(ius);
      return out;
    }
    if (typeof c !== "object") throw new TypeError("onlyIf must be an R2Conditional or a Headers object.");
    for (const k of ["etagMatches", "etagDoesNotMatch"]) {
      if (c[k] === undefined) continue;
      const e = String(c[k]);
      if (e.length >= 2 && e.startsWith('"') && e.endsWith('"')) throw new TypeError(`Conditional ETag should not be wrapped in quotes (${e}).`);
      out[k] = e;
    }
    for (const k of ["uploadedBefore", "uploadedAfter"]) {
      if (c[k] === undefined) continue;
      const ms = millis(c[k], `onlyIf.${k}`);
      out[k] = c.secondsGranularity ? seconds(ms) : ms;
    }
    return out;
  }

  // rangeHeader reads one Range header's byte range; what it cannot serve
  // (several ranges, other units, nonsense) it ignores, as HTTP allows.
  function rangeHeader(h) {
    const m = /^\s*bytes\s*=\s*(\d*)\s*-\s*(\d*)\s*$/i.exec(h);
    if (m === null || (m[1] === "" && m[2] === "")) return undefined;
    if (m[1] === "") return { suffix: Number(m[2]) };
    const offset = Number(m[1]);
    if (m[2] === "") return { offset };
    const end = Number(m[2]);
    return end < offset ? undefined : { offset, length: end - offset + 1 };
  }

  function range(r) {
    if (r == null) return undefined;
    if (isHeaders(r)) {
      const h = r.get("range");
      return h === null ? undefined : rangeHeader(h);
    }
    if (typeof r !== "object") throw new TypeError("range must be an R2Range ({offset, length} or {suffix}) or a Headers object.");
    const out = {};
    if (r.offset !== undefined) out.offset = wholeNumber(r.offset, "Invalid range. Starting offset");
    if (r.length !== undefined) out.length = wholeNumber(r.length, "Invalid range. Length");
    if (r.suffix !== undefined) {
      if (r.offset !== undefined) throw new TypeError("Suffix is incompatible with offset.");
      if (r.length !== undefined) throw new TypeError("Suffix is incompatible with length.");
      out.suffix = wholeNumber(r.suffix, "Invalid suffix. Suffix");
    }
    return out;
  }

  function httpMetadata(m) {
    if (m == null) return undefined;
    const out = {};
    if (isHeaders(m)) {
      for (const [k, h] of HTTP_FIELDS) {
        const v = m.get(h);
        if (v !== null) out[k] = v;
      }
      const exp = Date.parse(m.get("expires"));
      if (!Number.isNaN(exp)) out.cacheExpiry = exp;
      return out;
    }
    if (typeof m !== "object") throw new TypeError("httpMetadata must be an object or a Headers object.");
    for (const [k] of HTTP_FIELDS) if (m[k] !== undefined) out[k] = String(m[k]);
    if (m.cacheExpiry !== undefined) out.cacheExpiry = millis(m.cacheExpiry, "httpMetadata.cacheExpiry");
    return out;
  }

  function customMetadata(m) {
    if (m == null) return undefined;
    if (typeof m !== "object") throw new TypeError("customMetadata must be an object of strings.");
    const out = {};
    for (const [k, v] of Object.entries(m)) out[k] = String(v);
    return out;
  }

  // noSSEC refuses customer-provided encryption keys rather than store
  // unencrypted what the caller meant to encrypt.
  function noSSEC(o) {
    if (o.ssecKey !== undefined) throw new TypeError("dwk's R2 does not support SSE-C: remove the ssecKey option.");
  }

  function checkStorageClass(s) {
    if (s !== undefined && !STORAGE_CLASSES.has(s)) throw new TypeError(`Unsupported storage class ${s}; use "Standard" or "InfrequentAccess".`);
  }

  // putValue is a put's or an uploadPart's value as the native takes it:
  // null, a string, bytes, or a ReadableStream, which Go reads as it
  // stores it.
  async function putValue(value) {
    if (value == null || typeof value === "string" || value instanceof ArrayBuffer || ArrayBuffer.isView(value)) return value;
    if (typeof Blob === "function" && value instanceof Blob) {
      return internal.blobBytes ? internal.blobBytes(value) : new Uint8Array(await value.arrayBuffer());
    }
    const stream = internal.isReadableStream ? internal.isReadableStream(value) : typeof value.getReader === "function";
    if (stream) return value;
    throw new TypeError("The value must be a ReadableStream, ArrayBuffer, ArrayBufferView, string, Blob or null.");
  }

  const readonly = (o, props) => {
    for (const [k, v] of Object.entries(props)) Object.defineProperty(o, k, { value: v, enumerable: true });
  };
  // hexBuffer decodes a digest (at most 64 bytes) from the hex Go wrote.
  const hexBuffer = (hex) => {
    const out = new Uint8Array(hex.length / 2);
    for (let k = 0; k < out.length; k++) out[k] = parseInt(hex.substr(2 * k, 2), 16);
    return out.buffer;
  };

  class R2Checksums {
    #hex;
    constructor(hex) {
      this.#hex = hex;
      const props = {};
      for (const k of CHECKSUMS) props[k] = hex[k] === undefined ? undefined : hexBuffer(hex[k]);
      readonly(this, props);
    }
    toJSON() { return Object.assign({}, this.#hex); }
    get [Symbol.toStringTag]() { return "R2Checksums"; }
  }

  class R2Object {
    constructor(j) {
      let m;
      if (j.httpMetadata !== undefined) {
        m = Object.assign({}, j.httpMetadata);
        if (m.cacheExpiry !== undefined) m.cacheExpiry = new Date(m.cacheExpiry);
      }
      readonly(this, {
        key: j.key, version: j.version, size: j.size, etag: j.etag, httpEtag: j.httpEtag,
        checksums: new R2Checksums(j.checksums), uploaded: new Date(j.uploaded),
        httpMetadata: m, customMetadata: j.customMetadata, range: j.range, storageClass: j.storageClass,
      });
    }
    writeHttpMetadata(headers) {
      const m = this.httpMetadata;
      if (m === undefined) {
        throw new TypeError(`HTTP metadata unknown for key \`${this.key}\`. Did you forget to add 'httpMetadata' to \`include\` when listing?`);
      }
      for (const [k, h] of HTTP_FIELDS) if (m[k] !== undefined) headers.set(h, m[k]);
      if (m.cacheExpiry !== undefined) headers.set("expires", m.cacheExpiry.toUTCString());
    }
    get [Symbol.toStringTag]() { return "R2Object"; }
  }

  let bodyOf;
  class R2ObjectBody extends R2Object {
    #body;
    constructor(j, handle) {
      super(j);
      this.#body = new internal.Body(internal.bodyKinds.GO, handle);
    }
    static { bodyOf = (o) => o.#body; }
    get [Symbol.toStringTag]() { return "R2ObjectBody"; }
  }
  // body, bodyUsed, arrayBuffer(), bytes(), text(), json() and blob(), as a
  // Response has them.
  internal.bodyMixin(R2ObjectBody, (o) => bodyOf(o), (o) => (o.httpMetadata && o.httpMetadata.contentType) || "");
  delete R2ObjectBody.prototype.formData;

  const newObject = (text) => new R2Object(JSON.parse(text));

  class R2MultipartUpload {
    #u;
    constructor(u, key, uploadId) {
      if (u === undefined) throw new TypeError("Illegal constructor");
      this.#u = u;
      readonly(this, { key, uploadId });
    }
    async uploadPart(partNumber, value) {
      return JSON.parse(await r2.r2UploadPart(this.#u, wholeNumber(partNumber, "partNumber"), await putValue(value)));
    }
    async abort() { await r2.r2Abort(this.#u); }
    async complete(uploadedParts) {
      if (uploadedParts == null || typeof uploadedParts[Symbol.iterator] !== "function") {
        throw new TypeError("complete() takes an array of uploaded parts ({partNumber, etag}).");
      }
      const parts = Array.from(uploadedParts, (p) => [p.partNumber, String(p.etag)]);
      return newObject(await r2.r2Complete(this.#u, parts));
    }
    get [Symbol.toStringTag]() { return "R2MultipartUpload"; }
  }

  class R2Bucket {
    #b;
    constructor(b) {
      if (b === undefined) throw new TypeError("Illegal constructor");
      this.#b = b;
    }
    async head(key) {
      const text = await r2.r2Head(this.#b, String(key));
      return text === undefined ? null : newObject(text);
    }
    async get(key, options) {
      const o = options == null ? {} : options;
      noSSEC(o);
      const r = await r2.r2Get(this.#b, String(key), { onlyIf: conditional(o.onlyIf), range: range(o.range) });
      if (r === undefined) return null;
      const [text, handle] = r;
      return handle === null ? newObject(text) : new R2ObjectBody(JSON.parse(text), handle);
    }
    async put(key, value, options) {
      const o = options == null ? {} : options;
      noSSEC(o);
      checkStorageClass(o.storageClass);
      const opts = { onlyIf: conditional(o.onlyIf), httpMetadata: httpMetadata(o.httpMetadata), customMetadata: customMetadata(o.customMetadata) };
      for (const k of CHECKSUMS) if (o[k] !== undefined) opts[k] = o[k];
      const text = await r2.r2Put(this.#b, String(key), await putValue(value), opts);
      return text === undefined ? null : newObject(text);
    }
    async delete(keys) {
      await r2.r2Delete(this.#b, Array.isArray(keys) ? keys.map(String) : [String(keys)]);
    }
    async list(options) {
      const o = options == null ? {} : options;
      let http = false, custom = false;
      for (const i of o.include === undefined ? [] : o.include) {
        if (i === "httpMetadata") http = true;
        else if (i === "customMetadata") custom = true;
        else throw new RangeError(`Unsupported include value ${i}`);
      }
      if (o.limit !== undefined && !(Number.isInteger(o.limit) && o.limit >= 1 && o.limit <= 1000)) {
        throw new RangeError(`list() takes a limit from 1 to 1000, not ${o.limit}.`);
      }
      const opts = {};
      for (const k of ["limit", "prefix", "cursor", "delimiter", "startAfter"]) if (o[k] != null) opts[k] = o[k];
      const page = JSON.parse(await r2.r2List(this.#b, opts, http, custom));
      const out = { objects: page.objects.map((j) => new R2Object(j)), truncated: page.truncated };
      if (page.truncated) out.cursor = page.cursor;
      out.delimitedPrefixes = page.delimitedPrefixes;
      return out;
    }
    async createMultipartUpload(key, options) {
      const o = options == null ? {} : options;
      noSSEC(o);
      checkStorageClass(o.storageClass);
      const [u, k, id] = await r2.r2CreateUpload(this.#b, String(key), { httpMetadata: httpMetadata(o.httpMetadata), customMetadata: customMetadata(o.customMetadata) });
      return new R2MultipartUpload(u, k, id);
    }
    resumeMultipartUpload(key, uploadId) {
      return new R2MultipartUpload(r2.r2ResumeUpload(this.#b, String(key), String(uploadId)), String(key), String(uploadId));
    }
    get [Symbol.toStringTag]() { return "R2Bucket"; }
  }
  internal.r2Bucket = (b) => new R2Bucket(b);
}
