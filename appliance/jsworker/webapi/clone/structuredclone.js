// ---- structuredClone (HTML §2.7): a deep copy in memory, keeping shared
// references and cycles, with ArrayBuffers optionally transferred.

// cloneValue copies v; memory maps each object already copied to its
// copy.
function cloneValue(v, memory) {
  switch (typeof v) {
    case "undefined": case "boolean": case "number": case "string": case "bigint":
      return v;
    case "symbol": case "function":
      throw dataCloneError(v);
  }
  if (v === null) return null;
  const seen = memory.get(v);
  if (seen !== undefined) return seen;
  if (Array.isArray(v)) {
    const out = new Array(v.length);
    memory.set(v, out);
    for (const k of Object.keys(v)) setOwn(out, k, cloneValue(v[k], memory));
    return out;
  }
  if (isPlain(v)) return cloneProperties(v, {}, memory);
  const kind = kindOf(v);
  if (typeof kind === "object") return cloneHooked(kind, v, memory);
  let out;
  switch (kind) {
    case "Object":
      return cloneProperties(v, {}, memory);
    case "Date":
      out = new Date(dateGetTime.call(v));
      break;
    case "RegExp":
      out = new RegExp(regExpSource.call(v), regExpFlags.call(v));
      break;
    case "Boolean":
      out = Object(booleanValueOf.call(v));
      break;
    case "Number":
      out = Object(numberValueOf.call(v));
      break;
    case "String":
      out = Object(stringValueOf.call(v));
      break;
    case "BigInt":
      out = Object(bigIntValueOf.call(v));
      break;
    case "ArrayBuffer":
      if (natives.isDetached(v)) throw new DOMException("An ArrayBuffer is detached and could not be cloned.", "DataCloneError");
      out = arrayBufferSlice.call(v, 0);
      break;
    case "TypedArray": {
      const buf = cloneValue(typedArrayBuffer.call(v), memory);
      out = new typedArrays[typedArrayName.call(v)](buf, typedArrayOffset.call(v), typedArrayLength.call(v));
      break;
    }
    case "DataView": {
      const buf = cloneValue(dataViewBuffer.call(v), memory);
      out = new DataView(buf, dataViewOffset.call(v), dataViewLength.call(v));
      break;
    }
    case "Map": {
      out = new Map();
      memory.set(v, out);
      for (const [k, x] of Array.from(mapEntries.call(v))) out.set(cloneValue(k, memory), cloneValue(x, memory));
      return out;
    }
    case "Set": {
      out = new Set();
      memory.set(v, out);
      for (const x of Array.from(setValues.call(v))) out.add(cloneValue(x, memory));
      return out;
    }
    case "DOMException":
      out = makeDOMException(v.name, v.message, typeof v.stack === "string" ? v.stack : undefined);
      break;
    case "Error": {
      const f = errorFields(v);
      out = makeError(f);
      memory.set(v, out);
      if (f.hasCause) setCause(out, cloneValue(v.cause, memory));
      return out;
    }
  }
  memory.set(v, out);
  return out;
}

// cloneProperties copies the own enumerable string-keyed properties of v
// into out (a class instance becomes a plain object, as in browsers).
function cloneProperties(v, out, memory) {
  memory.set(v, out);
  for (const k of Object.keys(v)) setOwn(out, k, cloneValue(v[k], memory));
  return out;
}

function cloneHooked(hook, v, memory) {
  const child = (x) => cloneValue(x, memory);
  let out;
  if (typeof hook.clone === "function") out = hook.clone(v, child);
  else if (typeof hook.serialize === "function" && typeof hook.deserialize === "function") out = hook.deserialize(hook.serialize(v, child), (x) => x);
  else throw dataCloneError(v);
  memory.set(v, out);
  return out;
}

// transferList checks structuredClone's transfer option: ArrayBuffers
// only, each once, none detached.
function transferList(options) {
  if (options === undefined || options === null) return [];
  if (typeof options !== "object" && typeof options !== "function") throw new TypeError("Failed to execute 'structuredClone': the options must be an object");
  const t = options.transfer;
  if (t === undefined) return [];
  if (t === null || typeof t !== "object" || typeof t[Symbol.iterator] !== "function") {
    throw new TypeError("Failed to execute 'structuredClone': options.transfer must be a sequence");
  }
  const list = Array.from(t);
  list.forEach((x, k) => {
    if (x === null || typeof x !== "object" || !isArrayBuffer(x)) {
      throw new DOMException(`Value at index ${k} does not have a transferable type.`, "DataCloneError");
    }
    if (list.indexOf(x) !== k) throw new DOMException(`ArrayBuffer at index ${k} is a duplicate of an earlier ArrayBuffer.`, "DataCloneError");
    if (natives.isDetached(x)) throw new DOMException(`ArrayBuffer at index ${k} is already detached.`, "DataCloneError");
  });
  return list;
}

internal.defineGlobal("structuredClone", function structuredClone(value, options = undefined) {
  if (arguments.length === 0) throw new TypeError("Failed to execute 'structuredClone': 1 argument required, but only 0 present.");
  const transfer = transferList(options);
  const memory = new Map();
  for (const ab of transfer) memory.set(ab, natives.share(ab));
  const out = cloneValue(value, memory);
  for (const ab of transfer) natives.detach(ab);
  return out;
});
