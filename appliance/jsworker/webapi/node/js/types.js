// util.types: brand checks that do not trust Symbol.toStringTag where
// the engine gives a better test.
sharedValues.types = function makeTypes() {
  const toTag = (v) => Object.prototype.toString.call(v);
  const isObject = (v) => typeof v === "object" && v !== null;
  function brand(getter) {
    return (v) => {
      if (!isObject(v)) return false;
      try { getter.call(v); return true; } catch { return false; }
    };
  }
  const getter = (proto, name) => Object.getOwnPropertyDescriptor(proto, name).get;
  const typedArrayTag = getter(Object.getPrototypeOf(Uint8Array.prototype), Symbol.toStringTag);
  const tagOf = (v) => (ArrayBuffer.isView(v) ? typedArrayTag.call(v) : undefined);
  const typed = (name) => (v) => tagOf(v) === name;
  const boxed = (proto) => brand(proto.valueOf);
  const isNumberObject = boxed(Number.prototype);
  const isStringObject = boxed(String.prototype);
  const isBooleanObject = boxed(Boolean.prototype);
  const isBigIntObject = typeof BigInt === "function" ? boxed(BigInt.prototype) : () => false;
  const isSymbolObject = boxed(Symbol.prototype);
  const isArrayBuffer = brand(getter(ArrayBuffer.prototype, "byteLength"));
  const isSharedArrayBuffer = typeof SharedArrayBuffer === "function" ? brand(getter(SharedArrayBuffer.prototype, "byteLength")) : () => false;
  const types = {
    isAnyArrayBuffer: (v) => isArrayBuffer(v) || isSharedArrayBuffer(v),
    isArrayBuffer,
    isSharedArrayBuffer,
    isArrayBufferView: (v) => ArrayBuffer.isView(v),
    isArgumentsObject: (v) => isObject(v) && toTag(v) === "[object Arguments]",
    isAsyncFunction: (v) => typeof v === "function" && toTag(v) === "[object AsyncFunction]",
    isGeneratorFunction: (v) => typeof v === "function" && (toTag(v) === "[object GeneratorFunction]" || toTag(v) === "[object AsyncGeneratorFunction]"),
    isGeneratorObject: (v) => isObject(v) && (toTag(v) === "[object Generator]" || toTag(v) === "[object AsyncGenerator]"),
    isBooleanObject,
    isNumberObject,
    isStringObject,
    isSymbolObject,
    isBigIntObject,
    isBoxedPrimitive: (v) => isNumberObject(v) || isStringObject(v) || isBooleanObject(v) || isBigIntObject(v) || isSymbolObject(v),
    isDataView: (v) => v instanceof DataView,
    isDate: brand(Date.prototype.getTime),
    isRegExp: (v) => v !== RegExp.prototype && brand(getter(RegExp.prototype, "source"))(v),
    isMap: brand(getter(Map.prototype, "size")),
    isSet: brand(getter(Set.prototype, "size")),
    isWeakMap: (v) => { if (!isObject(v)) return false; try { WeakMap.prototype.has.call(v, {}); return true; } catch { return false; } },
    isWeakSet: (v) => { if (!isObject(v)) return false; try { WeakSet.prototype.has.call(v, {}); return true; } catch { return false; } },
    isMapIterator: (v) => isObject(v) && toTag(v) === "[object Map Iterator]",
    isSetIterator: (v) => isObject(v) && toTag(v) === "[object Set Iterator]",
    isModuleNamespaceObject: (v) => isObject(v) && Object.getPrototypeOf(v) === null && v[Symbol.toStringTag] === "Module",
    isNativeError: (v) => isObject(v) && toTag(v) === "[object Error]" && v instanceof Error,
    isPromise: (v) => v instanceof Promise,
    isProxy: () => false,
    isExternal: () => false,
    isTypedArray: (v) => tagOf(v) !== undefined,
    isUint8Array: typed("Uint8Array"),
    isUint8ClampedArray: typed("Uint8ClampedArray"),
    isUint16Array: typed("Uint16Array"),
    isUint32Array: typed("Uint32Array"),
    isInt8Array: typed("Int8Array"),
    isInt16Array: typed("Int16Array"),
    isInt32Array: typed("Int32Array"),
    isFloat16Array: typed("Float16Array"),
    isFloat32Array: typed("Float32Array"),
    isFloat64Array: typed("Float64Array"),
    isBigInt64Array: typed("BigInt64Array"),
    isBigUint64Array: typed("BigUint64Array"),
    isKeyObject: (v) => isObject(v) && v[kKeyObject] === true,
    isCryptoKey: (v) => typeof global.CryptoKey === "function" && v instanceof global.CryptoKey,
  };
  return types;
};
modules["node:util/types"] = () => shared("types");
