// Helpers the streams share: promises, settled-on-demand promises,
// queues with sizes, Web IDL conversions and byte views.
const natives = host.streams;
// The intrinsics the streams use, as the prelude found them: an app that
// replaces the globals does not change how streams work.
const Promise = global.Promise;
const queueMicrotask = global.queueMicrotask;

// INTERNAL is the token with which the preludes construct the public
// wrappers (controllers, readers) that apps may not construct.
const INTERNAL = Symbol("internal");
// NONE is what takeQueued returns when no chunk is queued.
const NONE = Symbol("none");
// PENDING is what an internal pull or write algorithm returns to say it
// will call the controller's pullDone or writeDone (or pullFailed,
// writeFailed) itself later, never before it returned.
const PENDING = Symbol("pending");

const RESOLVED = Promise.resolve();
const noop = () => {};
const asyncIteratorSymbol = Symbol.asyncIterator || Symbol.for("Symbol.asyncIterator");

// A new pending promise and its functions without a closure per promise:
// the executor stores them in dRes and dRej, read at once by the caller.
let dRes, dRej;
function captureExec(res, rej) { dRes = res; dRej = rej; }

// Deferred is a pending promise with its resolve and reject.
class Deferred {
  constructor() {
    this.promise = new Promise(captureExec);
    this.resolve = dRes;
    this.reject = dRej;
  }
}

function markHandled(p) { p.then(undefined, noop); }

// thenable turns what an algorithm returned into a promise: undefined
// (the common case) costs no allocation.
function thenable(v) { return v === undefined ? RESOLVED : Promise.resolve(v); }

// Settled is a promise a stream's reader or writer exposes (closed,
// ready) that the stream settles and replaces often. The promise is only
// made when JavaScript asks for it, so the streams' own consumers (pipes,
// bodies) never pay for it. A rejection marked handled never reports an
// unhandled rejection, as the spec's [[PromiseIsHandled]] does.
class Settled {
  constructor() {
    this.state = 0; // 0 pending, 1 fulfilled, 2 rejected
    this.value = undefined;
    this.handled = false;
    this.p = undefined;
    this.res = undefined;
    this.rej = undefined;
  }
  promise() {
    let p = this.p;
    if (p === undefined) {
      if (this.state === 0) {
        p = new Promise(captureExec);
        this.res = dRes;
        this.rej = dRej;
      } else if (this.state === 1) {
        p = Promise.resolve(this.value);
      } else {
        p = Promise.reject(this.value);
        if (this.handled) markHandled(p);
      }
      this.p = p;
    }
    return p;
  }
  resolve(v) {
    if (this.state !== 0) return;
    this.state = 1;
    this.value = v;
    if (this.p !== undefined) this.res(v);
  }
  reject(e) {
    if (this.state !== 0) return;
    this.state = 2;
    this.value = e;
    this.handled = true;
    if (this.p !== undefined) {
      this.rej(e);
      markHandled(this.p);
    }
  }
  // reset replaces the promise with a new pending one.
  reset() {
    this.state = 0;
    this.value = undefined;
    this.handled = false;
    this.p = this.res = this.rej = undefined;
  }
  // ensureRejected rejects the promise if pending, else replaces it with
  // one rejected with e.
  ensureRejected(e) {
    if (this.state !== 0) this.reset();
    this.reject(e);
  }
  static fulfilled(v) {
    const s = new Settled();
    s.state = 1;
    s.value = v;
    return s;
  }
  static rejected(e) {
    const s = new Settled();
    s.state = 2;
    s.value = e;
    s.handled = true;
    return s;
  }
}

// ---- queues with sizes (the spec's "queue-with-sizes"), kept on the
// controller itself: q holds the values from index qh on, qs their sizes
// (null while every size is 1), total their sum.
function qInit(c) {
  c.q = [];
  c.qh = 0;
  c.qs = null;
  c.total = 0;
}
function qLen(c) { return c.q.length - c.qh; }
function qPush(c, value, size) {
  if (size !== 1) {
    if (typeof size !== "number" || !(size >= 0) || size === Infinity) {
      throw new RangeError("The size of a chunk must be a finite, non-negative number");
    }
    if (c.qs === null) c.qs = c.q.map(() => 1);
  }
  c.q.push(value);
  if (c.qs !== null) c.qs.push(size);
  c.total += size;
}
function qPeek(c) { return c.q[c.qh]; }
function qShift(c) {
  const h = c.qh;
  const v = c.q[h];
  let size = 1;
  if (c.qs !== null) size = c.qs[h];
  c.q[h] = undefined;
  c.qh = h + 1;
  if (c.qh === c.q.length) {
    c.q.length = 0;
    if (c.qs !== null) c.qs.length = 0;
    c.qh = 0;
  } else if (c.qh >= 64 && c.qh * 2 >= c.q.length) {
    c.q = c.q.slice(c.qh);
    if (c.qs !== null) c.qs = c.qs.slice(c.qh);
    c.qh = 0;
  }
  c.total -= size;
  if (c.total < 0) c.total = 0;
  return v;
}
function qReset(c) {
  c.q = [];
  c.qh = 0;
  c.qs = null;
  c.total = 0;
}

// ---- Web IDL conversions
// dict returns v as a dictionary to read members from: undefined and null
// are an empty one; other non-objects are a TypeError.
function dict(v, what) {
  if (v === undefined || v === null) return undefined;
  if (typeof v !== "object" && typeof v !== "function") {
    throw new TypeError(`${what} must be an object`);
  }
  return v;
}
function member(d, name) { return d === undefined ? undefined : d[name]; }
function callbackMember(d, name, what) {
  const f = member(d, name);
  if (f !== undefined && typeof f !== "function") throw new TypeError(`${what}.${name} must be a function`);
  return f;
}
// strategyOf reads a QueuingStrategy: its highWaterMark (def when
// missing) and its size function (null when missing).
function strategyOf(v, def, what) {
  const d = dict(v, what);
  let hwm = member(d, "highWaterMark");
  const size = callbackMember(d, "size", what);
  if (hwm === undefined) {
    hwm = def;
  } else {
    hwm = Number(hwm);
    if (Number.isNaN(hwm) || hwm < 0) throw new RangeError(`${what}.highWaterMark must be a non-negative number, not ${String(member(d, "highWaterMark"))}`);
  }
  return { hwm, size: size === undefined ? null : size, hasSize: size !== undefined };
}
// sizeOf calls a strategy's size function on chunk.
function sizeOf(size, chunk) { return Number(size(chunk)); }

// enforceRange converts v as Web IDL's [EnforceRange] unsigned long long.
function enforceRange(v, what) {
  const n = Number(v);
  if (!Number.isFinite(n)) throw new TypeError(`${what} must be a finite number`);
  const i = Math.trunc(n);
  if (i < 0 || i > Number.MAX_SAFE_INTEGER) throw new TypeError(`${what} is out of range`);
  return i;
}

// ---- bytes
const isView = ArrayBuffer.isView;
// asU8 returns a Uint8Array over the bytes of an ArrayBuffer or view (no
// copy), or undefined for anything else.
function asU8(v) {
  if (v instanceof Uint8Array) return v;
  if (isView(v)) return new Uint8Array(v.buffer, v.byteOffset, v.byteLength);
  if (v instanceof ArrayBuffer) return new Uint8Array(v);
  return undefined;
}
// copyU8 returns a copy of the bytes of an ArrayBuffer or view, or of a
// string as UTF-8 when strings is set; else it throws a TypeError.
function copyU8(v, strings, what) {
  if (typeof v === "string" && strings) return utf8Encode(v);
  const u = asU8(v);
  if (u === undefined) {
    throw new TypeError(`${what} is used as a byte stream, but received a chunk that is not an ArrayBuffer or ArrayBufferView${strings ? " or a string" : ""}`);
  }
  return u.slice();
}
function utf8Encode(s) {
  const enc = internal.utf8Encode;
  return enc ? enc(s) : natives.utf8Encode(s);
}

// isAbortSignal reports whether v is an AbortSignal (or, without the
// events extension, looks like one).
function isAbortSignal(v) {
  if (v === null || typeof v !== "object") return false;
  if (internal.isAbortSignal) return internal.isAbortSignal(v);
  const S = global.AbortSignal;
  if (typeof S === "function") return v instanceof S;
  return "aborted" in v && typeof v.addEventListener === "function";
}

// webidl makes a class look like a Web IDL interface: enumerable
// prototype members and a toStringTag.
function webidl(cls, name) {
  const p = cls.prototype;
  for (const k of Object.getOwnPropertyNames(p)) {
    if (k === "constructor") continue;
    const d = Object.getOwnPropertyDescriptor(p, k);
    d.enumerable = true;
    Object.defineProperty(p, k, d);
  }
  Object.defineProperty(p, Symbol.toStringTag, { value: name, configurable: true });
}

function illegal(token) {
  if (token !== INTERNAL) throw new TypeError("Illegal constructor");
}
