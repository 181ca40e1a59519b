// Headers, as the Fetch standard defines them, with Cloudflare's getAll
// for Set-Cookie. Names are kept lower-cased; iteration is sorted and
// joins repeated values with ", " except Set-Cookie.
const tokenRE = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const badValueRE = /[\0\r\n]/;
const trimRE = /^[\t\n\r ]+|[\t\n\r ]+$/g;

function normalizeName(name) {
  name = String(name);
  if (!tokenRE.test(name)) throw new TypeError(`Invalid header name: ${JSON.stringify(name)}`);
  return name.toLowerCase();
}
function normalizeValue(value) {
  value = String(value);
  if (value.length && (value.charCodeAt(0) <= 32 || value.charCodeAt(value.length - 1) <= 32)) value = value.replace(trimRE, "");
  if (badValueRE.test(value)) throw new TypeError(`Invalid header value: ${JSON.stringify(value)}`);
  return value;
}

class Headers {
  #m = new Map(); // lower-case name → array of values
  #guard = "none"; // "none" | "immutable" | "request" | "response"
  #lazy = null; // a function returning a flat [name, value, ...] list, read on first use

  constructor(init = undefined) {
    if (init === undefined || init === null) return;
    if (typeof init !== "object") throw new TypeError("Headers: init must be an object, an array of pairs or a Headers");
    if (init instanceof Headers) {
      init.#load();
      for (const [k, v] of init.#m) this.#m.set(k, v.slice());
      return;
    }
    const iter = init[Symbol.iterator];
    if (typeof iter === "function") {
      for (const pair of init) {
        const p = Array.isArray(pair) ? pair : Array.from(pair);
        if (p.length !== 2) throw new TypeError("Headers: each header must be a [name, value] pair");
        this.append(p[0], p[1]);
      }
      return;
    }
    for (const k of Object.keys(init)) this.append(k, init[k]);
  }

  #load() {
    const f = this.#lazy;
    if (f === null) return;
    this.#lazy = null;
    const flat = f();
    for (let k = 0; k < flat.length; k += 2) {
      const name = flat[k].toLowerCase();
      const vs = this.#m.get(name);
      if (vs) vs.push(flat[k + 1]);
      else this.#m.set(name, [flat[k + 1]]);
    }
  }
  #check() {
    if (this.#guard === "immutable") throw new TypeError("Can't modify immutable headers.");
  }

  append(name, value) {
    this.#check();
    this.#load();
    const n = normalizeName(name);
    const v = normalizeValue(value);
    const vs = this.#m.get(n);
    if (vs) vs.push(v);
    else this.#m.set(n, [v]);
  }
  delete(name) {
    this.#check();
    this.#load();
    this.#m.delete(normalizeName(name));
  }
  get(name) {
    this.#load();
    const vs = this.#m.get(normalizeName(name));
    return vs === undefined ? null : vs.join(", ");
  }
  getAll(name) {
    const n = normalizeName(name);
    if (n !== "set-cookie") throw new TypeError('getAll() can only be used with the header name "Set-Cookie".');
    this.#load();
    return (this.#m.get(n) || []).slice();
  }
  getSetCookie() {
    this.#load();
    return (this.#m.get("set-cookie") || []).slice();
  }
  has(name) {
    this.#load();
    return this.#m.has(normalizeName(name));
  }
  set(name, value) {
    this.#check();
    this.#load();
    this.#m.set(normalizeName(name), [normalizeValue(value)]);
  }
  #sorted() {
    this.#load();
    const out = [];
    for (const name of Array.from(this.#m.keys()).sort()) {
      const vs = this.#m.get(name);
      if (name === "set-cookie") for (const v of vs) out.push([name, v]);
      else out.push([name, vs.join(", ")]);
    }
    return out;
  }
  forEach(fn, thisArg) {
    for (const [k, v] of this.#sorted()) fn.call(thisArg, v, k, this);
  }
  entries() { return this.#sorted()[Symbol.iterator](); }
  keys() { return this.#sorted().map((p) => p[0])[Symbol.iterator](); }
  values() { return this.#sorted().map((p) => p[1])[Symbol.iterator](); }
  [Symbol.iterator]() { return this.entries(); }
  get [Symbol.toStringTag]() { return "Headers"; }

  static {
    // Headers over a flat list that Go supplies on first use.
    internal.lazyHeaders = (f, guard) => {
      const h = new Headers();
      h.#lazy = f;
      h.#guard = guard || "none";
      return h;
    };
    internal.setHeadersGuard = (h, guard) => { h.#guard = guard; };
    // The flat [name, value, ...] list Go writes; Set-Cookie values stay
    // separate, others are joined.
    internal.headersFlat = (h) => {
      h.#load();
      const out = [];
      h.#m.forEach((vs, name) => {
        if (vs.length === 1) out.push(name, vs[0]);
        else if (name === "set-cookie") for (let k = 0; k < vs.length; k++) out.push(name, vs[k]);
        else out.push(name, vs.join(", "));
      });
      return out;
    };
    internal.headersHas = (h, name) => { h.#load(); return h.#m.has(name); };
    internal.headersSetDefault = (h, name, value) => { h.#load(); if (!h.#m.has(name)) h.#m.set(name, [value]); };
  }
}
internal.Headers = Headers;
internal.defineGlobal("Headers", Headers);
