// The Node.js compatibility layer (nodejs_compat): the node:* modules and
// the globals Buffer, process and global. Every module is registered in
// internal.modules as a function that builds it on first import; modules
// reach one another with load(). This file holds what they share; each
// other file runs in a block of its own.
const native = host.node;
const modules = internal.modules;
const load = global.__dwk_import;
const kAsyncIterator = Symbol.asyncIterator || Symbol.for("Symbol.asyncIterator");
// kKeyObject marks crypto KeyObjects, for util.types.isKeyObject.
const kKeyObject = Symbol("kKeyObject");

// shared holds values several modules use, made on first use: shared(name)
// returns it, sharedValues[name] is the function that makes it.
const sharedValues = Object.create(null);
const sharedMade = Object.create(null);
function shared(name) {
  if (!(name in sharedMade)) sharedMade[name] = sharedValues[name]();
  return sharedMade[name];
}

// inspectValue is util.inspect without inspect.custom: the runtime's
// inspect, with top-level strings quoted as Node quotes them.
function inspectValue(value, options) {
  if (typeof value !== "string") return internal.inspect(value, options);
  const quote = !value.includes("'") ? "'" : !value.includes('"') ? '"' : !value.includes("`") ? "`" : "'";
  const escaped = value.replace(/[\\\n\r\t]/g, (c) => ({ "\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t" })[c]);
  return quote + (quote === "'" ? escaped.replace(/'/g, "\\'") : escaped) + quote;
}

// ---- errors with Node's codes.
function codedError(Ctor, code, message) {
  const e = new Ctor(message);
  e.code = code;
  return e;
}
function describe(value) {
  if (value == null) return " Received " + value;
  if (typeof value === "function") return " Received function " + (value.name || "<anonymous>");
  if (typeof value === "object") {
    if (value.constructor && value.constructor.name) return " Received an instance of " + value.constructor.name;
    return " Received " + inspectValue(value, { depth: -1 });
  }
  let shown = inspectValue(value);
  if (shown.length > 28) shown = shown.slice(0, 25) + "...";
  return " Received type " + typeof value + " (" + shown + ")";
}
function errInvalidArgType(name, expected, value) {
  const what = name.includes(".") ? "property" : "argument";
  return codedError(TypeError, "ERR_INVALID_ARG_TYPE", `The "${name}" ${what} must be ${expected}.` + describe(value));
}
function errInvalidArgValue(name, value, reason = "is invalid") {
  return codedError(TypeError, "ERR_INVALID_ARG_VALUE", `The argument '${name}' ${reason}. Received ${inspectValue(value)}`);
}
function errOutOfRange(name, range, value) {
  return codedError(RangeError, "ERR_OUT_OF_RANGE", `The value of "${name}" is out of range. It must be ${range}. Received ${inspectValue(value)}`);
}
function abortError(reason) {
  const e = new Error("The operation was aborted", reason !== undefined ? { cause: reason } : undefined);
  e.name = "AbortError";
  e.code = "ABORT_ERR";
  return e;
}

// ---- validation, as Node's validators word it.
function validateFunction(value, name) {
  if (typeof value !== "function") throw errInvalidArgType(name, "of type function", value);
}
function validateString(value, name) {
  if (typeof value !== "string") throw errInvalidArgType(name, "of type string", value);
}
function validateObject(value, name) {
  if (value === null || typeof value !== "object") throw errInvalidArgType(name, "of type object", value);
}
function validateNumber(value, name, min, max) {
  if (typeof value !== "number") throw errInvalidArgType(name, "of type number", value);
  if ((min != null && value < min) || (max != null && value > max) || ((min != null || max != null) && Number.isNaN(value))) {
    throw errOutOfRange(name, `${min != null ? `>= ${min}` : ""}${min != null && max != null ? " && " : ""}${max != null ? `<= ${max}` : ""}`, value);
  }
}
function validateInteger(value, name, min = Number.MIN_SAFE_INTEGER, max = Number.MAX_SAFE_INTEGER) {
  if (typeof value !== "number") throw errInvalidArgType(name, "of type number", value);
  if (!Number.isInteger(value)) throw errOutOfRange(name, "an integer", value);
  if (value < min || value > max) throw errOutOfRange(name, `>= ${min} && <= ${max}`, value);
}
function validateAbortSignal(signal, name) {
  if (signal !== undefined && (signal === null || typeof signal !== "object" || !("aborted" in signal))) {
    throw errInvalidArgType(name, "an instance of AbortSignal", signal);
  }
}

// onAbort calls fn once when signal aborts and returns a function that
// stops listening.
function onAbort(signal, fn) {
  if (!signal) return () => {};
  if (signal.aborted) {
    queueMicrotask(fn);
    return () => {};
  }
  signal.addEventListener("abort", fn, { once: true });
  return () => signal.removeEventListener("abort", fn);
}

// bytesOf returns a Uint8Array over the bytes of a view or an ArrayBuffer,
// or over a string encoded in encoding; what names it in the error.
function bytesOf(value, what, encoding) {
  if (typeof value === "string") return new Uint8Array(native.encode(value, normalizeEncoding(encoding) || "utf8"));
  if (value instanceof ArrayBuffer) return new Uint8Array(value);
  if (ArrayBuffer.isView(value)) return value instanceof Uint8Array ? value : new Uint8Array(value.buffer, value.byteOffset, value.byteLength);
  throw errInvalidArgType(what, "of type string or an instance of Buffer, TypedArray, DataView or ArrayBuffer", value);
}

// normalizeEncoding returns the canonical name of a Node.js encoding, or
// undefined when it is not one.
function normalizeEncoding(enc) {
  if (enc == null || enc === "utf8" || enc === "utf-8") return "utf8";
  switch (String(enc).toLowerCase()) {
    case "utf8": case "utf-8": return "utf8";
    case "ucs2": case "ucs-2": case "utf16le": case "utf-16le": return "utf16le";
    case "latin1": case "binary": return "latin1";
    case "base64": return "base64";
    case "base64url": return "base64url";
    case "hex": return "hex";
    case "ascii": return "ascii";
  }
  return undefined;
}

// ---- modules that cannot work in a worker: importing one works, using
// any of its exports throws. exportNames lists the names the module has
// in Node, so that a named import resolves to a property that throws.
function unsupported(specifier, key) {
  const what = typeof key === "string" ? ` (its export "${key}" was used)` : "";
  return new Error(`dwk does not support the Node.js module "${specifier}"${what}; see docs/porting.md`);
}
const inertKeys = new Set(["__esModule", "default", "then", "toJSON", "constructor", "inspect", "$$typeof", "asymmetricMatch", "nodeType"]);
function stubModule(specifier, exportNames, real) {
  const names = exportNames ? exportNames.split(/\s+/).filter(Boolean) : [];
  const target = real || {};
  for (const k of Object.keys(target)) if (!names.includes(k)) names.push(k);
  return new Proxy(target, {
    get(t, key) {
      if (typeof key === "symbol" || Object.prototype.hasOwnProperty.call(t, key)) return t[key];
      if (inertKeys.has(key)) return undefined;
      throw unsupported(specifier, key);
    },
    has(t, key) { return typeof key === "string" && names.includes(key) || key in t; },
    ownKeys(t) { return [...new Set([...Reflect.ownKeys(t), ...names])]; },
    getOwnPropertyDescriptor(t, key) {
      const own = Reflect.getOwnPropertyDescriptor(t, key);
      if (own) return own;
      if (typeof key === "string" && names.includes(key)) {
        return { configurable: true, enumerable: true, get: () => { throw unsupported(specifier, key); } };
      }
      return undefined;
    },
    set(t, key) { throw unsupported(specifier, key); },
    defineProperty(t, key) { throw unsupported(specifier, key); },
  });
}
