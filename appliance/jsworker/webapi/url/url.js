// ---- URL (URL Standard §6.1). Parsing and the setters run in Go; a URL
// object keeps the components Go returns, so its getters cost nothing.

// The indexes of the components array natives.parse returns.
const HREF = 0, PROTOCOL = 1, USERNAME = 2, PASSWORD = 3, HOST = 4, HOSTNAME = 5, PORT = 6, PATHNAME = 7, SEARCH = 8, HASH = 9, ORIGIN = 10;

const parsedKey = {}; // new URL(parsedKey, components): from URL.parse

function invalidURL(input, base) {
  const msg = base === undefined ? `Invalid URL: "${input}"` : `Invalid URL: "${input}" against the base "${base}"`;
  const e = new TypeError(msg);
  e.input = input;
  if (base !== undefined) e.base = base;
  return e;
}

// parseArgs parses the arguments of new URL(url, base); Go reads the
// strings as USVStrings (lone surrogates as U+FFFD) by itself.
function parseArgs(url, base) {
  return base === undefined ? natives.parse(String(url)) : natives.parse(String(url), String(base));
}

class URL {
  #c;
  #params = null;

  constructor(url, base = undefined) {
    if (url === parsedKey) {
      this.#c = base;
      return;
    }
    if (arguments.length === 0) throw new TypeError("Failed to construct 'URL': 1 argument required, but only 0 present.");
    const c = parseArgs(url, base);
    if (c === null) throw invalidURL(String(url), base === undefined ? undefined : String(base));
    this.#c = c;
  }

  static canParse(url, base = undefined) {
    if (arguments.length === 0) throw new TypeError("Failed to execute 'canParse' on 'URL': 1 argument required, but only 0 present.");
    return parseArgs(url, base) !== null;
  }

  static parse(url, base = undefined) {
    if (arguments.length === 0) throw new TypeError("Failed to execute 'parse' on 'URL': 1 argument required, but only 0 present.");
    const c = parseArgs(url, base);
    return c === null ? null : new URL(parsedKey, c);
  }

  // #set runs a setter in Go; it ignores values the standard ignores.
  #set(field, value) {
    const c = natives.set(this.#c[HREF], field, String(value));
    if (c !== null) this.#c = c;
  }

  // #queryChanged brings searchParams up to date with the query.
  #queryChanged() {
    if (this.#params !== null) paramsInternals.reset(this.#params, this.#c[SEARCH].slice(1));
  }

  get href() { return this.#c[HREF]; }
  set href(value) {
    const input = String(value);
    const c = natives.set("", "href", input);
    if (c === null) throw invalidURL(input);
    this.#c = c;
    this.#queryChanged();
  }
  get origin() { return this.#c[ORIGIN]; }
  get protocol() { return this.#c[PROTOCOL]; }
  set protocol(v) { this.#set("protocol", v); }
  get username() { return this.#c[USERNAME]; }
  set username(v) { this.#set("username", v); }
  get password() { return this.#c[PASSWORD]; }
  set password(v) { this.#set("password", v); }
  get host() { return this.#c[HOST]; }
  set host(v) { this.#set("host", v); }
  get hostname() { return this.#c[HOSTNAME]; }
  set hostname(v) { this.#set("hostname", v); }
  get port() { return this.#c[PORT]; }
  set port(v) { this.#set("port", v); }
  get pathname() { return this.#c[PATHNAME]; }
  set pathname(v) { this.#set("pathname", v); }
  get search() { return this.#c[SEARCH]; }
  set search(v) {
    this.#set("search", v);
    this.#queryChanged();
  }
  get hash() { return this.#c[HASH]; }
  set hash(v) { this.#set("hash", v); }
  get searchParams() {
    if (this.#params === null) this.#params = paramsInternals.linked(this, this.#c[SEARCH].slice(1));
    return this.#params;
  }
  toString() { return this.#c[HREF]; }
  toJSON() { return this.#c[HREF]; }

  static {
    queryUpdated = (url, query) => {
      const c = natives.set(url.#c[HREF], "search", query);
      if (c !== null) url.#c = c;
    };
  }
}
Object.defineProperty(URL.prototype, Symbol.toStringTag, { value: "URL", configurable: true });

internal.defineGlobal("URL", URL);
