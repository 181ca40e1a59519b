// Response, as the Fetch standard defines it, with Cloudflare's
// webSocket (status 101) and encodeBody options.
const nullBodyStatus = new Set([101, 103, 204, 205, 304]);
const redirectStatus = new Set([301, 302, 303, 307, 308]);
const reasons = {
  100: "Continue", 101: "Switching Protocols", 200: "OK", 201: "Created", 202: "Accepted", 203: "Non-Authoritative Information",
  204: "No Content", 205: "Reset Content", 206: "Partial Content", 300: "Multiple Choices", 301: "Moved Permanently", 302: "Found",
  303: "See Other", 304: "Not Modified", 307: "Temporary Redirect", 308: "Permanent Redirect", 400: "Bad Request", 401: "Unauthorized",
  402: "Payment Required", 403: "Forbidden", 404: "Not Found", 405: "Method Not Allowed", 406: "Not Acceptable", 408: "Request Timeout",
  409: "Conflict", 410: "Gone", 411: "Length Required", 412: "Precondition Failed", 413: "Payload Too Large", 414: "URI Too Long",
  415: "Unsupported Media Type", 416: "Range Not Satisfiable", 417: "Expectation Failed", 418: "I'm a teapot", 422: "Unprocessable Entity",
  425: "Too Early", 426: "Upgrade Required", 428: "Precondition Required", 429: "Too Many Requests", 431: "Request Header Fields Too Large",
  451: "Unavailable For Legal Reasons", 500: "Internal Server Error", 501: "Not Implemented", 502: "Bad Gateway", 503: "Service Unavailable",
  504: "Gateway Timeout", 505: "HTTP Version Not Supported",
};

// Fields a response seldom sets live in one object made on demand, to
// keep new Response(body) cheap.
class Response {
  #status = 200;
  #headers = null;
  #body = null;
  #x = null; // { statusText, webSocket, url, redirected, type, passthrough, cf }

  constructor(body = null, init = undefined) {
    if (body === internal) return;
    if (init !== undefined && init !== null) {
      if (typeof init !== "object") throw new TypeError("Response: init must be an object");
      if (init.status !== undefined) {
        const s = Number(init.status);
        if (!Number.isInteger(s)) throw new RangeError(`Response: status must be an integer, not ${init.status}`);
        if (!(s === 101 && init.webSocket) && (s < 200 || s > 599)) throw new RangeError(`Responses may only be constructed with status codes in the range 200 to 599, inclusive (got ${s}).`);
        this.#status = s;
      }
      if (init.statusText !== undefined) this.#extra().statusText = String(init.statusText);
      if (init.headers !== undefined) this.#headers = new Headers(init.headers);
      if (init.webSocket !== undefined && init.webSocket !== null) {
        if (this.#status !== 101) throw new RangeError("Response: a webSocket response must have status 101");
        this.#extra().webSocket = init.webSocket;
      }
      if (init.cf !== undefined) this.#extra().cf = init.cf;
    }
    if (body !== null && body !== undefined) {
      if (nullBodyStatus.has(this.#status)) throw new TypeError(`Response with null body status (${this.#status}) cannot have a body.`);
      this.#body = internal.Body.extract(body);
    }
  }

  #extra() {
    if (this.#x === null) this.#x = { statusText: "", webSocket: null, url: "", redirected: false, type: "default", passthrough: null, cf: undefined };
    return this.#x;
  }

  get status() { return this.#status; }
  get statusText() { return this.#x === null ? "" : this.#x.statusText; }
  get ok() { return this.#status >= 200 && this.#status < 300; }
  get headers() {
    if (this.#headers === null) this.#headers = new Headers();
    const b = this.#body;
    if (b !== null && b.ctype !== null) {
      internal.headersSetDefault(this.#headers, "content-type", b.ctype);
      b.ctype = null;
    }
    return this.#headers;
  }
  get url() { return this.#x === null ? "" : this.#x.url; }
  get redirected() { return this.#x !== null && this.#x.redirected; }
  get type() { return this.#x === null ? "default" : this.#x.type; }
  get webSocket() { return this.#x === null ? null : this.#x.webSocket; }
  get cf() { return this.#x === null ? undefined : this.#x.cf; }

  clone() {
    if (this.#body !== null && this.#body.used) throw new TypeError("Cannot clone a Response whose body has already been used.");
    if (this.webSocket !== null) throw new TypeError("Cannot clone a WebSocket response.");
    const r = new Response(internal);
    r.#status = this.#status;
    r.#headers = new Headers(this.headers);
    if (this.#x !== null) r.#x = Object.assign({}, this.#x);
    r.#body = this.#body === null ? null : this.#body.tee();
    return r;
  }

  static json(data, init = undefined) {
    const text = JSON.stringify(data);
    if (text === undefined) throw new TypeError("Response.json: the value cannot be serialized to JSON");
    const r = new Response(text, init);
    r.#body.ctype = "application/json";
    return r;
  }
  static redirect(url, status = 302) {
    if (!redirectStatus.has(status)) throw new RangeError(`Response.redirect: status must be 301, 302, 303, 307 or 308, not ${status}`);
    const r = new Response(null, { status });
    r.headers.set("location", global.URL ? new URL(url).href : String(url));
    return r;
  }
  static error() {
    const r = new Response(internal);
    r.#status = 0;
    r.#extra().type = "error";
    r.#headers = new Headers();
    internal.setHeadersGuard(r.#headers, "immutable");
    return r;
  }
  get [Symbol.toStringTag]() { return "Response"; }

  static {
    internal.bodyMixin(Response, (r) => r.#body, (r) => r.headers.get("content-type"));
    // responseParts is what Go writes: [status, statusText, flat headers,
    // body kind, body value, webSocket, passthrough].
    internal.responseParts = (r) => {
      if (!(r instanceof Response)) {
        throw new TypeError(`The handler returned ${r === null ? "null" : typeof r === "object" ? "an object that is not a Response" : typeof r}; it must return a Response (or a promise of one).`);
      }
      const b = r.#body;
      let kind = 0, value = null, flat;
      if (r.#headers !== null) flat = internal.headersFlat(r.headers);
      else flat = b === null || b.ctype === null ? [] : ["content-type", b.ctype];
      if (b !== null) {
        if (b.used) throw new TypeError("The response's body has already been used.");
        b.used = true;
        kind = b.kind;
        value = b.value;
      }
      const x = r.#x;
      if (x === null) return [r.#status, reasons[r.#status] || "", flat, kind, value, null, null];
      return [r.#status, x.statusText || reasons[r.#status] || "", flat, kind, value, x.webSocket, x.passthrough];
    };
    // fetchResponse makes the Response of an outgoing fetch: its body is
    // a Go source.
    internal.fetchResponse = (status, statusText, flat, handle, url, redirected) => {
      const r = new Response(internal);
      r.#status = status;
      const x = r.#extra();
      x.statusText = statusText;
      x.url = url;
      x.redirected = redirected;
      x.type = "basic";
      r.#headers = internal.lazyHeaders(() => flat, "immutable");
      if (handle !== null) r.#body = new internal.Body(internal.bodyKinds.GO, handle);
      return r;
    };
    // passthroughResponse stands for a response the host produces by
    // handing the live request to a target (an object, a service): the
    // handler returns it and the host forwards the request there.
    internal.passthroughResponse = (target) => {
      const r = new Response(internal);
      r.#status = 101;
      r.#extra().passthrough = target;
      r.#headers = new Headers();
      return r;
    };
  }
}
internal.Response = Response;
internal.defineGlobal("Response", Response);
