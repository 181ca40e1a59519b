// Durable Object namespaces, ids and stubs. A stub's fetch sends a Request
// to the object wherever it runs; any other property is a method call
// (JavaScript RPC), its arguments and result structured-cloned.
const NS = Symbol("namespace");

class DurableObjectId {
  #h; #hex; #name;
  constructor(h, hex, name) {
    if (h === undefined) throw new TypeError("Illegal constructor");
    this.#h = h;
    this.#hex = hex;
    this.#name = name === "" ? undefined : name;
  }
  toString() { return this.#hex; }
  equals(other) { return other instanceof DurableObjectId && other.#hex === this.#hex; }
  get name() { return this.#name; }
  toJSON() { return this.#hex; }
  static { internal.objectIdHandle = (id) => (id instanceof DurableObjectId ? id.#h : null); }
}
internal.objectId = (h, hex, name) => new DurableObjectId(h, hex, name);

// The payload of a method call: one argument as itself, so that Go
// methods get their JSON argument; none or several wrapped.
internal.rpcArgs = (args) => internal.serialize(args.length === 1 ? args[0] : { "$dwk:args": args });
internal.rpcUnargs = (text) => {
  const v = internal.deserialize(text);
  if (v !== null && typeof v === "object" && !Array.isArray(v) && Object.keys(v).length === 1 && Array.isArray(v["$dwk:args"])) return v["$dwk:args"];
  return [v];
};

const notMethods = new Set(["then", "catch", "finally", "toJSON", "constructor", Symbol.toPrimitive, Symbol.toStringTag, Symbol.iterator]);

function makeStub(h, id, call) {
  const target = {
    id,
    get name() { return id.name; },
    fetch(input, init) {
      let req;
      try { req = input instanceof Request && init === undefined ? input : new Request(input, init); } catch (e) { return Promise.reject(e); }
      return bind.stubFetch(h, req);
    },
    connect() { throw new Error("Durable Object stubs do not support connect() on dwk"); },
  };
  return new Proxy(target, {
    get(t, prop) {
      if (prop in t) return t[prop];
      if (typeof prop === "symbol" || notMethods.has(prop)) return undefined;
      return (...args) => {
        let payload;
        try { payload = internal.rpcArgs(args); } catch (e) { return Promise.reject(e); }
        return call(h, prop, payload).then((text) => internal.deserialize(text));
      };
    },
    has(t, prop) { return prop in t; },
  });
}
internal.makeStub = makeStub;

class DurableObjectNamespace {
  #ns;
  constructor(ns) {
    if (ns === undefined) throw new TypeError("Illegal constructor");
    this.#ns = ns;
  }
  idFromName(name) { return bind.idFromName(this.#ns, String(name)); }
  newUniqueId(options) { return bind.newUniqueId(this.#ns); }
  idFromString(hex) { return bind.idFromString(this.#ns, String(hex)); }
  get(id, options) {
    const h = internal.objectIdHandle(id);
    if (h === null) throw new TypeError("get() needs a DurableObjectId from this namespace");
    return makeStub(bind.stub(this.#ns, h), id, bind.stubCall);
  }
  getByName(name, options) { return this.get(this.idFromName(name), options); }
  jurisdiction() { return this; }
  get [Symbol.toStringTag]() { return "DurableObjectNamespace"; }
}
internal.objectNamespace = (ns) => new DurableObjectNamespace(ns);

// A service binding: fetch to the other worker, or its entrypoint's
// methods.
internal.serviceBinding = (h) => {
  const target = {
    fetch(input, init) {
      let req;
      try { req = input instanceof Request && init === undefined ? input : new Request(input, init); } catch (e) { return Promise.reject(e); }
      return bind.serviceFetch(h, req);
    },
    connect() { throw new Error("service bindings do not support connect() on dwk"); },
  };
  return new Proxy(target, {
    get(t, prop) {
      if (prop in t) return t[prop];
      if (typeof prop === "symbol" || notMethods.has(prop)) return undefined;
      return (...args) => {
        let payload;
        try { payload = internal.rpcArgs(args); } catch (e) { return Promise.reject(e); }
        return bind.serviceCall(h, prop, payload).then((text) => internal.deserialize(text));
      };
    },
  });
};
