// The runtime's own globals: console, timers, queueMicrotask, performance,
// navigator, and AsyncLocalStorage's base (internal.AsyncLocalStorage).
const core = host.core;

function define(name, value) {
  Object.defineProperty(global, name, { value, writable: true, configurable: true, enumerable: false });
}

// ---- inspect: how console and util.inspect print values.
const isArrayBufferView = ArrayBuffer.isView;
// inspectCustom is Node's util.inspect.custom: an object's own way to be
// printed.
const inspectCustom = Symbol.for("nodejs.util.inspect.custom");
function quote(s) {
  return "'" + String(s).replace(/\\/g, "\\\\").replace(/'/g, "\\'").replace(/\n/g, "\\n") + "'";
}
const identRE = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
function keyString(k) {
  return typeof k === "symbol" ? "[" + k.toString() + "]" : identRE.test(k) ? k : quote(k);
}
function inspect(value, opts) {
  const depth = opts && opts.depth !== undefined ? (opts.depth === null ? Infinity : opts.depth) : 2;
  const seen = [];
  function fmt(v, d) {
    switch (typeof v) {
      case "string": return d === 0 ? v : quote(v);
      case "number": return Object.is(v, -0) ? "-0" : String(v);
      case "bigint": return v + "n";
      case "boolean": case "undefined": return String(v);
      case "symbol": return v.toString();
      case "function": {
        const name = v.name ? ": " + v.name : " (anonymous)";
        const cls = /^class\b/.test(Function.prototype.toString.call(v)) ? "[class" : "[Function";
        return cls + name + "]";
      }
    }
    if (v === null) return "null";
    if (seen.indexOf(v) >= 0) return "[Circular *1]";
    const custom = v[inspectCustom];
    if (typeof custom === "function" && custom !== inspect) {
      const r = custom.call(v, depth - d, Object.assign({}, opts, { depth: depth - d }), inspect);
      if (r !== v) return typeof r === "string" ? r : fmt(r, d);
    }
    if (v instanceof Error) {
      const s = v.stack || (v.name + ": " + v.message);
      return d === 0 ? s : "[" + s + "]";
    }
    if (v instanceof Date) return isNaN(v) ? "Invalid Date" : v.toISOString();
    if (v instanceof RegExp) return String(v);
    if (typeof v.then === "function" && v instanceof Promise) return "Promise { <pending> }";
    const level = d + 1;
    if (level > depth + 1) return Array.isArray(v) ? "[Array]" : "[Object]";
    seen.push(v);
    try {
      let parts, open, close, prefix = "";
      if (Array.isArray(v)) {
        parts = [];
        const n = Math.min(v.length, 100);
        for (let k = 0; k < n; k++) parts.push(k in v ? fmt(v[k], level) : "<empty>");
        if (v.length > n) parts.push("... " + (v.length - n) + " more items");
        open = "["; close = "]";
      } else if (isArrayBufferView(v) && !(v instanceof DataView)) {
        parts = [];
        const n = Math.min(v.length, 100);
        for (let k = 0; k < n; k++) parts.push(fmt(v[k], level));
        if (v.length > n) parts.push("... " + (v.length - n) + " more items");
        prefix = (v.constructor && v.constructor.name || "TypedArray") + "(" + v.length + ") ";
        open = "["; close = "]";
      } else if (v instanceof ArrayBuffer) {
        return "ArrayBuffer { byteLength: " + v.byteLength + " }";
      } else if (v instanceof Map) {
        parts = [];
        for (const [k, x] of v) parts.push(fmt(k, level) + " => " + fmt(x, level));
        prefix = "Map(" + v.size + ") "; open = "{"; close = "}";
      } else if (v instanceof Set) {
        parts = [];
        for (const x of v) parts.push(fmt(x, level));
        prefix = "Set(" + v.size + ") "; open = "{"; close = "}";
      } else {
        parts = [];
        for (const k of Reflect.ownKeys(v)) {
          const desc = Object.getOwnPropertyDescriptor(v, k);
          if (!desc || !desc.enumerable) continue;
          const val = "value" in desc ? fmt(desc.value, level) : desc.get && desc.set ? "[Getter/Setter]" : desc.get ? "[Getter]" : "[Setter]";
          parts.push(keyString(k) + ": " + val);
        }
        const proto = Object.getPrototypeOf(v);
        const ctor = proto && proto.constructor && proto.constructor.name;
        if (proto === null) prefix = "[Object: null prototype] ";
        else if (ctor && ctor !== "Object") prefix = ctor + " ";
        open = "{"; close = "}";
      }
      if (parts.length === 0) return prefix + open + close;
      const line = prefix + open + " " + parts.join(", ") + " " + close;
      if (line.length <= 72) return line;
      const pad = "  ".repeat(level);
      return prefix + open + "\n" + pad + parts.join(",\n" + pad) + "\n" + "  ".repeat(d) + close;
    } finally {
      seen.pop();
    }
  }
  return fmt(value, 0);
}

// format is util.format: printf-style %s %d %i %f %j %o %O %c %%, then the
// rest of the arguments inspected.
function format(...args) {
  let out = "";
  let rest = 0;
  if (typeof args[0] === "string") {
    const f = args[0];
    let a = 1;
    let last = 0;
    for (let k = 0; k < f.length - 1; k++) {
      if (f[k] !== "%") continue;
      const c = f[k + 1];
      let rep;
      if (c === "%") { rep = "%"; }
      else if (a >= args.length) { continue; }
      else if (c === "s") { const x = args[a++]; rep = typeof x === "string" ? x : typeof x === "object" && x !== null ? inspect(x, { depth: 1 }) : String(x); }
      else if (c === "d" || c === "i") { const x = args[a++]; rep = typeof x === "bigint" ? x + "n" : String(c === "i" ? Math.trunc(Number(x)) : Number(x)); }
      else if (c === "f") { rep = String(parseFloat(args[a++])); }
      else if (c === "j") { try { rep = JSON.stringify(args[a++]); } catch (e) { rep = "[Circular]"; } }
      else if (c === "o" || c === "O") { rep = inspect(args[a++], { depth: c === "o" ? 4 : 2 }); }
      else if (c === "c") { a++; rep = ""; }
      else { continue; }
      out += f.slice(last, k) + rep;
      last = k + 2;
      k++;
    }
    out += f.slice(last);
    rest = a;
  }
  for (let k = rest; k < args.length; k++) {
    if (out !== "" || k > rest) out += " ";
    out += typeof args[k] === "string" ? args[k] : inspect(args[k]);
  }
  return out;
}
internal.inspect = inspect;
internal.format = format;

// ---- console
const counts = new Map();
const timersByLabel = new Map();
let groupIndent = "";
function emit(level, args) {
  let text = format(...args);
  if (groupIndent) text = groupIndent + text.split("\n").join("\n" + groupIndent);
  core.log(level, text);
}
const console = {
  log: (...a) => emit("info", a),
  info: (...a) => emit("info", a),
  debug: (...a) => emit("debug", a),
  warn: (...a) => emit("warn", a),
  error: (...a) => emit("error", a),
  trace: (...a) => emit("info", ["Trace: " + format(...a) + "\n" + (new Error().stack || "").split("\n").slice(1).join("\n")]),
  dir: (v, o) => emit("info", [inspect(v, o)]),
  dirxml: (...a) => emit("info", a),
  table: (...a) => emit("info", a),
  assert: (cond, ...a) => { if (!cond) emit("error", ["Assertion failed" + (a.length ? ": " + format(...a) : "")]); },
  count: (label = "default") => { const n = (counts.get(label) || 0) + 1; counts.set(label, n); emit("info", [label + ": " + n]); },
  countReset: (label = "default") => { counts.delete(label); },
  time: (label = "default") => { timersByLabel.set(label, core.now()); },
  timeLog: (label = "default", ...a) => { const t = timersByLabel.get(label); if (t !== undefined) emit("info", [label + ": " + (core.now() - t).toFixed(3) + "ms", ...a]); },
  timeEnd: (label = "default") => { const t = timersByLabel.get(label); if (t !== undefined) { timersByLabel.delete(label); emit("info", [label + ": " + (core.now() - t).toFixed(3) + "ms"]); } },
  group: (...a) => { if (a.length) emit("info", a); groupIndent += "  "; },
  groupCollapsed: (...a) => { if (a.length) emit("info", a); groupIndent += "  "; },
  groupEnd: () => { groupIndent = groupIndent.slice(2); },
};
define("console", console);

// ---- timers and tasks
define("setTimeout", function setTimeout(fn, ms, ...args) { return core.setTimeout(fn, ms, ...args); });
define("setInterval", function setInterval(fn, ms, ...args) { return core.setInterval(fn, ms, ...args); });
define("clearTimeout", function clearTimeout(id) { core.clearTimer(id); });
define("clearInterval", function clearInterval(id) { core.clearTimer(id); });
const resolved = Promise.resolve();
define("queueMicrotask", function queueMicrotask(fn) {
  if (typeof fn !== "function") throw new TypeError("queueMicrotask needs a function");
  resolved.then(fn);
});
define("setImmediate", function setImmediate(fn, ...args) { return core.setTimeout(fn, 0, ...args); });
define("clearImmediate", function clearImmediate(id) { core.clearTimer(id); });

// ---- performance and navigator
const timeOrigin = Date.now() - core.now();
define("performance", Object.freeze({
  now: () => core.now(),
  timeOrigin,
  mark() {}, measure() {}, clearMarks() {}, clearMeasures() {},
  getEntries: () => [], getEntriesByName: () => [], getEntriesByType: () => [],
  toJSON: () => ({ timeOrigin }),
}));
define("navigator", Object.freeze({ userAgent: "Cloudflare-Workers", hardwareConcurrency: 1, language: "en", languages: ["en"] }));
define("self", global);

// ---- AsyncLocalStorage's base: a value per async context, carried
// across await, promise reactions and timers.
class AsyncLocalStorage {
  getStore() { return core.alsGet(this); }
  run(store, fn, ...args) { return core.alsRun(this, store, fn, undefined, args); }
  exit(fn, ...args) { return core.alsRun(this, undefined, fn, undefined, args); }
  enterWith() { throw new Error("AsyncLocalStorage.enterWith is not supported; use run"); }
  disable() {}
  static bind(fn) {
    const snap = core.capture();
    return function bound(...args) { return core.runIn(snap, fn, this, args); };
  }
  static snapshot() {
    const snap = core.capture();
    return (fn, ...args) => core.runIn(snap, fn, undefined, args);
  }
}
internal.AsyncLocalStorage = AsyncLocalStorage;

// ---- modules the bundle imports by name (cloudflare:workers, node:*,
// dwk:module/N): extensions register them in internal.modules, as the
// exports object or as a function that makes it on first import.
const modules = Object.create(null);
const made = Object.create(null);
internal.modules = modules;
define("__dwk_import", function __dwk_import(specifier) {
  if (specifier in made) return made[specifier];
  const m = modules[specifier];
  if (m === undefined) {
    if (specifier.startsWith("node:")) {
      throw new Error(`dwk does not provide the module "${specifier}" (see docs/porting.md for the Node.js modules it has)`);
    }
    throw new Error(`dwk does not provide the module "${specifier}"`);
  }
  return (made[specifier] = typeof m === "function" ? m() : m);
});

// ---- helpers the preludes share.
// bufferSource returns a Uint8Array over the bytes of an ArrayBuffer or an
// ArrayBuffer view (not a copy), or throws a TypeError naming what.
internal.bufferSource = function bufferSource(v, what) {
  if (v instanceof ArrayBuffer) return new Uint8Array(v);
  if (ArrayBuffer.isView(v)) return new Uint8Array(v.buffer, v.byteOffset, v.byteLength);
  throw new TypeError(`${what || "The value"} must be an ArrayBuffer or an ArrayBuffer view`);
};
// defineGlobal defines a non-enumerable global, as Web IDL does.
internal.defineGlobal = define;
