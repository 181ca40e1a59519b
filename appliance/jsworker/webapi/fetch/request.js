// Request, as the Fetch standard defines it, with Cloudflare's cf
// property. An incoming request keeps its Go handle: its headers are read
// on first use and its body streams from Go. Fields a request seldom sets
// live in one object made on demand, to keep a request cheap.
const nullBodyMethods = new Set(["GET", "HEAD"]);
const methods = new Set(["DELETE", "GET", "HEAD", "OPTIONS", "POST", "PUT", "PATCH"]);
const redirectModes = new Set(["follow", "error", "manual"]);

function normalizeMethod(m) {
  m = String(m);
  const up = m.toUpperCase();
  if (methods.has(up)) return up;
  if (!/^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/.test(m)) throw new TypeError(`Invalid HTTP method: ${JSON.stringify(m)}`);
  if (up === "CONNECT" || up === "TRACE" || up === "TRACK") throw new TypeError(`Forbidden HTTP method: ${m}`);
  return m;
}

function parseURL(u, what) {
  if (global.URL) {
    try { return new URL(u).href; } catch (e) { throw new TypeError(`${what}: invalid URL ${JSON.stringify(String(u))}`); }
  }
  return String(u);
}

class Request {
  #method = "GET";
  #url = "";
  #headers = null;
  #body = null;
  #handle = null; // the incoming request's Go handle
  #x = null; // { redirect, signal, cf }: set when any is

  constructor(input, init = undefined) {
    if (input === internal) return; // made by incomingRequest or clone
    if (init !== undefined && init !== null && typeof init !== "object") throw new TypeError("Request: init must be an object");
    init = init || {};
    let from = null;
    if (input instanceof Request) {
      from = input;
      this.#url = from.#url;
      this.#method = from.#method;
      if (from.#x !== null) this.#x = { redirect: from.#x.redirect, signal: from.#x.signal, cf: from.#x.cf };
      if (init.headers === undefined) this.#headers = new Headers(from.headers);
    } else {
      this.#url = parseURL(input, "Request");
    }
    if (init.method !== undefined) this.#method = normalizeMethod(init.method);
    if (init.redirect !== undefined) {
      if (!redirectModes.has(init.redirect)) throw new TypeError(`Request: redirect must be "follow", "error" or "manual", not ${JSON.stringify(init.redirect)}`);
      this.#extra().redirect = init.redirect;
    }
    if (init.signal !== undefined) this.#extra().signal = init.signal;
    if (init.cf !== undefined) this.#extra().cf = init.cf;
    if (init.headers !== undefined) this.#headers = new Headers(init.headers);
    if (init.body !== undefined && init.body !== null) {
      if (nullBodyMethods.has(this.#method)) throw new TypeError("Request with a GET or HEAD method cannot have a body.");
      this.#body = internal.Body.extract(init.body);
    } else if (from !== null && init.body === undefined && from.#body !== null) {
      if (nullBodyMethods.has(this.#method)) throw new TypeError("Request with a GET or HEAD method cannot have a body.");
      if (from.#body.used) throw new TypeError("Cannot construct a Request with a Request whose body has already been used.");
      // The body moves to the new request.
      this.#body = from.#body;
      from.#body = new internal.Body(internal.bodyKinds.STRING, "");
      from.#body.used = true;
      if (from.#handle !== null && init.headers === undefined && init.method === undefined) this.#handle = from.#handle;
    }
  }

  #extra() {
    if (this.#x === null) this.#x = { redirect: "follow", signal: null, cf: undefined };
    return this.#x;
  }

  get method() { return this.#method; }
  get url() { return this.#url; }
  get headers() {
    if (this.#headers === null) {
      const h = this.#handle;
      this.#headers = h !== null ? internal.lazyHeaders(() => fetchHost.headersOf(h), "immutable") : new Headers();
    }
    const b = this.#body;
    if (b !== null && b.ctype !== null) {
      internal.headersSetDefault(this.#headers, "content-type", b.ctype);
      b.ctype = null;
    }
    return this.#headers;
  }
  get redirect() { return this.#x === null ? "follow" : this.#x.redirect; }
  get signal() {
    const x = this.#extra();
    if (x.signal === null && global.AbortController) x.signal = new AbortController().signal;
    return x.signal;
  }
  get cf() {
    const x = this.#extra();
    if (x.cf === undefined && this.#handle !== null) x.cf = fetchHost.cfOf(this.#handle);
    return x.cf;
  }
  get fetcher() { return null; }
  get integrity() { return ""; }
  get keepalive() { return false; }
  get cache() { return undefined; }
  get mode() { return "navigate"; }
  get credentials() { return "same-origin"; }
  get destination() { return ""; }
  get referrer() { return "about:client"; }
  get referrerPolicy() { return ""; }
  get duplex() { return "half"; }

  clone() {
    if (this.#body !== null && this.#body.used) throw new TypeError("Cannot clone a Request whose body has already been used.");
    const r = new Request(internal);
    r.#method = this.#method;
    r.#url = this.#url;
    r.#headers = new Headers(this.headers);
    if (this.#x !== null) r.#x = { redirect: this.#x.redirect, signal: this.#x.signal, cf: this.#x.cf };
    r.#body = this.#body === null ? null : this.#body.tee();
    return r;
  }
  get [Symbol.toStringTag]() { return "Request"; }

  static {
    internal.bodyMixin(Request, (r) => r.#body, (r) => r.headers.get("content-type"));
    // incomingRequest wraps a request the host received; hasBody says
    // whether a body follows.
    internal.incomingRequest = (handle, method, url, hasBody) => {
      const r = new Request(internal);
      r.#method = method;
      r.#url = url;
      r.#handle = handle;
      if (hasBody) r.#body = new internal.Body(internal.bodyKinds.GO, handle);
      return r;
    };
    // requestParts is what Go sends: [method, url, flat headers, body kind,
    // body value, the incoming handle when the request is still the
    // incoming one, redirect, signal].
    internal.requestParts = (r) => {
      if (!(r instanceof Request)) throw new TypeError("expected a Request");
      const b = r.#body;
      let kind = 0, value = null;
      if (b !== null) {
        if (b.used) throw new TypeError("The request's body has already been used.");
        b.used = true;
        kind = b.kind;
        value = b.value;
      }
      const x = r.#x;
      return [r.#method, r.#url, internal.headersFlat(r.headers), kind, value, r.#handle, x === null ? "follow" : x.redirect, x === null ? null : x.signal];
    };
    internal.requestHandle = (r) => (r instanceof Request ? r.#handle : null);
  }
}
internal.Request = Request;
internal.defineGlobal("Request", Request);
