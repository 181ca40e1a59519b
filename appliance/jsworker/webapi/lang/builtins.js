// The builtins of ES2021–ES2025 (and two V8 APIs) that goja lacks. Each is
// defined only where goja has nothing of that name, so a goja that learns
// one keeps its own.
const lang = host.lang;

function defineMissing(target, name, value) {
  if (name in target) return;
  Object.defineProperty(target, name, { value, writable: true, enumerable: false, configurable: true });
}

// named gives one of this file's functions its spec name.
function named(name, fn) {
  Object.defineProperty(fn, "name", { value: name });
  return fn;
}

function defineGetterMissing(target, name, get) {
  if (name in target) return;
  Object.defineProperty(target, name, { get, enumerable: false, configurable: true });
}

function isObject(v) {
  return v !== null && (typeof v === "object" || typeof v === "function");
}

function isConstructor(f) {
  if (typeof f !== "function") return false;
  try {
    Reflect.construct(function () {}, [], f);
    return true;
  } catch (e) {
    return false;
  }
}

function toIntegerOrInfinity(v) {
  const n = Number(v);
  if (n !== n || n === 0) return 0;
  if (!isFinite(n)) return n;
  return Math.trunc(n);
}

// canBeHeldWeakly: objects and symbols that Symbol.for did not make.
function canBeHeldWeakly(v) {
  return isObject(v) || (typeof v === "symbol" && Symbol.keyFor(v) === undefined);
}

// ---- Symbol.asyncIterator: the symbol esbuild's helpers look up as
// Symbol.for("Symbol.asyncIterator") when Symbol has none.
if (Symbol.asyncIterator === undefined) {
  Object.defineProperty(Symbol, "asyncIterator", { value: Symbol.for("Symbol.asyncIterator") });
}

// ---- WeakRef: holds its target strongly (goja has no weak references),
// so deref() always answers the target.
if (typeof global.WeakRef !== "function") {
  class WeakRef {
    #target;
    constructor(target) {
      if (!canBeHeldWeakly(target)) throw new TypeError("WeakRef: the target must be an object or a non-registered symbol");
      this.#target = target;
    }
    deref() {
      return this.#target;
    }
  }
  Object.defineProperty(WeakRef.prototype, Symbol.toStringTag, { value: "WeakRef", configurable: true });
  internal.defineGlobal("WeakRef", WeakRef);
}

// ---- FinalizationRegistry: registrations are kept (by token, weakly) so
// unregister answers right, but targets are never collected as far as
// JavaScript can tell, so the callback never runs.
if (typeof global.FinalizationRegistry !== "function") {
  class FinalizationRegistry {
    #cleanup;
    #byObject = new WeakMap(); // token → number of registrations
    #bySymbol = new Map();
    constructor(cleanupCallback) {
      if (typeof cleanupCallback !== "function") throw new TypeError("FinalizationRegistry: the cleanup callback must be a function");
      this.#cleanup = cleanupCallback;
    }
    register(target, heldValue, unregisterToken = undefined) {
      if (!canBeHeldWeakly(target)) throw new TypeError("FinalizationRegistry.prototype.register: the target must be an object or a non-registered symbol");
      if (Object.is(target, heldValue)) throw new TypeError("FinalizationRegistry.prototype.register: the target and the held value must differ");
      if (unregisterToken === undefined) return undefined;
      if (!canBeHeldWeakly(unregisterToken)) throw new TypeError("FinalizationRegistry.prototype.register: the unregister token must be an object or a non-registered symbol");
      const map = isObject(unregisterToken) ? this.#byObject : this.#bySymbol;
      map.set(unregisterToken, (map.get(unregisterToken) || 0) + 1);
      return undefined;
    }
    unregister(unregisterToken) {
      if (!canBeHeldWeakly(unregisterToken)) throw new TypeError("FinalizationRegistry.prototype.unregister: the unregister token must be an object or a non-registered symbol");
      const map = isObject(unregisterToken) ? this.#byObject : this.#bySymbol;
      return map.delete(unregisterToken);
    }
  }
  Object.defineProperty(FinalizationRegistry.prototype, Symbol.toStringTag, { value: "FinalizationRegistry", configurable: true });
  internal.defineGlobal("FinalizationRegistry", FinalizationRegistry);
}

// ---- Promise.withResolvers, Promise.try
defineMissing(Promise, "withResolvers", function withResolvers() {
  let resolve, reject;
  const promise = new this((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
});
defineMissing(Promise, "try", named("try", function (fn, ...args) {
  return new this((resolve, reject) => {
    try {
      resolve(fn(...args));
    } catch (e) {
      reject(e);
    }
  });
}));

// ---- Object.groupBy, Map.groupBy
function groupInto(items, callback, keyOf, add) {
  if (items === null || items === undefined) throw new TypeError("groupBy: items must not be null or undefined");
  if (typeof callback !== "function") throw new TypeError("groupBy: the callback must be a function");
  let k = 0;
  for (const value of items) add(keyOf(callback(value, k++)), value);
}
defineMissing(Object, "groupBy", named("groupBy", function (items, callback) {
  const out = Object.create(null);
  groupInto(items, callback, (key) => (typeof key === "symbol" ? key : String(key)), (key, value) => {
    if (Object.prototype.hasOwnProperty.call(out, key)) out[key].push(value);
    else out[key] = [value];
  });
  return out;
}));
defineMissing(Map, "groupBy", named("groupBy", function (items, callback) {
  const out = new Map();
  groupInto(items, callback, (key) => (key === 0 ? 0 : key), (key, value) => {
    const list = out.get(key);
    if (list) list.push(value);
    else out.set(key, [value]);
  });
  return out;
}));

// ---- the ES2025 Set methods, over set-like arguments (size, has, keys).
const setHas = Function.prototype.call.bind(Set.prototype.has);
const setAdd = Function.prototype.call.bind(Set.prototype.add);
const setDelete = Function.prototype.call.bind(Set.prototype.delete);
const setSize = Function.prototype.call.bind(Object.getOwnPropertyDescriptor(Set.prototype, "size").get);
const setValues = Function.prototype.call.bind(Set.prototype.values);

function thisSet(s, method) {
  try {
    setSize(s);
  } catch (e) {
    throw new TypeError(`Set.prototype.${method} called on something that is not a Set`);
  }
  return s;
}

// setRecord is GetSetRecord.
function setRecord(other, method) {
  if (!isObject(other)) throw new TypeError(`Set.prototype.${method}: the argument must be set-like (an object with size, has and keys)`);
  const raw = Number(other.size);
  if (raw !== raw) throw new TypeError(`Set.prototype.${method}: the argument's size is not a number`);
  const size = toIntegerOrInfinity(raw);
  if (size < 0) throw new RangeError(`Set.prototype.${method}: the argument's size is negative`);
  const has = other.has;
  if (typeof has !== "function") throw new TypeError(`Set.prototype.${method}: the argument's has is not a function`);
  const keys = other.keys;
  if (typeof keys !== "function") throw new TypeError(`Set.prototype.${method}: the argument's keys is not a function`);
  return {
    size,
    has: (v) => !!has.call(other, v),
    keys() {
      const it = keys.call(other);
      if (!isObject(it)) throw new TypeError(`Set.prototype.${method}: the argument's keys() did not return an object`);
      const next = it.next;
      return {
        next() {
          const r = next.call(it);
          if (!isObject(r)) throw new TypeError(`Set.prototype.${method}: an iterator result is not an object`);
          return r;
        },
        close() {
          const ret = it.return;
          if (ret !== undefined && ret !== null) ret.call(it);
        },
      };
    },
  };
}

const normalizeZero = (v) => (v === 0 ? 0 : v);

function copySet(s) {
  const out = new Set();
  for (const v of setValues(s)) setAdd(out, v);
  return out;
}

const setMethods = {
  union(other) {
    thisSet(this, "union");
    const rec = setRecord(other, "union");
    const out = copySet(this);
    const it = rec.keys();
    for (let r = it.next(); !r.done; r = it.next()) setAdd(out, normalizeZero(r.value));
    return out;
  },
  intersection(other) {
    thisSet(this, "intersection");
    const rec = setRecord(other, "intersection");
    const out = new Set();
    if (setSize(this) <= rec.size) {
      for (const v of [...setValues(this)]) if (rec.has(v)) setAdd(out, v);
    } else {
      const it = rec.keys();
      for (let r = it.next(); !r.done; r = it.next()) {
        const v = normalizeZero(r.value);
        if (setHas(this, v)) setAdd(out, v);
      }
    }
    return out;
  },
  difference(other) {
    thisSet(this, "difference");
    const rec = setRecord(other, "difference");
    const out = copySet(this);
    if (setSize(this) <= rec.size) {
      for (const v of [...setValues(this)]) if (rec.has(v)) setDelete(out, v);
    } else {
      const it = rec.keys();
      for (let r = it.next(); !r.done; r = it.next()) setDelete(out, normalizeZero(r.value));
    }
    return out;
  },
  symmetricDifference(other) {
    thisSet(this, "symmetricDifference");
    const rec = setRecord(other, "symmetricDifference");
    const out = copySet(this);
    const it = rec.keys();
    for (let r = it.next(); !r.done; r = it.next()) {
      const v = normalizeZero(r.value);
      if (setHas(this, v)) setDelete(out, v);
      else setAdd(out, v);
    }
    return out;
  },
  isSubsetOf(other) {
    thisSet(this, "isSubsetOf");
    const rec = setRecord(other, "isSubsetOf");
    if (setSize(this) > rec.size) return false;
    for (const v of [...setValues(this)]) if (!rec.has(v)) return false;
    return true;
  },
  isSupersetOf(other) {
    thisSet(this, "isSupersetOf");
    const rec = setRecord(other, "isSupersetOf");
    if (setSize(this) < rec.size) return false;
    const it = rec.keys();
    for (let r = it.next(); !r.done; r = it.next()) {
      if (!setHas(this, r.value)) {
        it.close();
        return false;
      }
    }
    return true;
  },
  isDisjointFrom(other) {
    thisSet(this, "isDisjointFrom");
    const rec = setRecord(other, "isDisjointFrom");
    if (setSize(this) <= rec.size) {
      for (const v of [...setValues(this)]) if (rec.has(v)) return false;
      return true;
    }
    const it = rec.keys();
    for (let r = it.next(); !r.done; r = it.next()) {
      if (setHas(this, r.value)) {
        it.close();
        return false;
      }
    }
    return true;
  },
};
for (const name of Object.keys(setMethods)) defineMissing(Set.prototype, name, setMethods[name]);

// ---- Array.fromAsync
async function fromAsync(items, mapfn = undefined, thisArg = undefined) {
  if (mapfn !== undefined && typeof mapfn !== "function") throw new TypeError("Array.fromAsync: the map function must be callable");
  if (items === null || items === undefined) throw new TypeError("Array.fromAsync: items must not be null or undefined");
  const C = this;
  const asyncMethod = items[Symbol.asyncIterator];
  const syncMethod = asyncMethod === undefined || asyncMethod === null ? items[Symbol.iterator] : undefined;
  if ((asyncMethod !== undefined && asyncMethod !== null) || (syncMethod !== undefined && syncMethod !== null)) {
    const out = isConstructor(C) ? new C() : [];
    const it = asyncMethod !== undefined && asyncMethod !== null ? asyncMethod.call(items) : syncMethod.call(items);
    const sync = asyncMethod === undefined || asyncMethod === null;
    let k = 0;
    for (;;) {
      const r = await it.next();
      if (!isObject(r)) throw new TypeError("Array.fromAsync: an iterator result is not an object");
      if (r.done) {
        out.length = k;
        return out;
      }
      try {
        let v = sync ? await r.value : r.value;
        if (mapfn !== undefined) v = await mapfn.call(thisArg, v, k);
        Object.defineProperty(out, k, { value: v, writable: true, enumerable: true, configurable: true });
      } catch (e) {
        if (typeof it.return === "function") {
          try {
            await it.return();
          } catch (ignored) {
            // the first error wins
          }
        }
        throw e;
      }
      k++;
    }
  }
  const arrayLike = Object(items);
  const len = Math.min(Math.max(toIntegerOrInfinity(arrayLike.length), 0), Number.MAX_SAFE_INTEGER);
  const out = isConstructor(C) ? new C(len) : new Array(len);
  for (let k = 0; k < len; k++) {
    let v = await arrayLike[k];
    if (mapfn !== undefined) v = await mapfn.call(thisArg, v, k);
    Object.defineProperty(out, k, { value: v, writable: true, enumerable: true, configurable: true });
  }
  out.length = len;
  return out;
}
defineMissing(Array, "fromAsync", fromAsync);

// ---- String.prototype.isWellFormed, toWellFormed (in Go)
function thisString(v, method) {
  if (v === null || v === undefined) throw new TypeError(`String.prototype.${method} called on null or undefined`);
  return String(v);
}
defineMissing(String.prototype, "isWellFormed", function isWellFormed() {
  return lang.isWellFormed(thisString(this, "isWellFormed"));
});
defineMissing(String.prototype, "toWellFormed", function toWellFormed() {
  return lang.toWellFormed(thisString(this, "toWellFormed"));
});

// ---- ArrayBuffer.prototype.transfer, transferToFixedLength, detached:
// the new buffer takes over the old one's memory (a copy when it grows)
// and the old one is detached.
defineMissing(ArrayBuffer.prototype, "transfer", function transfer(newLength = undefined) {
  return lang.transfer(this, newLength === undefined ? undefined : toIntegerOrInfinity(newLength));
});
defineMissing(ArrayBuffer.prototype, "transferToFixedLength", function transferToFixedLength(newLength = undefined) {
  return lang.transfer(this, newLength === undefined ? undefined : toIntegerOrInfinity(newLength));
});
defineGetterMissing(ArrayBuffer.prototype, "detached", function detached() {
  return lang.detached(this);
});

// ---- Math.sumPrecise: the exactly rounded sum (in Go, with big floats).
defineMissing(Math, "sumPrecise", function sumPrecise(items) {
  if (items === null || items === undefined || typeof items[Symbol.iterator] !== "function") {
    throw new TypeError("Math.sumPrecise needs an iterable of numbers");
  }
  const values = [];
  for (const v of items) {
    if (typeof v !== "number") throw new TypeError("Math.sumPrecise: every item must be a number");
    values.push(v);
  }
  return lang.sumPrecise(values);
});

// ---- Error.captureStackTrace and Error.stackTraceLimit (V8). The stack
// is written in V8's format from goja's call stack; when
// Error.prepareStackTrace is a function it gets V8-style call sites.
class CallSite {
  #f;
  constructor(f) {
    this.#f = f;
  }
  getThis() { return undefined; }
  getTypeName() { return null; }
  getFunction() { return undefined; }
  getFunctionName() { return this.#f.fn === "<anonymous>" || this.#f.fn === "" ? null : this.#f.fn; }
  getMethodName() { return null; }
  getFileName() { return this.#f.file || undefined; }
  getLineNumber() { return this.#f.native ? null : this.#f.line; }
  getColumnNumber() { return this.#f.native ? null : this.#f.column; }
  getEvalOrigin() { return undefined; }
  getScriptNameOrSourceURL() { return this.#f.file || undefined; }
  getScriptHash() { return ""; }
  getEnclosingLineNumber() { return null; }
  getEnclosingColumnNumber() { return null; }
  getPosition() { return 0; }
  getPromiseIndex() { return null; }
  isToplevel() { return this.getFunctionName() === null; }
  isEval() { return false; }
  isNative() { return this.#f.native; }
  isConstructor() { return false; }
  isAsync() { return false; }
  isPromiseAll() { return false; }
  toString() {
    const f = this.#f;
    const where = f.native ? "native" : `${f.file || "<anonymous>"}:${f.line}:${f.column}`;
    const name = this.getFunctionName();
    return name === null ? where : `${name} (${where})`;
  }
}

function errorHeader(target) {
  let name, message;
  try {
    name = target.name === undefined ? "Error" : String(target.name);
    message = target.message === undefined ? "" : String(target.message);
  } catch (e) {
    return "Error";
  }
  if (name === "") return message;
  if (message === "") return name;
  return name + ": " + message;
}

if (typeof Error.captureStackTrace !== "function") {
  if (!("stackTraceLimit" in Error)) Error.stackTraceLimit = 10;
  defineMissing(Error, "captureStackTrace", function captureStackTrace(target, constructorOpt = undefined) {
    if (!isObject(target)) throw new TypeError("Error.captureStackTrace needs an object");
    let frames = lang.callSites(1);
    if (typeof constructorOpt === "function") {
      const name = constructorOpt.name;
      let at = name ? frames.findIndex((f) => f.fn === name) : -1;
      // goja leaves class constructors' frames unnamed: a constructor that
      // hides itself is the frame right above.
      if (at < 0 && frames.length > 0 && frames[0].fn === "<anonymous>") at = 0;
      frames = at < 0 ? [] : frames.slice(at + 1);
    }
    const limit = Error.stackTraceLimit;
    if (typeof limit === "number" && limit >= 0 && limit < frames.length) frames = frames.slice(0, Math.trunc(limit));
    const sites = frames.map((f) => new CallSite(f));
    let stack;
    if (typeof Error.prepareStackTrace === "function") {
      stack = Error.prepareStackTrace(target, sites);
    } else {
      stack = errorHeader(target) + sites.map((s) => "\n    at " + s).join("");
    }
    Object.defineProperty(target, "stack", { value: stack, writable: true, enumerable: false, configurable: true });
  });
}

// %TypedArray%.from takes any iterable, a string included (goja's refuses
// a primitive string: Uint8Array.from(atob(s), c => c.charCodeAt(0)), as
// JWT code writes it).
{
  const TypedArray = Object.getPrototypeOf(Uint8Array);
  const from = TypedArray.from;
  Object.defineProperty(TypedArray, "from", {
    value: function from_(source, mapFn, thisArg) {
      if (typeof source === "string") source = Array.from(source);
      return mapFn === undefined ? from.call(this, source) : from.call(this, source, mapFn, thisArg);
    },
    writable: true,
    configurable: true,
  });
  Object.defineProperty(TypedArray.from, "name", { value: "from" });
}
