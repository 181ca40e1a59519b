// The body of a Request or Response: where its bytes are until read.
// Kinds: a string, bytes (a Uint8Array the body owns), a ReadableStream,
// or a Go source (an incoming request's body, a fetch response's body)
// that Go reads without going through JavaScript when it can.
const STRING = 1, BYTES = 2, STREAM = 3, GO = 4;
internal.bodyKinds = { STRING, BYTES, STREAM, GO };
const fetchHost = host.fetch;

const TEXT_PLAIN = "text/plain;charset=UTF-8";

class Body {
  // ctype is the Content-Type the body implies (a string body's
  // text/plain), which its Request or Response adds to its headers unless
  // they name one.
  constructor(kind, value, ctype = null) {
    this.kind = kind;
    this.value = value;
    this.used = false;
    this.ctype = ctype;
  }

  // extract turns a BodyInit into a Body.
  static extract(init) {
    if (typeof init === "string") return new Body(STRING, init, TEXT_PLAIN);
    if (init instanceof ArrayBuffer) return new Body(BYTES, new Uint8Array(init.slice(0)));
    if (ArrayBuffer.isView(init)) return new Body(BYTES, new Uint8Array(init.buffer.slice(init.byteOffset, init.byteOffset + init.byteLength)));
    if (internal.isReadableStream && internal.isReadableStream(init)) return new Body(STREAM, init);
    if (global.URLSearchParams && init instanceof URLSearchParams) return new Body(STRING, init.toString(), "application/x-www-form-urlencoded;charset=UTF-8");
    if (global.FormData && init instanceof FormData) {
      const f = internal.serializeFormData(init);
      return new Body(BYTES, f.body, f.contentType);
    }
    if (global.Blob && init instanceof Blob) {
      if (internal.blobBytes) return new Body(BYTES, internal.blobBytes(init).slice(), init.type || null);
      return new Body(STREAM, init.stream(), init.type || null);
    }
    if (init && typeof init === "object" && typeof init.getReader === "function") return new Body(STREAM, init);
    return new Body(STRING, String(init), TEXT_PLAIN);
  }

  // stream returns the body as a ReadableStream (making one if needed).
  stream() {
    if (this.kind === STREAM) return this.value;
    if (!internal.pullStream) throw new TypeError("ReadableStream is not available");
    let s;
    if (this.kind === GO) {
      const h = this.value;
      s = internal.pullStream(() => fetchHost.readChunk(h), (reason) => fetchHost.cancel(h));
    } else {
      let chunk = this.kind === STRING ? internal.utf8Encode(this.value) : this.value;
      s = internal.pullStream(() => { const c = chunk; chunk = null; return Promise.resolve(c && c.length ? c : null); }, () => { chunk = null; });
    }
    this.kind = STREAM;
    this.value = s;
    return s;
  }

  #take() {
    if (this.used) throw new TypeError("Body has already been used. It can only be used once. Use tee() first if you need to read it twice.");
    if (this.kind === STREAM && this.value.locked) throw new TypeError("The body's stream is locked to a reader.");
    this.used = true;
  }

  // bytes reads the whole body into a Uint8Array.
  bytes() {
    try { this.#take(); } catch (e) { return Promise.reject(e); }
    switch (this.kind) {
      case STRING: return Promise.resolve(internal.utf8Encode(this.value));
      case BYTES: return Promise.resolve(this.value);
      case GO: return fetchHost.readAll(this.value);
      default: return internal.readAllBytes(this.value);
    }
  }

  // text reads the whole body as UTF-8 text.
  text() {
    try { this.#take(); } catch (e) { return Promise.reject(e); }
    switch (this.kind) {
      case STRING: return Promise.resolve(this.value);
      case BYTES: return Promise.resolve(internal.utf8Decode(this.value, true));
      case GO: return fetchHost.readAllText(this.value);
      default: return internal.readAllText(this.value);
    }
  }

  // tee splits the body for clone(): it returns the body for the clone.
  tee() {
    if (this.used) throw new TypeError("Body has already been used; it cannot be cloned.");
    if (this.kind === STRING || this.kind === BYTES) return new Body(this.kind, this.value, this.ctype);
    const [a, b] = this.stream().tee();
    this.value = a;
    return new Body(STREAM, b);
  }
}
internal.Body = Body;

// bodyMixin defines the Body methods on cls, reading its body with get.
internal.bodyMixin = function bodyMixin(cls, get, contentType) {
  const p = cls.prototype;
  const define = (name, fn) => Object.defineProperty(p, name, { value: fn, writable: true, configurable: true });
  Object.defineProperty(p, "body", { get() { const b = get(this); return b === null ? null : b.stream(); }, configurable: true });
  Object.defineProperty(p, "bodyUsed", {
    get() {
      const b = get(this);
      return b !== null && (b.used || (b.kind === STREAM && !!internal.isStreamDisturbed && internal.isStreamDisturbed(b.value)));
    },
    configurable: true,
  });
  define("text", function text() { const b = get(this); return b === null ? Promise.resolve("") : b.text(); });
  define("bytes", function bytes() { const b = get(this); return b === null ? Promise.resolve(new Uint8Array(0)) : b.bytes(); });
  define("arrayBuffer", function arrayBuffer() {
    return this.bytes().then((u8) => u8.byteOffset === 0 && u8.byteLength === u8.buffer.byteLength ? u8.buffer : u8.slice().buffer);
  });
  define("json", function json() { return this.text().then((t) => JSON.parse(t)); });
  define("blob", function blob() {
    const type = contentType(this);
    return this.bytes().then((u8) => (internal.newBlob ? internal.newBlob(u8, type || "") : new Blob([u8], { type: type || "" })));
  });
  define("formData", function formData() {
    const type = contentType(this) || "";
    return this.bytes().then((u8) => internal.parseFormData(u8, type));
  });
};
