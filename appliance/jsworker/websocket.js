// WebSocketPair and WebSocket, as Workers have them. The server end of a
// pair is what the worker or object uses; the client end goes back in a
// 101 Response and stands for the connection the host accepts. Until the
// host has accepted it, sends wait in a queue.
const CONNECTING = 0, OPEN = 1, CLOSING = 2, CLOSED = 3;

class WebSocket extends EventTarget {
  #h = null; // the host's socket, once accepted
  #peer = null;
  #state = CONNECTING;
  #accepted = false; // accept() was called
  #hibernation = false; // accepted with ctx.acceptWebSocket
  #tags = [];
  #queue = [];
  #url = null;
  #attachment = null; // serialized, kept until the host's socket exists

  constructor(url, protocols) {
    super();
    if (url !== internal) throw new Error("dwk cannot open outgoing WebSocket connections with new WebSocket(); use WebSocketPair in a handler");
  }
  static get CONNECTING() { return CONNECTING; }
  static get OPEN() { return OPEN; }
  static get CLOSING() { return CLOSING; }
  static get CLOSED() { return CLOSED; }
  get CONNECTING() { return CONNECTING; }
  get OPEN() { return OPEN; }
  get CLOSING() { return CLOSING; }
  get CLOSED() { return CLOSED; }
  get readyState() { return this.#state; }
  get url() { return this.#url; }
  get protocol() { return ""; }
  get extensions() { return ""; }
  get binaryType() { return "arraybuffer"; }
  set binaryType(v) { if (v !== "arraybuffer") throw new TypeError('binaryType must be "arraybuffer"'); }

  accept(options) {
    if (this.#accepted || this.#hibernation) throw new TypeError("The WebSocket has already been accepted.");
    this.#accepted = true;
    if (this.#state === CONNECTING) this.#state = OPEN;
  }
  send(data) {
    if (!this.#accepted && !this.#hibernation) throw new TypeError("You must call accept() on this WebSocket before sending messages.");
    if (this.#state === CLOSING || this.#state === CLOSED) throw new TypeError("Can't call WebSocket send() after close().");
    let msg;
    if (typeof data === "string") msg = data;
    else if (data instanceof ArrayBuffer || ArrayBuffer.isView(data)) msg = internal.bufferSource(data).slice();
    else if (global.Blob && data instanceof Blob) throw new TypeError("send() takes a string or an ArrayBuffer; read a Blob first");
    else msg = String(data);
    if (this.#h === null) this.#queue.push(msg);
    else cf.wsSend(this.#h, msg);
  }
  close(code, reason) {
    if (code !== undefined && code !== 1000 && (code < 3000 || code > 4999)) throw new TypeError(`Invalid WebSocket close code: ${code}`);
    if (reason !== undefined && internal.utf8Encode(String(reason)).length > 123) throw new TypeError("A WebSocket close reason is at most 123 bytes.");
    if (this.#state === CLOSED) return;
    this.#state = CLOSING;
    if (this.#h === null) this.#queue.push({ close: [code === undefined ? 1000 : code, reason === undefined ? "" : String(reason)] });
    else cf.wsClose(this.#h, code === undefined ? 1000 : code, reason === undefined ? "" : String(reason));
  }
  serializeAttachment(value) {
    if (!this.#hibernation) throw new TypeError("serializeAttachment() needs a WebSocket accepted with ctx.acceptWebSocket()");
    const text = value === undefined || value === null ? null : internal.serialize(value);
    if (this.#h !== null) {
      cf.wsSetAttachment(this.#h, text);
      return;
    }
    // The host's socket exists once fetch returned the 101: keep it until then.
    if (text !== null && internal.utf8Encode(text).length > 2048) throw new RangeError("A WebSocket attachment is at most 2048 bytes once serialized.");
    this.#attachment = text;
  }
  deserializeAttachment() {
    const t = this.#h === null ? this.#attachment : cf.wsGetAttachment(this.#h);
    return t === null ? null : internal.deserialize(t);
  }
  get [Symbol.toStringTag]() { return "WebSocket"; }

  static {
    internal.WebSocket = WebSocket;
    internal.newWebSocketPair = () => {
      const client = new WebSocket(internal), server = new WebSocket(internal);
      client.#peer = server;
      server.#peer = client;
      return [client, server];
    };
    // wsServer is the server end behind a client end a handler returned,
    // with how it was accepted: "hibernation", "accept" or "" (not yet).
    internal.wsServer = (client) => {
      if (!(client instanceof WebSocket) || client.#peer === null) throw new TypeError("A Response's webSocket must be the client end of a WebSocketPair.");
      const s = client.#peer;
      return [s, s.#hibernation ? "hibernation" : s.#accepted ? "accept" : "", s.#tags];
    };
    internal.wsHibernate = (ws, tags) => {
      if (!(ws instanceof WebSocket)) throw new TypeError("acceptWebSocket() needs the server end of a WebSocketPair");
      if (ws.#accepted || ws.#hibernation) throw new TypeError("The WebSocket has already been accepted.");
      ws.#hibernation = true;
      ws.#tags = tags;
      ws.#state = OPEN;
    };
    // wsAttach binds a server end to the host's socket and sends what
    // waited.
    internal.wsAttach = (ws, h) => {
      ws.#h = h;
      if (ws.#state === CONNECTING) ws.#state = OPEN;
      if (ws.#attachment !== null) {
        cf.wsSetAttachment(h, ws.#attachment);
        ws.#attachment = null;
      }
      const q = ws.#queue;
      ws.#queue = [];
      for (const m of q) {
        if (m && typeof m === "object" && m.close) cf.wsClose(h, m.close[0], m.close[1]);
        else cf.wsSend(h, m);
      }
    };
    // wsWrap makes the WebSocket of a socket the host accepted earlier (a
    // hibernated object's, woken).
    internal.wsWrap = (h, tags) => {
      const ws = new WebSocket(internal);
      ws.#hibernation = true;
      ws.#tags = tags;
      ws.#h = h;
      ws.#state = OPEN;
      return ws;
    };
    internal.wsTags = (ws) => (ws instanceof WebSocket ? ws.#tags.slice() : []);
    internal.wsHandle = (ws) => (ws instanceof WebSocket ? ws.#h : null);
    internal.wsClosed = (ws) => { ws.#state = CLOSED; };
    internal.wsOpen = (ws) => ws.#state !== CLOSED;
    internal.wsIsHibernation = (ws) => ws.#hibernation;
  }
}

class WebSocketPair {
  constructor() {
    const [client, server] = internal.newWebSocketPair();
    this[0] = client;
    this[1] = server;
  }
  *[Symbol.iterator]() { yield this[0]; yield this[1]; }
}

class WebSocketRequestResponsePair {
  #req; #resp;
  constructor(request, response) { this.#req = String(request); this.#resp = String(response); }
  get request() { return this.#req; }
  get response() { return this.#resp; }
}

internal.defineGlobal("WebSocket", WebSocket);
internal.defineGlobal("WebSocketPair", WebSocketPair);
internal.defineGlobal("WebSocketRequestResponsePair", WebSocketRequestResponsePair);
