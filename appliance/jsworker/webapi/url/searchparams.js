// ---- URLSearchParams (URL Standard §6.2): a list of name-value pairs,
// optionally the live query of a URL.
const natives = host.url;

// usv converts to a USVString: a string with each lone surrogate replaced
// by U+FFFD, as WebIDL does for USVString arguments.
const usvString = natives.usv;
const usv = (v) => usvString(typeof v === "string" ? v : String(v));

// parseQuery is the application/x-www-form-urlencoded parser.
function parseQuery(s) {
  const flat = natives.parseQuery(s);
  const list = [];
  for (let k = 0; k < flat.length; k += 2) list.push([flat[k], flat[k + 1]]);
  return list;
}

// formEncode is the application/x-www-form-urlencoded serializer of one
// string: encodeURIComponent, plus ! ' ( ) ~ encoded and space as '+'.
const formSafe = /^[A-Za-z0-9*\-._]*$/;
const formFix = /%20|[!'()~]/g;
function formEncode(s) {
  if (formSafe.test(s)) return s;
  return encodeURIComponent(s).replace(formFix, (m) => (m === "%20" ? "+" : "%" + m.charCodeAt(0).toString(16).toUpperCase()));
}

function serializeQuery(list) {
  let out = "";
  for (let k = 0; k < list.length; k++) {
    if (k > 0) out += "&";
    out += formEncode(list[k][0]) + "=" + formEncode(list[k][1]);
  }
  return out;
}

// compareCodeUnits orders strings by UTF-16 code units (goja's < orders
// them by code points, which differs above U+FFFF).
function compareCodeUnits(a, b) {
  const n = Math.min(a.length, b.length);
  for (let k = 0; k < n; k++) {
    const d = a.charCodeAt(k) - b.charCodeAt(k);
    if (d !== 0) return d;
  }
  return a.length - b.length;
}

function argsRequired(args, n, method) {
  if (args.length < n) {
    throw new TypeError(`Failed to execute '${method}' on 'URLSearchParams': ${n} argument${n > 1 ? "s" : ""} required, but only ${args.length} present.`);
  }
}

// Set by url.js: write a serialized query back into the URL of params.
let queryUpdated;
let paramsInternals;

class URLSearchParams {
  #list = [];
  #url = null;

  constructor(init = undefined) {
    if (init === undefined) return;
    if ((typeof init === "object" && init !== null) || typeof init === "function") {
      const iter = init[Symbol.iterator];
      if (iter !== undefined && iter !== null) {
        if (typeof iter !== "function") throw new TypeError("Failed to construct 'URLSearchParams': the init object's @@iterator is not a function");
        for (const pair of init) {
          if (pair === null || (typeof pair !== "object" && typeof pair !== "function") || typeof pair[Symbol.iterator] !== "function") {
            throw new TypeError("Failed to construct 'URLSearchParams': each name-value pair must be a sequence");
          }
          const p = Array.from(pair);
          if (p.length !== 2) {
            throw new TypeError(`Failed to construct 'URLSearchParams': a name-value pair has ${p.length} elements; it must have exactly 2`);
          }
          this.#list.push([usv(p[0]), usv(p[1])]);
        }
        return;
      }
      for (const key of Reflect.ownKeys(init)) {
        const desc = Reflect.getOwnPropertyDescriptor(init, key);
        if (desc === undefined || !desc.enumerable) continue;
        if (typeof key === "symbol") throw new TypeError("Failed to construct 'URLSearchParams': a record key cannot be a symbol");
        this.#list.push([usv(key), usv(init[key])]);
      }
      return;
    }
    let s = usv(init);
    if (s.charCodeAt(0) === 0x3f) s = s.slice(1);
    this.#list = parseQuery(s);
  }

  #update() {
    if (this.#url !== null) queryUpdated(this.#url, serializeQuery(this.#list));
  }

  get size() { return this.#list.length; }

  append(name, value) {
    argsRequired(arguments, 2, "append");
    this.#list.push([usv(name), usv(value)]);
    this.#update();
  }

  delete(name, value = undefined) {
    argsRequired(arguments, 1, "delete");
    name = usv(name);
    if (value === undefined) {
      this.#list = this.#list.filter((p) => p[0] !== name);
    } else {
      value = usv(value);
      this.#list = this.#list.filter((p) => p[0] !== name || p[1] !== value);
    }
    this.#update();
  }

  get(name) {
    argsRequired(arguments, 1, "get");
    name = usv(name);
    for (const p of this.#list) if (p[0] === name) return p[1];
    return null;
  }

  getAll(name) {
    argsRequired(arguments, 1, "getAll");
    name = usv(name);
    const out = [];
    for (const p of this.#list) if (p[0] === name) out.push(p[1]);
    return out;
  }

  has(name, value = undefined) {
    argsRequired(arguments, 1, "has");
    name = usv(name);
    if (value === undefined) return this.#list.some((p) => p[0] === name);
    value = usv(value);
    return this.#list.some((p) => p[0] === name && p[1] === value);
  }

  set(name, value) {
    argsRequired(arguments, 2, "set");
    name = usv(name);
    value = usv(value);
    const out = [];
    let found = false;
    for (const p of this.#list) {
      if (p[0] !== name) out.push(p);
      else if (!found) {
        found = true;
        out.push([name, value]);
      }
    }
    if (!found) out.push([name, value]);
    this.#list = out;
    this.#update();
  }

  // sort orders the pairs by name, comparing UTF-16 code units, keeping
  // the order of pairs with equal names.
  sort() {
    const decorated = this.#list.map((p, k) => [p, k]);
    decorated.sort((a, b) => compareCodeUnits(a[0][0], b[0][0]) || a[1] - b[1]);
    this.#list = decorated.map((d) => d[0]);
    this.#update();
  }

  forEach(callback, thisArg = undefined) {
    argsRequired(arguments, 1, "forEach");
    if (typeof callback !== "function") throw new TypeError("Failed to execute 'forEach' on 'URLSearchParams': the callback must be a function");
    for (let k = 0; k < this.#list.length; k++) {
      const p = this.#list[k];
      callback.call(thisArg, p[1], p[0], this);
    }
  }

  entries() { return new ParamsIterator(this, "entries"); }
  keys() { return new ParamsIterator(this, "keys"); }
  values() { return new ParamsIterator(this, "values"); }

  toString() { return serializeQuery(this.#list); }

  static {
    paramsInternals = {
      // linked makes the searchParams of a URL from its query.
      linked(url, query) {
        const p = new URLSearchParams();
        p.#list = parseQuery(query);
        p.#url = url;
        return p;
      },
      // reset replaces the pairs after the URL's query changed.
      reset(params, query) {
        params.#list = parseQuery(query);
      },
      at(params, k) {
        return params.#list[k];
      },
    };
  }
}
Object.defineProperty(URLSearchParams.prototype, Symbol.iterator, { value: URLSearchParams.prototype.entries, writable: true, configurable: true });
Object.defineProperty(URLSearchParams.prototype, Symbol.toStringTag, { value: "URLSearchParams", configurable: true });

// ParamsIterator walks the live list, as the standard's iterators do: a
// pair added during the walk is seen.
const IteratorPrototype = Object.getPrototypeOf(Object.getPrototypeOf([][Symbol.iterator]()));
class ParamsIterator {
  #params;
  #kind;
  #index = 0;
  constructor(params, kind) {
    this.#params = params;
    this.#kind = kind;
  }
  next() {
    if (this.#params === null) return { value: undefined, done: true };
    const p = paramsInternals.at(this.#params, this.#index);
    if (p === undefined) {
      this.#params = null;
      return { value: undefined, done: true };
    }
    this.#index++;
    const value = this.#kind === "keys" ? p[0] : this.#kind === "values" ? p[1] : [p[0], p[1]];
    return { value, done: false };
  }
}
Object.setPrototypeOf(ParamsIterator.prototype, IteratorPrototype);
Object.defineProperty(ParamsIterator.prototype, Symbol.toStringTag, { value: "URLSearchParams Iterator", configurable: true });

internal.defineGlobal("URLSearchParams", URLSearchParams);
internal.formEncode = formEncode;
internal.parseQuery = parseQuery;
internal.serializeQuery = serializeQuery;
internal.toUSVString = usv;
