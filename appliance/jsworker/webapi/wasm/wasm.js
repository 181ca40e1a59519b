// The WebAssembly namespace (the WebAssembly JavaScript Interface and Web
// API), over the natives in host.wasm. The classes keep their Go record in
// a private field; Go makes the objects of records it creates (an
// instance's exports) through the factories given to W.init.
const W = host.wasm;
const WRAP = Object.freeze({}); // the constructors' argument when Go wraps a record
let wrapping;

function isObject(v) {
  return v !== null && (typeof v === "object" || typeof v === "function");
}

function errorClass(name) {
  const C = class extends Error {
    constructor(message, options) {
      super(message, options);
    }
  };
  Object.defineProperty(C, "name", { value: name });
  Object.defineProperty(C.prototype, "name", { value: name, writable: true, configurable: true, enumerable: false });
  return C;
}
const CompileError = errorClass("CompileError");
const LinkError = errorClass("LinkError");
const RuntimeError = errorClass("RuntimeError");

function bytesOf(source, who) {
  return internal.bufferSource(source, `${who}: Argument 0`);
}

// index reads an [EnforceRange] unsigned long member of a descriptor.
function index(v, who, what) {
  const n = Number(v);
  if (!Number.isFinite(n)) throw new TypeError(`${who}: ${what} must be convertible to a valid number`);
  const t = Math.trunc(n);
  if (t < 0 || t > 0xffffffff) throw new TypeError(`${who}: ${what} must be in the unsigned long range`);
  return t;
}

// limitsOf reads initial (or its alias minimum) and maximum.
function limitsOf(d, who, upper) {
  let initial = d.initial;
  if (d.minimum !== undefined) {
    if (initial !== undefined) throw new TypeError(`${who}: The properties 'initial' and 'minimum' are not allowed at the same time`);
    initial = d.minimum;
  }
  if (initial === undefined) throw new TypeError(`${who}: Property 'initial' is required`);
  initial = index(initial, who, "Property 'initial'");
  let maximum = d.maximum === undefined ? undefined : index(d.maximum, who, "Property 'maximum'");
  if (initial > upper) throw new RangeError(`${who}: Property 'initial': value ${initial} is above the upper bound ${upper}`);
  if (maximum !== undefined) {
    if (maximum < initial) throw new RangeError(`${who}: Property 'maximum': value ${maximum} is below the lower bound ${initial}`);
    if (maximum > upper) maximum = upper;
  }
  return [initial, maximum === undefined ? -1 : maximum];
}

let moduleHandle, memoryHandle, tableHandle, globalHandle;

function handleOf(get, v, who, what) {
  try {
    return get(v);
  } catch (e) {
    throw new TypeError(`${who}: Argument 0 must be a ${what}`);
  }
}

class Module {
  #h;
  constructor(bytes) {
    if (bytes === WRAP) {
      this.#h = wrapping;
      return;
    }
    if (new.target === undefined) throw new TypeError("WebAssembly.Module must be invoked with 'new'");
    this.#h = W.compile(bytesOf(bytes, "WebAssembly.Module()"), "WebAssembly.Module()");
  }
  static exports(module) {
    return W.moduleExports(handleOf(moduleHandle, module, "WebAssembly.Module.exports()", "WebAssembly.Module"));
  }
  static imports(module) {
    return W.moduleImports(handleOf(moduleHandle, module, "WebAssembly.Module.imports()", "WebAssembly.Module"));
  }
  static customSections(module, sectionName) {
    const h = handleOf(moduleHandle, module, "WebAssembly.Module.customSections()", "WebAssembly.Module");
    if (sectionName === undefined) throw new TypeError("WebAssembly.Module.customSections(): Argument 1 is required");
    return W.customSections(h, String(sectionName));
  }
  static {
    moduleHandle = (m) => m.#h;
  }
}

// instantiate gathers the import values of module handle h from
// importObject, checking them as the JS API says, and returns the frozen
// exports object of the new instance.
function instantiate(h, importObject, who) {
  if (importObject !== undefined && !isObject(importObject)) {
    throw new TypeError(`${who}: Argument 1 must be an object`);
  }
  const imports = W.moduleImports(h);
  if (imports.length > 0 && importObject === undefined) {
    throw new TypeError(`${who}: Imports argument must be present and must be an object`);
  }
  const values = new Array(imports.length);
  for (let i = 0; i < imports.length; i++) {
    const imp = imports[i];
    const ns = importObject[imp.module];
    if (!isObject(ns)) throw new TypeError(`${who}: Import #${i} "${imp.module}": module is not an object or function`);
    const v = ns[imp.name];
    const where = `${who}: Import #${i} "${imp.module}" "${imp.name}"`;
    switch (imp.kind) {
      case "function":
        if (typeof v !== "function") throw new LinkError(`${where}: function import requires a callable`);
        values[i] = v;
        break;
      case "memory":
        if (!(v instanceof Memory)) throw new LinkError(`${where}: memory import must be a WebAssembly.Memory object`);
        values[i] = memoryHandle(v);
        break;
      case "table":
        if (!(v instanceof Table)) throw new LinkError(`${where}: table import requires a WebAssembly.Table`);
        values[i] = tableHandle(v);
        break;
      case "global":
        values[i] = v instanceof Global ? globalHandle(v) : v;
        break;
      default:
        throw new LinkError(`${where}: imports of kind ${imp.kind} are not supported`);
    }
  }
  const flat = W.instantiate(h, values);
  const exports = Object.create(null);
  for (let i = 0; i < flat.length; i += 2) {
    Object.defineProperty(exports, flat[i], { value: flat[i + 1], writable: false, enumerable: true, configurable: false });
  }
  return Object.freeze(exports);
}

class Instance {
  #exports;
  constructor(module, importObject) {
    if (new.target === undefined) throw new TypeError("WebAssembly.Instance must be invoked with 'new'");
    if (!(module instanceof Module)) throw new TypeError("WebAssembly.Instance(): Argument 0 must be a WebAssembly.Module");
    this.#exports = instantiate(moduleHandle(module), importObject, "WebAssembly.Instance()");
  }
  get exports() {
    return this.#exports;
  }
}

class Memory {
  #h;
  constructor(descriptor) {
    if (descriptor === WRAP) {
      this.#h = wrapping;
      return;
    }
    const who = "WebAssembly.Memory()";
    if (new.target === undefined) throw new TypeError("WebAssembly.Memory must be invoked with 'new'");
    if (!isObject(descriptor)) throw new TypeError(`${who}: Argument 0 must be a memory descriptor`);
    const [initial, maximum] = limitsOf(descriptor, who, 65536);
    if (descriptor.shared) throw new TypeError(`${who}: shared memory is not supported`);
    this.#h = W.newMemory(this, initial, maximum);
  }
  grow(delta) {
    return W.memoryGrow(this.#h, index(delta, "WebAssembly.Memory.grow()", "Argument 0"));
  }
  get buffer() {
    return W.memoryBuffer(this.#h);
  }
  static {
    memoryHandle = (m) => m.#h;
  }
}

function elementType(name, who) {
  switch (name) {
    case "anyfunc":
    case "funcref":
      return "anyfunc";
    case "externref":
      return "externref";
  }
  throw new TypeError(`${who}: Descriptor property 'element' must be a WebAssembly reference type`);
}

class Table {
  #h;
  constructor(descriptor, value) {
    if (descriptor === WRAP) {
      this.#h = wrapping;
      return;
    }
    const who = "WebAssembly.Table()";
    if (new.target === undefined) throw new TypeError("WebAssembly.Table must be invoked with 'new'");
    if (!isObject(descriptor)) throw new TypeError(`${who}: Argument 0 must be a table descriptor`);
    const element = elementType(String(descriptor.element), who);
    const [initial, maximum] = limitsOf(descriptor, who, 10000000);
    this.#h = W.newTable(this, element, initial, maximum, value, value !== undefined);
  }
  get length() {
    return W.tableLength(this.#h);
  }
  get(i) {
    return W.tableGet(this.#h, index(i, "WebAssembly.Table.get()", "Argument 0"));
  }
  set(i, value) {
    W.tableSet(this.#h, index(i, "WebAssembly.Table.set()", "Argument 0"), value, value !== undefined);
  }
  grow(delta, value) {
    return W.tableGrow(this.#h, index(delta, "WebAssembly.Table.grow()", "Argument 0"), value, value !== undefined);
  }
  static {
    tableHandle = (t) => t.#h;
  }
}

class Global {
  #h;
  constructor(descriptor, value) {
    if (descriptor === WRAP) {
      this.#h = wrapping;
      return;
    }
    const who = "WebAssembly.Global()";
    if (new.target === undefined) throw new TypeError("WebAssembly.Global must be invoked with 'new'");
    if (!isObject(descriptor)) throw new TypeError(`${who}: Argument 0 must be a global descriptor`);
    const mutable = !!descriptor.mutable;
    const type = String(descriptor.value);
    this.#h = W.newGlobal(this, type, mutable, value, value !== undefined);
  }
  get value() {
    return W.globalGet(this.#h);
  }
  set value(v) {
    W.globalSet(this.#h, v);
  }
  valueOf() {
    return W.globalGet(this.#h);
  }
  static {
    globalHandle = (g) => g.#h;
  }
}

for (const C of [Module, Instance, Memory, Table, Global]) {
  Object.defineProperty(C.prototype, Symbol.toStringTag, { value: "WebAssembly." + C.name, configurable: true });
}

function wrap(C) {
  return (h) => {
    wrapping = h;
    try {
      return new C(WRAP);
    } finally {
      wrapping = undefined;
    }
  };
}

W.init({
  CompileError, LinkError, RuntimeError,
  Module: wrap(Module), Memory: wrap(Memory), Table: wrap(Table), Global: wrap(Global),
  toBigInt(v) {
    if (typeof v === "number") throw new TypeError(`Cannot convert ${v} to a BigInt`);
    return BigInt(v);
  },
  toList(v, n) {
    if (!isObject(v) || typeof v[Symbol.iterator] !== "function") throw new TypeError("multi-value results must be iterable");
    const list = Array.from(v);
    if (list.length !== n) throw new TypeError(`multi-value results: expected ${n} values, got ${list.length}`);
    return list;
  },
});

function validate(bytes) {
  return W.validate(bytesOf(bytes, "WebAssembly.validate()"));
}

function compile(bytes) {
  try {
    return W.compileAsync(bytesOf(bytes, "WebAssembly.compile()"));
  } catch (e) {
    return Promise.reject(e);
  }
}

function instantiateAsync(source, importObject) {
  if (source instanceof Module) {
    return Promise.resolve().then(() => new Instance(source, importObject));
  }
  let bytes;
  try {
    bytes = bytesOf(source, "WebAssembly.instantiate()");
  } catch (e) {
    return Promise.reject(new TypeError("WebAssembly.instantiate(): Argument 0 must be a buffer source or a WebAssembly.Module object"));
  }
  return W.compileAsync(bytes).then((module) => ({ module, instance: new Instance(module, importObject) }));
}

// responseBytes awaits source, a Response or a promise of one, and reads
// its body, as the Web API's compileStreaming and instantiateStreaming do.
async function responseBytes(source, who) {
  const response = await source;
  const isResponse = typeof Response === "function" ? response instanceof Response : isObject(response) && typeof response.arrayBuffer === "function";
  if (!isResponse) throw new TypeError(`${who}: Argument 0 must be a Response or a promise of one`);
  const type = response.headers && typeof response.headers.get === "function" ? response.headers.get("content-type") : null;
  if (type === null || type.split(";")[0].trim().toLowerCase() !== "application/wasm") {
    throw new TypeError(`${who}: Incorrect response MIME type. Expected 'application/wasm'.`);
  }
  if (!response.ok) throw new TypeError(`${who}: HTTP status code is not ok`);
  return response.arrayBuffer();
}

async function compileStreaming(source) {
  return W.compileAsync(new Uint8Array(await responseBytes(source, "WebAssembly.compileStreaming()")));
}

async function instantiateStreaming(source, importObject) {
  const module = await W.compileAsync(new Uint8Array(await responseBytes(source, "WebAssembly.instantiateStreaming()")));
  return { module, instance: new Instance(module, importObject) };
}

const WebAssembly = {};
const members = {
  Module, Instance, Memory, Table, Global, CompileError, LinkError, RuntimeError,
  validate, compile, instantiate: instantiateAsync, compileStreaming, instantiateStreaming,
};
for (const name of Object.keys(members)) {
  Object.defineProperty(WebAssembly, name, { value: members[name], writable: true, configurable: true, enumerable: false });
}
Object.defineProperty(members.instantiate, "name", { value: "instantiate" });
Object.defineProperty(WebAssembly, Symbol.toStringTag, { value: "WebAssembly", configurable: true });
internal.defineGlobal("WebAssembly", WebAssembly);

// wasmModule makes the Module of a CompiledWasm module's bytes (the
// adapter's, for the modules a bundle imports).
internal.wasmModule = function wasmModule(bytes) {
  return wrap(Module)(W.compile(bytes, "WebAssembly.Module()"));
};
