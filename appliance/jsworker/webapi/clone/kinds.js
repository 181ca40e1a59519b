// ---- What the structured clone algorithm sees in a value: the kinds it
// copies, the ones it refuses, and the hooks later packages add.
const natives = host.clone;

const objectToString = Object.prototype.toString;
const getter = (proto, name) => Object.getOwnPropertyDescriptor(proto, name).get;
const TypedArrayPrototype = Object.getPrototypeOf(Uint8Array.prototype);
const typedArrayName = getter(TypedArrayPrototype, Symbol.toStringTag);
const typedArrayBuffer = getter(TypedArrayPrototype, "buffer");
const typedArrayOffset = getter(TypedArrayPrototype, "byteOffset");
const typedArrayLength = getter(TypedArrayPrototype, "length");
const dataViewBuffer = getter(DataView.prototype, "buffer");
const dataViewOffset = getter(DataView.prototype, "byteOffset");
const dataViewLength = getter(DataView.prototype, "byteLength");
const arrayBufferLength = getter(ArrayBuffer.prototype, "byteLength");
const arrayBufferSlice = ArrayBuffer.prototype.slice;
const dateGetTime = Date.prototype.getTime;
const regExpSource = getter(RegExp.prototype, "source");
const regExpFlags = getter(RegExp.prototype, "flags");
const mapEntries = Map.prototype.entries;
const mapSize = getter(Map.prototype, "size");
const setSize = getter(Set.prototype, "size");
const setValues = Set.prototype.values;
const booleanValueOf = Boolean.prototype.valueOf;
const numberValueOf = Number.prototype.valueOf;
const stringValueOf = String.prototype.valueOf;
const bigIntValueOf = BigInt.prototype.valueOf;
const defineProperty = Object.defineProperty;

// The typed array constructors by name (the ones this engine has).
const typedArrays = Object.create(null);
for (const name of ["Int8Array", "Uint8Array", "Uint8ClampedArray", "Int16Array", "Uint16Array", "Int32Array", "Uint32Array",
  "Float16Array", "Float32Array", "Float64Array", "BigInt64Array", "BigUint64Array"]) {
  if (typeof global[name] === "function") typedArrays[name] = global[name];
}

// The error classes whose name survives a clone; any other is "Error".
const errorClasses = Object.assign(Object.create(null), { Error, EvalError, RangeError, ReferenceError, SyntaxError, TypeError, URIError });

// Objects with internal state the algorithm cannot copy, by their
// Symbol.toStringTag.
const uncloneableTags = new Set(["Promise", "WeakMap", "WeakSet", "WeakRef", "FinalizationRegistry", "Symbol", "Generator",
  "AsyncGenerator", "Array Iterator", "Map Iterator", "Set Iterator", "String Iterator", "RegExp String Iterator", "Module"]);

function describe(v) {
  switch (typeof v) {
    case "function": return `function ${v.name || "(anonymous)"}`;
    case "symbol": return v.toString();
  }
  let tag;
  try {
    tag = objectToString.call(v).slice(8, -1);
  } catch {
    tag = "Object";
  }
  return `#<${tag}>`;
}

function dataCloneError(v) {
  return new DOMException(`${describe(v)} could not be cloned.`, "DataCloneError");
}

// cloneHooks lists the types later packages teach the algorithm (Blob,
// File, object stubs); see the package doc for a hook's shape.
const cloneHooks = [];

// notCloneable makes instances of the given classes (platform objects
// that are not serializable) a DataCloneError, as in browsers, instead of
// an empty object.
function notCloneable(...classes) {
  for (const C of classes) {
    cloneHooks.push({ type: C.name, is: (v) => v instanceof C });
  }
}
for (const name of ["EventTarget", "Event", "AbortController", "TextEncoder", "TextDecoder", "URL", "URLSearchParams", "URLPattern"]) {
  if (typeof global[name] === "function") notCloneable(global[name]);
}

// hasBrand reports whether the built-in getter accepts v, that is
// whether v has the internal slots of its class.
function hasBrand(get, v) {
  try {
    get.call(v);
    return true;
  } catch {
    return false;
  }
}

function isArrayBuffer(v) {
  return v instanceof ArrayBuffer && hasBrand(arrayBufferLength, v);
}

// kindOf classifies an object that is neither an array nor a plain
// object (one whose prototype is Object.prototype or null): a hook, the
// name of a kind the algorithm copies, or "Object" for an ordinary object
// whose own enumerable properties are copied. It throws DataCloneError
// for what cannot be cloned.
function kindOf(v) {
  for (const h of cloneHooks) {
    if (h.is(v)) return h;
  }
  switch (natives.className(v)) {
    case "Date": return "Date";
    case "RegExp": return "RegExp";
    case "Error": return isDOMException(v) ? "DOMException" : "Error";
    // goja's class of the rest (Map, Set, ArrayBuffer, views, WeakMap,
    // Promise...) is "Object": they are told apart below.
    case "Boolean": return "Boolean";
    case "Number": return "Number";
    case "String": return "String";
    case "Function": throw dataCloneError(v);
  }
  if (v instanceof Map && hasBrand(mapSize, v)) return "Map";
  if (v instanceof Set && hasBrand(setSize, v)) return "Set";
  if (ArrayBuffer.isView(v)) return typedArrayName.call(v) === undefined ? "DataView" : "TypedArray";
  if (isArrayBuffer(v)) return "ArrayBuffer";
  if (v instanceof BigInt && hasBrand(bigIntValueOf, v)) return "BigInt";
  if (uncloneableTags.has(objectToString.call(v).slice(8, -1))) throw dataCloneError(v);
  return "Object";
}

const isDOMException = internal.isDOMException;

// errorFields reads what a clone keeps of an Error: its name (one of the
// standard classes), message (an own data property), stack and cause.
function errorFields(v) {
  let name = v.name;
  name = typeof name === "string" && name in errorClasses ? name : "Error";
  const desc = Object.getOwnPropertyDescriptor(v, "message");
  const message = desc !== undefined && "value" in desc ? String(desc.value) : undefined;
  const stack = typeof v.stack === "string" ? v.stack : undefined;
  const hasCause = Object.prototype.hasOwnProperty.call(v, "cause");
  return { name, message, stack, hasCause };
}

// makeError builds the copy of an Error from errorFields' result.
function makeError(f) {
  const e = f.message === undefined ? new errorClasses[f.name]() : new errorClasses[f.name](f.message);
  if (f.stack !== undefined) defineProperty(e, "stack", { value: f.stack, writable: true, configurable: true, enumerable: false });
  return e;
}

function makeDOMException(name, message, stack) {
  const e = new DOMException(message, name);
  if (stack !== undefined) defineProperty(e, "stack", { value: stack, writable: true, configurable: true, enumerable: false });
  return e;
}

function setCause(e, cause) {
  defineProperty(e, "cause", { value: cause, writable: true, configurable: true, enumerable: false });
}

// setOwn defines a data property the way CreateDataProperty does, so that
// a key such as "__proto__" stays an ordinary property.
function setOwn(o, key, value) {
  if (key === "__proto__") defineProperty(o, key, { value, writable: true, enumerable: true, configurable: true });
  else o[key] = value;
}

function isPlain(v) {
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}

internal.cloneHooks = cloneHooks;
internal.notCloneable = notCloneable;
