// ---- Event and its subclasses (DOM Standard §2.2, HTML for the rest).

const NONE = 0, CAPTURING_PHASE = 1, AT_TARGET = 2, BUBBLING_PHASE = 3;

// dictionary checks an init dictionary argument: undefined and null are
// empty, anything else must be an object.
function dictionary(init, what) {
  if (init === undefined || init === null) return {};
  if (typeof init !== "object" && typeof init !== "function") {
    throw new TypeError(`Failed to construct '${what}': the second argument must be an object`);
  }
  return init;
}

function required(args, n, what) {
  if (args.length < n) {
    throw new TypeError(`Failed to construct '${what}': ${n} argument${n > 1 ? "s" : ""} required, but only ${args.length} present.`);
  }
}

// eventState returns the dispatch state of an Event, or throws a
// TypeError for anything else.
let eventState;

class Event {
  #s;

  constructor(type, eventInitDict) {
    required(arguments, 1, new.target.name || "Event");
    const init = dictionary(eventInitDict, "Event");
    this.#s = {
      type: String(type),
      bubbles: !!init.bubbles,
      cancelable: !!init.cancelable,
      composed: !!init.composed,
      canceled: false,
      inPassive: false,
      stop: false,
      stopImmediate: false,
      dispatching: false,
      trusted: false,
      target: null,
      currentTarget: null,
      phase: NONE,
      timeStamp: performance.now(),
    };
  }

  get type() { return this.#s.type; }
  get target() { return this.#s.target; }
  get srcElement() { return this.#s.target; }
  get currentTarget() { return this.#s.currentTarget; }
  get eventPhase() { return this.#s.phase; }
  get bubbles() { return this.#s.bubbles; }
  get cancelable() { return this.#s.cancelable; }
  get composed() { return this.#s.composed; }
  get defaultPrevented() { return this.#s.canceled; }
  get isTrusted() { return this.#s.trusted; }
  get timeStamp() { return this.#s.timeStamp; }
  get returnValue() { return !this.#s.canceled; }
  set returnValue(v) { if (!v) this.preventDefault(); }
  get cancelBubble() { return this.#s.stop; }
  set cancelBubble(v) { if (v) this.#s.stop = true; }

  composedPath() {
    return this.#s.dispatching && this.#s.currentTarget !== null ? [this.#s.currentTarget] : [];
  }
  preventDefault() {
    const s = this.#s;
    if (s.cancelable && !s.inPassive) s.canceled = true;
  }
  stopPropagation() { this.#s.stop = true; }
  stopImmediatePropagation() {
    this.#s.stop = true;
    this.#s.stopImmediate = true;
  }
  // initEvent is the legacy initializer; it does nothing while the event
  // is being dispatched.
  initEvent(type, bubbles = false, cancelable = false) {
    const s = this.#s;
    if (s.dispatching) return;
    s.type = String(type);
    s.bubbles = !!bubbles;
    s.cancelable = !!cancelable;
    s.canceled = s.stop = s.stopImmediate = false;
    s.target = null;
  }

  static {
    eventState = (e) => e.#s;
  }
}

for (const [name, value] of [["NONE", NONE], ["CAPTURING_PHASE", CAPTURING_PHASE], ["AT_TARGET", AT_TARGET], ["BUBBLING_PHASE", BUBBLING_PHASE]]) {
  const desc = { value, enumerable: true, writable: false, configurable: false };
  Object.defineProperty(Event, name, desc);
  Object.defineProperty(Event.prototype, name, desc);
}

class CustomEvent extends Event {
  #detail;
  constructor(type, eventInitDict) {
    required(arguments, 1, "CustomEvent");
    super(type, eventInitDict);
    const init = dictionary(eventInitDict, "CustomEvent");
    this.#detail = init.detail === undefined ? null : init.detail;
  }
  get detail() { return this.#detail; }
  initCustomEvent(type, bubbles = false, cancelable = false, detail = null) {
    if (eventState(this).dispatching) return;
    this.initEvent(type, bubbles, cancelable);
    this.#detail = detail;
  }
}

class ErrorEvent extends Event {
  #s;
  constructor(type, eventInitDict) {
    required(arguments, 1, "ErrorEvent");
    super(type, eventInitDict);
    const init = dictionary(eventInitDict, "ErrorEvent");
    this.#s = {
      message: init.message === undefined ? "" : String(init.message),
      filename: init.filename === undefined ? "" : String(init.filename),
      lineno: init.lineno === undefined ? 0 : init.lineno >>> 0,
      colno: init.colno === undefined ? 0 : init.colno >>> 0,
      error: init.error,
    };
  }
  get message() { return this.#s.message; }
  get filename() { return this.#s.filename; }
  get lineno() { return this.#s.lineno; }
  get colno() { return this.#s.colno; }
  get error() { return this.#s.error; }
}

class MessageEvent extends Event {
  #s;
  constructor(type, eventInitDict) {
    required(arguments, 1, "MessageEvent");
    super(type, eventInitDict);
    const init = dictionary(eventInitDict, "MessageEvent");
    this.#s = {
      data: init.data === undefined ? null : init.data,
      origin: init.origin === undefined ? "" : String(init.origin),
      lastEventId: init.lastEventId === undefined ? "" : String(init.lastEventId),
      source: init.source === undefined ? null : init.source,
      ports: init.ports === undefined ? [] : Array.from(init.ports),
    };
    Object.freeze(this.#s.ports);
  }
  get data() { return this.#s.data; }
  get origin() { return this.#s.origin; }
  get lastEventId() { return this.#s.lastEventId; }
  get source() { return this.#s.source; }
  get ports() { return this.#s.ports; }
}

class CloseEvent extends Event {
  #s;
  constructor(type, eventInitDict) {
    required(arguments, 1, "CloseEvent");
    super(type, eventInitDict);
    const init = dictionary(eventInitDict, "CloseEvent");
    this.#s = {
      code: init.code === undefined ? 0 : init.code & 0xffff,
      reason: init.reason === undefined ? "" : String(init.reason),
      wasClean: !!init.wasClean,
    };
  }
  get code() { return this.#s.code; }
  get reason() { return this.#s.reason; }
  get wasClean() { return this.#s.wasClean; }
}

class PromiseRejectionEvent extends Event {
  #s;
  constructor(type, eventInitDict) {
    required(arguments, 2, "PromiseRejectionEvent");
    super(type, eventInitDict);
    const init = dictionary(eventInitDict, "PromiseRejectionEvent");
    if (!("promise" in init)) {
      throw new TypeError("Failed to construct 'PromiseRejectionEvent': required member promise is undefined.");
    }
    this.#s = { promise: init.promise, reason: init.reason };
  }
  get promise() { return this.#s.promise; }
  get reason() { return this.#s.reason; }
}

for (const C of [Event, CustomEvent, ErrorEvent, MessageEvent, CloseEvent, PromiseRejectionEvent]) {
  Object.defineProperty(C.prototype, Symbol.toStringTag, { value: C.name, configurable: true });
  internal.defineGlobal(C.name, C);
}

// isEvent reports whether v is an Event (of any subclass).
function isEvent(v) {
  if (v === null || typeof v !== "object") return false;
  try {
    eventState(v);
    return true;
  } catch {
    return false;
  }
}
internal.isEvent = isEvent;
