// node:process and the process global: an EventEmitter with what a worker
// can use. process.env holds the worker's string variables and secrets
// once the adapter calls internal.setProcessEnv; nextTick is
// queueMicrotask, as in workerd.
const envTarget = {};

// setProcessEnv fills process.env from a worker's env as workerd does:
// strings as they are, plain JSON values stringified, bindings left out.
internal.setProcessEnv = function setProcessEnv(env) {
  for (const key of Object.keys(envTarget)) delete envTarget[key];
  for (const [key, value] of Object.entries(env || {})) {
    if (typeof value === "string") envTarget[key] = value;
    else if (isJSONValue(value, new Set())) envTarget[key] = JSON.stringify(value);
  }
};
function isJSONValue(value, seen) {
  switch (typeof value) {
    case "boolean": case "number": case "string": return true;
    case "object": {
      if (value === null) return true;
      if (seen.has(value)) return false;
      seen.add(value);
      const proto = Object.getPrototypeOf(value);
      if (proto === Array.prototype) return value.every((v) => isJSONValue(v, seen));
      if (proto === Object.prototype) return Object.values(value).every((v) => isJSONValue(v, seen));
      return false;
    }
  }
  return false;
}

modules["node:process"] = function makeProcess() {
  const EventEmitter = shared("events");
  const process = Object.create(EventEmitter.prototype);
  EventEmitter.init.call(process);

  const env = new Proxy(envTarget, {
    set(t, key, value) {
      if (typeof key === "symbol" || typeof value === "symbol") throw new TypeError("Cannot convert a Symbol value to a string");
      t[key] = String(value);
      return true;
    },
    defineProperty(t, key, desc) {
      if (typeof key === "symbol") throw new TypeError("Cannot convert a Symbol value to a string");
      if ("get" in desc || "set" in desc) throw errInvalidArgValue("descriptor", desc, "process.env value must not have getter/setter");
      return Reflect.defineProperty(t, key, { value: String(desc.value), writable: true, enumerable: true, configurable: true });
    },
  });

  function unsupportedCall(name) {
    return function () {
      throw codedError(Error, "ERR_METHOD_NOT_IMPLEMENTED", `process.${name}() is not supported in a worker`);
    };
  }
  function hrtime(prev) {
    const now = performance.now();
    let sec = Math.floor(now / 1000);
    let nsec = Math.round((now - sec * 1000) * 1e6);
    if (nsec >= 1e9) { sec++; nsec -= 1e9; }
    if (prev !== undefined) {
      if (!Array.isArray(prev) || prev.length !== 2) throw errInvalidArgType("time", "an instance of Array", prev);
      sec -= prev[0];
      nsec -= prev[1];
      if (nsec < 0) { sec--; nsec += 1e9; }
    }
    return [sec, nsec];
  }
  hrtime.bigint = () => BigInt(Math.round(performance.now() * 1e6));
  function memoryUsage() {
    return { rss: 0, heapTotal: 0, heapUsed: 0, external: 0, arrayBuffers: 0 };
  }
  memoryUsage.rss = () => 0;

  function emitWarning(warning, type, code, ctor) {
    let detail;
    if (type !== null && typeof type === "object" && !Array.isArray(type)) {
      ({ type, code, detail, ctor } = type);
    } else if (typeof type === "function") {
      ctor = type; type = undefined;
    } else if (typeof code === "function") {
      ctor = code; code = undefined;
    }
    let err;
    if (typeof warning === "string") {
      err = new (ctor || Error)(warning);
      err.name = type || "Warning";
    } else if (warning instanceof Error) {
      err = warning;
      if (type) err.name = type;
    } else {
      throw errInvalidArgType("warning", "of type string or an instance of Error", warning);
    }
    if (code !== undefined) err.code = code;
    if (typeof detail === "string") err.detail = detail;
    if (err.name === "DeprecationWarning" && process.noDeprecation) return;
    queueMicrotask(() => {
      process.emit("warning", err);
      console.warn(`(node:${process.pid}) ${code ? `[${code}] ` : ""}${err.name}: ${err.message}${typeof detail === "string" ? "\n" + detail : ""}`);
    });
  }

  // stdout and stderr write to the console, one log entry per write.
  function consoleStream(fd, level) {
    const { Writable } = load("node:stream");
    const s = new Writable({
      decodeStrings: false,
      write(chunk, encoding, cb) {
        let text = typeof chunk === "string" ? chunk : shared("buffer").Buffer.from(chunk).toString();
        if (text.endsWith("\n")) text = text.slice(0, -1);
        console[level](text);
        cb();
      },
    });
    Object.assign(s, { fd, isTTY: false, columns: 80, rows: 24, _type: "pipe" });
    s.getColorDepth = () => 1;
    s.hasColors = () => false;
    s.getWindowSize = () => [80, 24];
    return s;
  }
  const streams = {};
  function streamGetter(name, make) {
    return { get() { return streams[name] || (streams[name] = make()); }, configurable: true, enumerable: true };
  }

  Object.assign(process, {
    title: "node",
    version: "v22.14.0",
    versions: Object.freeze({ node: "22.14.0", modules: "127", uv: "1.50.0", v8: "12.4.254.21-node.22" }),
    release: Object.freeze({ name: "node", lts: "Jod", sourceUrl: "", headersUrl: "" }),
    platform: "linux",
    arch: "x64",
    argv: [],
    argv0: "node",
    execArgv: [],
    execPath: "",
    pid: 1,
    ppid: 0,
    exitCode: undefined,
    env,
    config: Object.freeze({ target_defaults: {}, variables: {} }),
    features: Object.freeze({ cached_builtins: true, debug: false, inspector: false, ipv6: true, require_module: false, tls: true, tls_alpn: true, tls_ocsp: true, tls_sni: true, typescript: false, uv: true }),
    allowedNodeEnvironmentFlags: new Set(),
    noDeprecation: false,
    throwDeprecation: false,
    traceDeprecation: false,
    cwd: () => "/",
    chdir: unsupportedCall("chdir"),
    umask: () => 0o22,
    exit: unsupportedCall("exit"),
    reallyExit: unsupportedCall("reallyExit"),
    abort: unsupportedCall("abort"),
    kill: unsupportedCall("kill"),
    dlopen: unsupportedCall("dlopen"),
    binding: unsupportedCall("binding"),
    getuid: () => 0,
    geteuid: () => 0,
    getgid: () => 0,
    getegid: () => 0,
    getgroups: () => [],
    nextTick(callback, ...args) {
      validateFunction(callback, "callback");
      queueMicrotask(args.length ? () => callback(...args) : callback);
    },
    hrtime,
    uptime: () => performance.now() / 1000,
    memoryUsage,
    cpuUsage: () => ({ user: 0, system: 0 }),
    resourceUsage: () => ({ userCPUTime: 0, systemCPUTime: 0, maxRSS: 0 }),
    emitWarning,
    getBuiltinModule(id) {
      validateString(id, "id");
      const specifier = id.startsWith("node:") ? id : "node:" + id;
      return specifier in modules ? load(specifier) : undefined;
    },
    hasUncaughtExceptionCaptureCallback: () => false,
    setUncaughtExceptionCaptureCallback() {},
    setSourceMapsEnabled() {},
    _getActiveHandles: () => [],
    _getActiveRequests: () => [],
  });
  Object.defineProperties(process, {
    stdout: streamGetter("stdout", () => consoleStream(1, "log")),
    stderr: streamGetter("stderr", () => consoleStream(2, "error")),
    stdin: streamGetter("stdin", () => Object.assign(load("node:stream").Readable.from([]), { fd: 0, isTTY: false })),
    [Symbol.toStringTag]: { value: "process", configurable: true },
  });
  return process;
};
