// Deep equality for assert.deepEqual / deepStrictEqual and
// util.isDeepStrictEqual, after Node's comparison rules.
sharedValues.comparisons = function makeComparisons() {
  const toTag = (v) => Object.prototype.toString.call(v);
  const hasOwn = (o, k) => Object.prototype.hasOwnProperty.call(o, k);
  const isEnumerable = (o, k) => Object.prototype.propertyIsEnumerable.call(o, k);
  const types = shared("types");

  function ownKeys(o, strict) {
    const keys = Object.keys(o);
    if (strict) for (const s of Object.getOwnPropertySymbols(o)) if (isEnumerable(o, s)) keys.push(s);
    return keys;
  }

  function primitiveEqual(a, b, strict) {
    if (strict) return Object.is(a, b);
    // eslint-disable-next-line eqeqeq
    return a == b || (a !== a && b !== b);
  }

  function equal(a, b, strict, memo) {
    if (a === b) return a !== 0 || !strict || Object.is(a, b);
    const ta = typeof a, tb = typeof b;
    if (ta !== "object" || tb !== "object" || a === null || b === null) {
      if ((ta === "object" && a !== null) || (tb === "object" && b !== null)) return false;
      if (ta === "function" || tb === "function") return false;
      return primitiveEqual(a, b, strict);
    }
    if (strict && Object.getPrototypeOf(a) !== Object.getPrototypeOf(b)) return false;
    const tag = toTag(a);
    if (tag !== toTag(b)) return false;
    if (Array.isArray(a) !== Array.isArray(b)) return false;

    // Cycles: a pair already being compared is taken as equal.
    for (const [x, y] of memo) if (x === a && y === b) return true;
    memo.push([a, b]);
    try {
      return equalObjects(a, b, tag, strict, memo);
    } finally {
      memo.pop();
    }
  }

  function equalObjects(a, b, tag, strict, memo) {
    if (Array.isArray(a)) {
      if (a.length !== b.length) return false;
      for (let k = 0; k < a.length; k++) {
        if (hasOwn(a, k) !== hasOwn(b, k) && strict) return false;
        if (!equal(a[k], b[k], strict, memo)) return false;
      }
      return equalKeys(a, b, strict, memo, (k) => !(String(k >>> 0) === k && k >>> 0 < a.length));
    }
    if (types.isDate(a)) {
      if (!types.isDate(b) || a.getTime() !== b.getTime()) return false;
    } else if (types.isRegExp(a)) {
      if (!types.isRegExp(b) || a.source !== b.source || a.flags !== b.flags || a.lastIndex !== b.lastIndex) return false;
    } else if (types.isNativeError(a) || a instanceof Error) {
      if (a.message !== b.message || a.name !== b.name) return false;
      if ("cause" in a !== "cause" in b || ("cause" in a && !equal(a.cause, b.cause, strict, memo))) return false;
    } else if (types.isArrayBufferView(a)) {
      if (!types.isArrayBufferView(b)) return false;
      if (strict && toTag(a) !== toTag(b)) return false;
      if (types.isFloat32Array(a) || types.isFloat64Array(a)) {
        if (a.length !== b.length) return false;
        for (let k = 0; k < a.length; k++) if (!primitiveEqual(a[k], b[k], strict) && !(a[k] === b[k])) return false;
      } else {
        const x = new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
        const y = new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
        if (x.length !== y.length || native.compare(x, y) !== 0) return false;
      }
      return equalKeys(a, b, strict, memo, (k) => !(String(k >>> 0) === k && k >>> 0 < a.length));
    } else if (types.isAnyArrayBuffer(a)) {
      if (!types.isAnyArrayBuffer(b) || a.byteLength !== b.byteLength) return false;
      if (native.compare(new Uint8Array(a), new Uint8Array(b)) !== 0) return false;
    } else if (types.isBoxedPrimitive(a)) {
      if (!types.isBoxedPrimitive(b) || !Object.is(a.valueOf(), b.valueOf())) return false;
    } else if (types.isMap(a)) {
      if (!types.isMap(b) || a.size !== b.size || !equalMaps(a, b, strict, memo)) return false;
    } else if (types.isSet(a)) {
      if (!types.isSet(b) || a.size !== b.size || !equalSets(a, b, strict, memo)) return false;
    } else if (types.isWeakMap(a) || types.isWeakSet(a) || types.isPromise(a)) {
      return false; // only the same object is equal
    }
    return equalKeys(a, b, strict, memo);
  }

  function equalKeys(a, b, strict, memo, keep = () => true) {
    const ka = ownKeys(a, strict).filter(keep);
    const kb = ownKeys(b, strict).filter(keep);
    if (ka.length !== kb.length) return false;
    for (const k of ka) {
      if (!isEnumerable(b, k)) return false;
    }
    for (const k of ka) {
      if (!equal(a[k], b[k], strict, memo)) return false;
    }
    return true;
  }

  function isObjectLike(v) {
    return typeof v === "object" && v !== null || typeof v === "function";
  }

  function equalSets(a, b, strict, memo) {
    let pending = null;
    for (const v of a) {
      if (b.has(v)) continue;
      if (!isObjectLike(v) && strict) return false;
      (pending || (pending = [])).push(v);
    }
    if (pending === null) return true;
    const candidates = [];
    for (const v of b) if (!a.has(v)) candidates.push(v);
    for (const v of pending) {
      const k = candidates.findIndex((c) => equal(v, c, strict, memo));
      if (k < 0) return false;
      candidates.splice(k, 1);
    }
    return true;
  }

  function equalMaps(a, b, strict, memo) {
    let pending = null;
    for (const [k, v] of a) {
      if (b.has(k)) {
        if (!equal(v, b.get(k), strict, memo)) return false;
        continue;
      }
      if (!isObjectLike(k) && strict) return false;
      (pending || (pending = [])).push([k, v]);
    }
    if (pending === null) return true;
    const candidates = [];
    for (const entry of b) if (!a.has(entry[0])) candidates.push(entry);
    for (const [k, v] of pending) {
      const i = candidates.findIndex(([ck, cv]) => equal(k, ck, strict, memo) && equal(v, cv, strict, memo));
      if (i < 0) return false;
      candidates.splice(i, 1);
    }
    return true;
  }

  return {
    isDeepEqual: (a, b) => equal(a, b, false, []),
    isDeepStrictEqual: (a, b) => equal(a, b, true, []),
  };
};
