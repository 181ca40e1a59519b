// DurableObjectState (an object's ctx) and the glue the host calls an
// object's handlers through.
class DurableObjectState {
  #h; #id; #storage;
  #pending = []; // sockets accepted in a fetch whose 101 the host has not made yet
  constructor(h, id, storage) {
    if (h === undefined) throw new TypeError("Illegal constructor");
    this.#h = h;
    this.#id = id;
    this.#storage = storage;
  }
  get id() { return this.#id; }
  get storage() { return this.#storage; }
  get props() { return {}; }
  get container() { return undefined; }
  get exports() { return entryExports; }
  waitUntil(promise) { cf.objWaitUntil(this.#h, Promise.resolve(promise)); }
  blockConcurrencyWhile(fn) {
    if (typeof fn !== "function") throw new TypeError("blockConcurrencyWhile() needs a function");
    return cf.objBlock(this.#h, fn);
  }
  acceptWebSocket(ws, tags = []) {
    tags = Array.from(tags, String);
    if (tags.length > 10) throw new RangeError("A WebSocket has at most 10 tags.");
    for (const t of tags) if (t.length === 0 || t.length > 256) throw new RangeError("A WebSocket tag is 1 to 256 characters.");
    internal.wsHibernate(ws, tags);
    this.#pending.push(ws);
  }
  getWebSockets(tag) {
    const t = tag === undefined ? "" : String(tag);
    const out = cf.objSockets(this.#h, t);
    // A socket accepted in this fetch is listed at once, as on Cloudflare;
    // its sends wait until the host has made the connection.
    this.#pending = this.#pending.filter((ws) => internal.wsHandle(ws) === null && internal.wsOpen(ws));
    for (const ws of this.#pending) if (t === "" || internal.wsTags(ws).includes(t)) out.push(ws);
    return out;
  }
  getTags(ws) {
    if (!internal.wsIsHibernation(ws)) throw new TypeError("getTags() needs a WebSocket accepted with acceptWebSocket()");
    return internal.wsTags(ws);
  }
  setWebSocketAutoResponse(pair) {
    if (pair === undefined) cf.objAutoResponse(this.#h, "", "");
    else cf.objAutoResponse(this.#h, pair.request, pair.response);
  }
  getWebSocketAutoResponse() { return null; }
  getWebSocketAutoResponseTimestamp(ws) { return null; }
  setHibernatableWebSocketEventTimeout(ms) {}
  getHibernatableWebSocketEventTimeout() { return null; }
  abort(reason) { throw new Error("ctx.abort() is not supported on dwk" + (reason ? ": " + reason : "")); }
}
internal.objectState = (h, id, storage) => new DurableObjectState(h, id, storage);

// methodOf returns obj[name] bound, or throws naming what is missing.
internal.callObject = function callObject(obj, name, ...args) {
  const f = obj[name];
  if (typeof f !== "function") throw new TypeError(`The Durable Object class ${obj.constructor && obj.constructor.name} has no ${name}() method.`);
  return f.apply(obj, args);
};
internal.objectInfo = function objectInfo(cls) {
  const p = cls.prototype;
  return JSON.stringify({
    methods: internal.methodNames(cls, DurableObject),
    hibernation: typeof p.webSocketMessage === "function" || typeof p.webSocketClose === "function",
  });
};
// Events of sockets accepted with accept(), which the host delivers to
// the socket's listeners.
internal.wsDispatch = function wsDispatch(ws, kind, a, b, c) {
  switch (kind) {
    case "message": ws.dispatchEvent(new MessageEvent("message", { data: a })); break;
    case "close": internal.wsClosed(ws); ws.dispatchEvent(new CloseEvent("close", { code: a, reason: b, wasClean: c })); break;
    case "error": ws.dispatchEvent(new ErrorEvent("error", { message: String(a), error: a })); break;
  }
};
