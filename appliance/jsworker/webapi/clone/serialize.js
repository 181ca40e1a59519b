// ---- internal.serialize / internal.deserialize: what structuredClone
// copies, as JSON text (the format is in the package doc).

const base64Encode = internal.base64Encode;
const base64Decode = internal.base64Decode;

// goja's JSON.parse turns an escaped lone surrogate into U+FFFD, so a
// string with one is written as a tag: the string with U+FFFD in their
// places (v) and the surrogates by index (p: [index, code unit, ...]).
const surrogate = /[\uD800-\uDFFF]/;

// loneSurrogates lists the lone surrogates of s as [index, unit, ...], or
// returns null when there are none.
function loneSurrogates(s) {
  if (!surrogate.test(s)) return null;
  let out = null;
  for (let k = 0; k < s.length; k++) {
    const c = s.charCodeAt(k);
    if (c < 0xD800 || c > 0xDFFF) continue;
    if (c <= 0xDBFF) {
      const d = s.charCodeAt(k + 1);
      if (d >= 0xDC00 && d <= 0xDFFF) {
        k++;
        continue;
      }
    }
    if (out === null) out = [];
    out.push(k, c);
  }
  return out;
}

function encodeString(s) {
  const p = loneSurrogates(s);
  if (p === null) return s;
  let v = "";
  let from = 0;
  for (let k = 0; k < p.length; k += 2) {
    v += s.slice(from, p[k]) + "\uFFFD";
    from = p[k] + 1;
  }
  return { $: "s", v: v + s.slice(from), p };
}

function decodeString(x) {
  let s = x.v;
  for (let k = 0; k < x.p.length; k += 2) s = s.slice(0, x.p[k]) + String.fromCharCode(x.p[k + 1]) + s.slice(x.p[k] + 1);
  return s;
}

// encode turns v into a JSON-able tree; st.ids numbers each object in
// the order it is first met, which decode repeats.
function encode(v, st) {
  switch (typeof v) {
    case "string":
      return encodeString(v);
    case "boolean":
      return v;
    case "number":
      if (Number.isFinite(v) && !(v === 0 && 1 / v < 0)) return v;
      return { $: "n", v: v !== v ? "NaN" : v === 0 ? "-0" : v > 0 ? "Infinity" : "-Infinity" };
    case "undefined":
      return { $: "u" };
    case "bigint":
      return { $: "b", v: v.toString() };
    case "symbol": case "function":
      throw dataCloneError(v);
  }
  if (v === null) return null;
  const id = st.ids.get(v);
  if (id !== undefined) return { $: "r", i: id };
  if (Array.isArray(v)) {
    st.ids.set(v, st.ids.size);
    const keys = Object.keys(v);
    const n = v.length;
    if (keys.length === n) {
      let dense = true;
      for (let k = 0; k < n && dense; k++) dense = keys[k] === String(k);
      if (dense) {
        const out = new Array(n);
        for (let k = 0; k < n; k++) out[k] = encode(v[k], st);
        return out;
      }
    }
    const p = [];
    for (const k of keys) p.push(encodeString(k), encode(v[k], st));
    return { $: "a", l: n, p };
  }
  if (isPlain(v)) {
    st.ids.set(v, st.ids.size);
    return encodeProperties(v, st);
  }
  const kind = kindOf(v);
  st.ids.set(v, st.ids.size);
  if (typeof kind === "object") {
    if (typeof kind.serialize !== "function" || typeof kind.deserialize !== "function") throw dataCloneError(v);
    return { $: "h", t: kind.type, v: kind.serialize(v, (x) => encode(x, st)) };
  }
  switch (kind) {
    case "Object":
      return encodeProperties(v, st);
    case "Date": {
      const t = dateGetTime.call(v);
      return { $: "D", v: t !== t ? null : t };
    }
    case "RegExp":
      return { $: "R", s: regExpSource.call(v), f: regExpFlags.call(v) };
    case "Boolean":
      return { $: "W", v: booleanValueOf.call(v) };
    case "Number":
      return { $: "W", v: encode(numberValueOf.call(v), st) };
    case "String":
      return { $: "W", v: stringValueOf.call(v) };
    case "BigInt":
      return { $: "W", v: encode(bigIntValueOf.call(v), st) };
    case "ArrayBuffer":
      if (natives.isDetached(v)) throw new DOMException("An ArrayBuffer is detached and could not be cloned.", "DataCloneError");
      return { $: "A", d: base64Encode(v) };
    case "TypedArray":
      return { $: "V", t: typedArrayName.call(v), b: encode(typedArrayBuffer.call(v), st), o: typedArrayOffset.call(v), l: typedArrayLength.call(v) };
    case "DataView":
      return { $: "V", t: "DataView", b: encode(dataViewBuffer.call(v), st), o: dataViewOffset.call(v), l: dataViewLength.call(v) };
    case "Map": {
      const e = [];
      for (const [k, x] of Array.from(mapEntries.call(v))) e.push(encode(k, st), encode(x, st));
      return { $: "M", e };
    }
    case "Set": {
      const e = [];
      for (const x of Array.from(setValues.call(v))) e.push(encode(x, st));
      return { $: "S", e };
    }
    case "DOMException": {
      const out = { $: "X", n: v.name, m: v.message };
      if (typeof v.stack === "string") out.s = v.stack;
      return out;
    }
    case "Error": {
      const f = errorFields(v);
      const out = { $: "E", n: f.name };
      if (f.message !== undefined) out.m = f.message;
      if (f.stack !== undefined) out.s = f.stack;
      if (f.hasCause) out.c = encode(v.cause, st);
      return out;
    }
  }
  throw dataCloneError(v);
}

// encodeProperties writes an object's own enumerable properties; a key
// starting with "$" gets one more "$" in front. An object with a key that
// has a lone surrogate is written as a tag with its keys encoded.
function encodeProperties(v, st) {
  const keys = Object.keys(v);
  if (keys.some((k) => loneSurrogates(k) !== null)) {
    const p = [];
    for (const k of keys) p.push(encodeString(k), encode(v[k], st));
    return { $: "o", p };
  }
  const out = {};
  for (const k of keys) {
    const x = encode(v[k], st);
    setOwn(out, k.charCodeAt(0) === 0x24 ? "$" + k : k, x);
  }
  return out;
}

// decode rebuilds a value from encode's tree; st.objs lists the objects
// made so far, by number.
function decode(x, st) {
  if (x === null || typeof x !== "object") return x;
  if (Array.isArray(x)) {
    const out = new Array(x.length);
    st.objs.push(out);
    for (let k = 0; k < x.length; k++) out[k] = decode(x[k], st);
    return out;
  }
  const tag = x.$;
  if (tag === undefined) {
    const out = {};
    st.objs.push(out);
    for (const k of Object.keys(x)) setOwn(out, k.charCodeAt(0) === 0x24 ? k.slice(1) : k, decode(x[k], st));
    return out;
  }
  switch (tag) {
    case "u":
      return undefined;
    case "n":
      return x.v === "-0" ? -0 : Number(x.v);
    case "b":
      return BigInt(x.v);
    case "s":
      return decodeString(x);
    case "r": {
      if (!(x.i >= 0 && x.i < st.objs.length)) throw corrupt("a reference to an object not yet read");
      return st.objs[x.i];
    }
  }
  const slot = st.objs.length;
  st.objs.push(undefined);
  let out;
  switch (tag) {
    case "a":
      out = new Array(x.l);
      st.objs[slot] = out;
      for (let k = 0; k < x.p.length; k += 2) setOwn(out, decode(x.p[k], st), decode(x.p[k + 1], st));
      return out;
    case "o":
      out = {};
      st.objs[slot] = out;
      for (let k = 0; k < x.p.length; k += 2) setOwn(out, decode(x.p[k], st), decode(x.p[k + 1], st));
      return out;
    case "D":
      out = new Date(x.v === null ? NaN : x.v);
      break;
    case "R":
      out = new RegExp(x.s, x.f);
      break;
    case "W":
      out = Object(decode(x.v, st));
      break;
    case "A": {
      const bytes = base64Decode(x.d);
      if (bytes === null) throw corrupt("an ArrayBuffer that is not base64");
      out = bytes.buffer;
      break;
    }
    case "V": {
      const buf = decode(x.b, st);
      const C = x.t === "DataView" ? DataView : typedArrays[x.t];
      if (C === undefined) throw corrupt(`an unknown view type ${x.t}`);
      out = new C(buf, x.o, x.l);
      break;
    }
    case "M":
      out = new Map();
      st.objs[slot] = out;
      for (let k = 0; k < x.e.length; k += 2) out.set(decode(x.e[k], st), decode(x.e[k + 1], st));
      return out;
    case "S":
      out = new Set();
      st.objs[slot] = out;
      for (const e of x.e) out.add(decode(e, st));
      return out;
    case "X":
      out = makeDOMException(x.n, x.m, x.s);
      break;
    case "E":
      out = makeError({ name: x.n in errorClasses ? x.n : "Error", message: x.m, stack: x.s });
      st.objs[slot] = out;
      if ("c" in x) setCause(out, decode(x.c, st));
      return out;
    case "h": {
      const hook = cloneHooks.find((h) => h.type === x.t && typeof h.deserialize === "function");
      if (hook === undefined) throw corrupt(`a value of type ${x.t}, which nothing here can read`);
      out = hook.deserialize(x.v, (y) => decode(y, st));
      break;
    }
    default:
      throw corrupt(`the unknown tag ${JSON.stringify(tag)}`);
  }
  st.objs[slot] = out;
  return out;
}

function corrupt(what) {
  return new DOMException(`The serialized value is corrupt: it has ${what}.`, "DataCloneError");
}

// serialize returns the JSON text of v, or throws DataCloneError. A value
// that JSON says completely (natives.plainJSON: finite numbers other than
// -0, strings without lone surrogates, booleans, null, dense arrays and
// plain objects without "$" keys, each reached once) is its JSON.
function serialize(v) {
  if (natives.plainJSON(v)) return JSON.stringify(v);
  return JSON.stringify(encode(v, { ids: new Map() }));
}

// deserialize rebuilds what serialize wrote.
function deserialize(text) {
  text = String(text);
  const x = JSON.parse(text);
  if (text.indexOf('"$') < 0) return x;
  return decode(x, { objs: [] });
}

internal.serialize = serialize;
internal.deserialize = deserialize;
