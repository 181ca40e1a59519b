// The cloudflare:workers module and the handler glue: how the host calls
// a bundle's default export, its entrypoint classes and its Durable
// Objects.
const cf = host.cloudflare;

class ExecutionContext {
  #h;
  #props;
  constructor(h, props) {
    if (h === undefined) throw new TypeError("Illegal constructor");
    this.#h = h;
    this.#props = props || {};
  }
  waitUntil(promise) { cf.waitUntil(this.#h, Promise.resolve(promise)); }
  passThroughOnException() {}
  get props() { return this.#props; }
  get exports() { return entryExports; }
}

class DurableObject {
  constructor(ctx, env) {
    this.ctx = ctx;
    this.env = env;
  }
}
class WorkerEntrypoint {
  constructor(ctx, env) {
    this.ctx = ctx;
    this.env = env;
  }
}
class RpcTarget {}
class WorkflowEntrypoint {
  constructor() { throw new Error("dwk does not run Workflows"); }
}

// env as `import { env } from "cloudflare:workers"` shows it: filled with
// the worker's bindings before its first event runs.
const importableEnv = {};
internal.importableEnv = importableEnv;
internal.modules["cloudflare:workers"] = () => ({
  DurableObject, WorkerEntrypoint, RpcTarget, WorkflowEntrypoint, env: importableEnv,
  waitUntil() { throw new Error("waitUntil from cloudflare:workers is not supported; use ctx.waitUntil"); },
});
internal.DurableObject = DurableObject;
internal.RpcTarget = RpcTarget;

let entry;
let entryIsClass = false;
let entryExports;
const handlerNames = new Set(["constructor", "fetch", "scheduled", "queue", "tail", "trace", "email", "test", "alarm", "webSocketMessage", "webSocketClose", "webSocketError"]);

function isClass(f) {
  return typeof f === "function" && (f.prototype instanceof WorkerEntrypoint || /^class\b/.test(Function.prototype.toString.call(f)));
}

// methodNames lists the methods a class's instances have, up to base.
internal.methodNames = function methodNames(cls, base) {
  const out = new Set();
  for (let p = cls.prototype; p && p !== base.prototype && p !== Object.prototype; p = Object.getPrototypeOf(p)) {
    for (const k of Object.getOwnPropertyNames(p)) {
      if (handlerNames.has(k)) continue;
      const d = Object.getOwnPropertyDescriptor(p, k);
      if (typeof d.value === "function") out.add(k);
    }
  }
  return Array.from(out).sort();
};

// The service-worker syntax: handlers are listeners on the global scope
// (addEventListener("fetch", ...)), bindings are globals.
if (internal.initEventTarget) {
  internal.initEventTarget(global);
  for (const m of ["addEventListener", "removeEventListener", "dispatchEvent"]) {
    internal.defineGlobal(m, EventTarget.prototype[m].bind(global));
  }
}
let serviceWorker = false;

class FetchEvent extends Event {
  #request; #ctx; #response = null;
  constructor(type, init) {
    super(type, init);
    this.#request = init && init.request;
    this.#ctx = init && init[internalKey];
  }
  get request() { return this.#request; }
  respondWith(r) {
    if (this.#response !== null) throw new Error("respondWith() was already called");
    this.#response = Promise.resolve(r);
  }
  waitUntil(p) { this.#ctx.waitUntil(p); }
  passThroughOnException() {}
  static { internal.fetchEventResponse = (e) => e.#response; }
}
class ScheduledEvent extends Event {
  #ctx;
  constructor(type, init) {
    super(type, init);
    this.scheduledTime = init.scheduledTime;
    this.cron = init.cron;
    this.#ctx = init[internalKey];
  }
  waitUntil(p) { this.#ctx.waitUntil(p); }
  noRetry() {}
}
const internalKey = Symbol("ctx");
internal.defineGlobal("FetchEvent", FetchEvent);
internal.defineGlobal("ScheduledEvent", ScheduledEvent);

// globalBindings puts a service worker's bindings on the global scope,
// leaving the script's own globals alone. A later env (secrets changed)
// replaces the globals it put there and removes those it no longer has.
const globalKeys = new Set();
internal.globalBindings = (env) => {
  if (!serviceWorker) return;
  for (const k of globalKeys) {
    if (!(k in env)) {
      delete global[k];
      globalKeys.delete(k);
    }
  }
  for (const k of Object.keys(env)) {
    if (globalKeys.has(k) || !(k in global)) {
      global[k] = env[k];
      globalKeys.add(k);
    }
  }
};

// loadEntry reads the bundle's exports: what the default export handles.
internal.loadEntry = function loadEntry(exports) {
  entryExports = exports || {};
  entry = entryExports.default;
  const info = { fetch: false, scheduled: false, queue: false, methods: [] };
  if ((entry === undefined || entry === null) && internal.listenerCount) {
    const n = (t) => internal.listenerCount(global, t) > 0;
    if (n("fetch") || n("scheduled")) {
      serviceWorker = true;
      info.fetch = n("fetch");
      info.scheduled = n("scheduled");
    }
  }
  if (entry === undefined || entry === null) return JSON.stringify(info);
  if (isClass(entry)) {
    entryIsClass = true;
    const p = entry.prototype;
    info.fetch = typeof p.fetch === "function";
    info.scheduled = typeof p.scheduled === "function";
    info.queue = typeof p.queue === "function";
    info.methods = internal.methodNames(entry, WorkerEntrypoint);
  } else if (typeof entry === "object") {
    info.fetch = typeof entry.fetch === "function";
    info.scheduled = typeof entry.scheduled === "function";
    info.queue = typeof entry.queue === "function";
  } else {
    throw new TypeError("The worker's default export must be an object with handlers (export default { fetch }) or a class extending WorkerEntrypoint.");
  }
  return JSON.stringify(info);
};

internal.newContext = (h, props) => new ExecutionContext(h, props);

function handler(name, ctx, env) {
  if (entryIsClass) {
    const inst = new entry(ctx, env);
    if (typeof inst[name] !== "function") throw new TypeError(`The worker's entrypoint class has no ${name}() method.`);
    return [inst, inst[name]];
  }
  if (!entry || typeof entry[name] !== "function") throw new TypeError(`The worker's default export has no ${name} handler.`);
  return [entry, entry[name]];
}

internal.runFetch = function runFetch(request, env, ctx) {
  if (serviceWorker) {
    const e = new FetchEvent("fetch", { request, [internalKey]: ctx, cancelable: true });
    global.dispatchEvent(e);
    const r = internal.fetchEventResponse(e);
    if (r === null) throw new Error("No fetch listener called respondWith().");
    return r;
  }
  const [self, f] = handler("fetch", ctx, env);
  return entryIsClass ? f.call(self, request) : f.call(self, request, env, ctx);
};
internal.runEvent = function runEvent(kind, arg, env, ctx) {
  if (serviceWorker && kind === "scheduled") {
    const e = new ScheduledEvent("scheduled", { scheduledTime: arg.scheduledTime, cron: arg.cron, [internalKey]: ctx });
    global.dispatchEvent(e);
    return undefined;
  }
  const [self, f] = handler(kind, ctx, env);
  return entryIsClass ? f.call(self, arg) : f.call(self, arg, env, ctx);
};
internal.runMethod = function runMethod(name, args, env, ctx) {
  if (!entryIsClass) throw new TypeError("The worker's default export is not a WorkerEntrypoint class; it has no methods to call.");
  const inst = new entry(ctx, env);
  if (typeof inst[name] !== "function" || handlerNames.has(name)) throw new TypeError(`The worker's entrypoint has no method ${name}().`);
  return inst[name](...args);
};

// ---- scheduled and queue handler arguments
class ScheduledController {
  constructor(scheduledTime, cron) {
    this.scheduledTime = scheduledTime;
    this.cron = cron;
    this.type = "scheduled";
  }
  noRetry() {}
}
internal.scheduledController = (t, cron) => new ScheduledController(t, cron);

function decodeBody(body, contentType) {
  switch (contentType) {
    case "text": return internal.utf8Decode(body);
    case "json": return JSON.parse(internal.utf8Decode(body));
    case "v8": return internal.deserialize(internal.utf8Decode(body));
    default: return body.buffer.byteLength === body.byteLength ? body.buffer : body.slice().buffer;
  }
}

class Message {
  #h; #body; #raw; #type;
  constructor(h, id, timestamp, raw, contentType, attempts) {
    this.#h = h;
    this.id = id;
    this.timestamp = new Date(timestamp);
    this.#raw = raw;
    this.#type = contentType;
    this.attempts = attempts;
  }
  get body() {
    if (this.#raw !== null) {
      this.#body = decodeBody(this.#raw, this.#type);
      this.#raw = null;
    }
    return this.#body;
  }
  ack() { cf.ack(this.#h); }
  retry(options) { cf.retry(this.#h, options && options.delaySeconds || 0); }
}
class MessageBatch {
  #h;
  constructor(h, queue, messages) {
    this.#h = h;
    this.queue = queue;
    this.messages = messages;
  }
  ackAll() { cf.ackAll(this.#h); }
  retryAll(options) { cf.retryAll(this.#h, options && options.delaySeconds || 0); }
}
internal.queueMessage = (h, id, ts, raw, type, attempts) => new Message(h, id, ts, raw, type, attempts);
internal.messageBatch = (h, queue, messages) => new MessageBatch(h, queue, messages);
