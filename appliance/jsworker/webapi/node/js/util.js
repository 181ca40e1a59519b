// node:util — formatting and inspection over the runtime's
// internal.format and internal.inspect, promisify and friends, and the
// type checks of util.types.
const customInspect = Symbol.for("nodejs.util.inspect.custom");
const customPromisify = Symbol.for("nodejs.util.promisify.custom");

sharedValues.inspect = function makeInspect() {
  const defaultOptions = {
    showHidden: false, depth: 2, colors: false, customInspect: true, showProxy: false,
    maxArrayLength: 100, maxStringLength: 10000, breakLength: 128, compact: 3, sorted: false, getters: false, numericSeparator: false,
  };
  // inspect honours util.inspect.custom on the value itself; values
  // nested in it are printed by the runtime's inspect.
  function inspect(value, opts) {
    if (typeof opts === "boolean") opts = { showHidden: opts, depth: arguments[2] };
    else if (opts === null || typeof opts !== "object") opts = {};
    const options = Object.assign({}, defaultOptions, opts);
    if (options.customInspect && value !== null && (typeof value === "object" || typeof value === "function")) {
      const custom = value[customInspect];
      if (typeof custom === "function" && custom !== inspect) {
        const depth = options.depth === null ? Infinity : options.depth;
        const result = custom.call(value, depth, Object.assign({}, options, { stylize: (s) => s }), inspect);
        if (result !== value) return typeof result === "string" ? result : inspect(result, opts);
      }
    }
    return inspectValue(value, options);
  }
  inspect.custom = customInspect;
  inspect.defaultOptions = defaultOptions;
  inspect.colors = Object.assign(Object.create(null), { bold: [1, 22], italic: [3, 23], underline: [4, 24], inverse: [7, 27], white: [37, 39], grey: [90, 39], black: [30, 39], blue: [34, 39], cyan: [36, 39], green: [32, 39], magenta: [35, 39], red: [31, 39], yellow: [33, 39] });
  inspect.styles = Object.assign(Object.create(null), { special: "cyan", number: "yellow", bigint: "yellow", boolean: "yellow", undefined: "grey", null: "bold", string: "green", symbol: "green", date: "magenta", regexp: "red", module: "underline" });
  // format applies inspect.custom to the arguments it inspects (not to
  // those %j or %d convert).
  function format(...args) {
    for (let k = 0; k < args.length; k++) {
      const a = args[k];
      if (a !== null && typeof a === "object" && typeof a[customInspect] === "function") args[k] = inspect(a);
    }
    return internal.format(...args);
  }
  return { inspect, format };
};

modules["node:util"] = function makeUtil() {
  const { inspect, format } = shared("inspect");
  const types = shared("types");

  function promisify(original) {
    validateFunction(original, "original");
    if (original[customPromisify]) {
      const fn = original[customPromisify];
      validateFunction(fn, "util.promisify.custom");
      return Object.defineProperty(fn, customPromisify, { value: fn, enumerable: false, writable: false, configurable: true });
    }
    function promisified(...args) {
      return new Promise((resolve, reject) => {
        Reflect.apply(original, this, [...args, (err, ...values) => {
          if (err) return reject(err);
          resolve(values[0]);
        }]);
      });
    }
    Object.setPrototypeOf(promisified, Object.getPrototypeOf(original));
    Object.defineProperty(promisified, customPromisify, { value: promisified, enumerable: false, writable: false, configurable: true });
    const descriptors = Object.getOwnPropertyDescriptors(original);
    for (const k of ["length", "name", "prototype"]) delete descriptors[k];
    return Object.defineProperties(promisified, descriptors);
  }
  promisify.custom = customPromisify;

  function callbackify(original) {
    validateFunction(original, "original");
    function callbackified(...args) {
      const callback = args.pop();
      validateFunction(callback, "last argument");
      const onRejected = (reason) => {
        if (!reason) {
          const err = codedError(Error, "ERR_FALSY_VALUE_REJECTION", "Promise was rejected with falsy value");
          err.reason = reason;
          reason = err;
        }
        queueMicrotask(() => callback(reason));
      };
      Reflect.apply(original, this, args).then((value) => queueMicrotask(() => callback(null, value)), onRejected);
    }
    Object.defineProperties(callbackified, { length: { value: original.length + 1, configurable: true }, name: { value: original.name + "Callbackified", configurable: true } });
    return callbackified;
  }

  function inherits(ctor, superCtor) {
    if (ctor === undefined || ctor === null) throw errInvalidArgType("ctor", "of type function", ctor);
    if (superCtor === undefined || superCtor === null) throw errInvalidArgType("superCtor", "of type function", superCtor);
    if (superCtor.prototype === undefined) throw errInvalidArgType("superCtor.prototype", "of type object", superCtor.prototype);
    Object.defineProperty(ctor, "super_", { value: superCtor, writable: true, configurable: true });
    Object.setPrototypeOf(ctor.prototype, superCtor.prototype);
  }

  const warnedCodes = new Set();
  function deprecate(fn, msg, code) {
    validateFunction(fn, "fn");
    let warned = false;
    function deprecated(...args) {
      if (!warned && !(code && warnedCodes.has(code))) {
        warned = true;
        if (code) warnedCodes.add(code);
        load("node:process").emitWarning(msg, "DeprecationWarning", code);
      }
      if (new.target) return Reflect.construct(fn, args, new.target);
      return Reflect.apply(fn, this, args);
    }
    Object.setPrototypeOf(deprecated, fn);
    if (fn.prototype) deprecated.prototype = fn.prototype;
    return deprecated;
  }

  function debuglog(section, callback) {
    const name = String(section).toUpperCase();
    let enabled;
    const isEnabled = () => {
      if (enabled === undefined) {
        const spec = (load("node:process").env.NODE_DEBUG || "").toUpperCase();
        enabled = spec.split(/[\s,]+/).filter(Boolean).some((pattern) =>
          new RegExp("^" + pattern.replace(/[|\\{}()[\]^$+?.]/g, "\\$&").replace(/\*/g, ".*") + "$").test(name));
      }
      return enabled;
    };
    function logger(...args) {
      if (isEnabled()) console.error(`${name} 1: ${format(...args)}`);
    }
    Object.defineProperty(logger, "enabled", { get: isEnabled, enumerable: true, configurable: true });
    if (typeof callback === "function") callback(logger);
    return logger;
  }

  const ansi = /[\u001B\u009B][[\]()#;?]*(?:(?:(?:(?:;[-a-zA-Z\d/#&.:=?%@~_]+)*|[a-zA-Z\d]+(?:;[-a-zA-Z\d/#&.:=?%@~_]*)*)?\u0007)|(?:(?:\d{1,4}(?:;\d{0,4})*)?[\dA-PR-TZcf-ntqry=><~]))/g;
  function stripVTControlCharacters(str) {
    validateString(str, "str");
    return str.replace(ansi, "");
  }
  function styleText(style, text) {
    validateString(text, "text");
    for (const s of Array.isArray(style) ? style : [style]) {
      if (!(s in inspect.colors) && s !== "none" && s !== "reset") throw errInvalidArgValue("format", s, `must be one of: ${Object.keys(inspect.colors).join(", ")}`);
    }
    return text;
  }
  function toUSVString(str) {
    str = String(str);
    let out = "";
    for (let k = 0; k < str.length; k++) {
      const c = str.charCodeAt(k);
      if (c >= 0xd800 && c <= 0xdbff && k + 1 < str.length && (str.charCodeAt(k + 1) & 0xfc00) === 0xdc00) {
        out += str[k] + str[k + 1];
        k++;
      } else if (c >= 0xd800 && c <= 0xdfff) {
        out += "\ufffd";
      } else {
        out += str[k];
      }
    }
    return out;
  }
  function aborted(signal, resource) {
    validateAbortSignal(signal, "signal");
    if (signal === undefined) throw errInvalidArgType("signal", "an instance of AbortSignal", signal);
    if (resource === null || (typeof resource !== "object" && typeof resource !== "function")) throw errInvalidArgType("resource", "of type object", resource);
    return new Promise((resolve) => onAbort(signal, () => resolve()));
  }

  const isPrimitive = (v) => v === null || (typeof v !== "object" && typeof v !== "function");
  return {
    format,
    formatWithOptions(options, ...args) { validateObject(options, "inspectOptions"); return format(...args); },
    inspect,
    promisify,
    callbackify,
    inherits,
    deprecate,
    debuglog,
    debug: debuglog,
    isDeepStrictEqual: (a, b) => shared("comparisons").isDeepStrictEqual(a, b),
    types,
    stripVTControlCharacters,
    styleText,
    toUSVString,
    aborted,
    transferableAbortSignal: (signal) => signal,
    transferableAbortController: () => new AbortController(),
    get TextEncoder() { return global.TextEncoder; },
    get TextDecoder() { return global.TextDecoder; },
    log: (...args) => console.log(format(...args)),
    _extend(target, source) {
      if (source === null || typeof source !== "object") return target;
      for (const k of Object.keys(source)) target[k] = source[k];
      return target;
    },
    // The legacy type checks Node deprecated, still used by old packages.
    isArray: Array.isArray,
    isBoolean: (v) => typeof v === "boolean",
    isBuffer: (v) => shared("buffer").Buffer.isBuffer(v),
    isDate: types.isDate,
    isError: (v) => types.isNativeError(v) || v instanceof Error,
    isFunction: (v) => typeof v === "function",
    isNull: (v) => v === null,
    isNullOrUndefined: (v) => v === null || v === undefined,
    isNumber: (v) => typeof v === "number",
    isObject: (v) => v !== null && typeof v === "object",
    isPrimitive,
    isRegExp: types.isRegExp,
    isString: (v) => typeof v === "string",
    isSymbol: (v) => typeof v === "symbol",
    isUndefined: (v) => v === undefined,
  };
};
modules["node:sys"] = () => load("node:util");
