// node:events — EventEmitter. It is a plain function, not a class, so
// that the old pattern EventEmitter.call(this) in a constructor works, and
// it keeps Node's _events layout (one listener as the function itself,
// several as an array), which some libraries read.
sharedValues.events = function makeEvents() {
  const kCapture = Symbol("kCapture");
  const kRejection = Symbol.for("nodejs.rejection");
  const errorMonitor = Symbol("events.errorMonitor");
  let defaultMaxListeners = 10;

  function EventEmitter(opts) {
    EventEmitter.init.call(this, opts);
  }
  EventEmitter.prototype._events = undefined;
  EventEmitter.prototype._eventsCount = 0;
  EventEmitter.prototype._maxListeners = undefined;

  EventEmitter.init = function init(opts) {
    if (this._events === undefined || this._events === Object.getPrototypeOf(this)._events) {
      this._events = Object.create(null);
      this._eventsCount = 0;
    }
    this._maxListeners = this._maxListeners || undefined;
    if (opts && opts.captureRejections) {
      if (typeof opts.captureRejections !== "boolean") throw errInvalidArgType("options.captureRejections", "of type boolean", opts.captureRejections);
      this[kCapture] = true;
    } else {
      this[kCapture] = EventEmitter.prototype[kCapture];
    }
  };
  EventEmitter.prototype[kCapture] = false;

  function checkMax(n, name) {
    if (typeof n !== "number" || n < 0 || Number.isNaN(n)) throw errOutOfRange(name, "a non-negative number", n);
  }
  Object.defineProperty(EventEmitter, "defaultMaxListeners", {
    enumerable: true,
    get() { return defaultMaxListeners; },
    set(n) { checkMax(n, "defaultMaxListeners"); defaultMaxListeners = n; },
  });
  Object.defineProperty(EventEmitter, "captureRejections", {
    enumerable: true,
    get() { return EventEmitter.prototype[kCapture]; },
    set(v) {
      if (typeof v !== "boolean") throw errInvalidArgType("EventEmitter.captureRejections", "of type boolean", v);
      EventEmitter.prototype[kCapture] = v;
    },
  });
  EventEmitter.errorMonitor = errorMonitor;
  EventEmitter.captureRejectionSymbol = kRejection;
  EventEmitter.usingDomains = false;

  const proto = EventEmitter.prototype;
  proto.setMaxListeners = function setMaxListeners(n) {
    checkMax(n, "n");
    this._maxListeners = n;
    return this;
  };
  function maxOf(that) {
    return that._maxListeners === undefined ? defaultMaxListeners : that._maxListeners;
  }
  proto.getMaxListeners = function getMaxListeners() { return maxOf(this); };

  function unhandled(er) {
    if (er instanceof Error) return er;
    let shown;
    try { shown = inspectValue(er); } catch { shown = String(er); }
    const err = codedError(Error, "ERR_UNHANDLED_ERROR", `Unhandled error. (${shown})`);
    err.context = er;
    return err;
  }

  proto.emit = function emit(type, ...args) {
    const events = this._events;
    if (type === "error") {
      if (events !== undefined && events[errorMonitor] !== undefined) this.emit(errorMonitor, ...args);
      if (events === undefined || events.error === undefined) throw unhandled(args[0]);
    }
    if (events === undefined) return false;
    const handler = events[type];
    if (handler === undefined) return false;
    if (typeof handler === "function") {
      const result = handler.apply(this, args);
      if (result !== undefined && result !== null) captureRejection(this, result, type, args);
    } else {
      const listeners = handler.slice();
      for (let k = 0; k < listeners.length; k++) {
        const result = listeners[k].apply(this, args);
        if (result !== undefined && result !== null) captureRejection(this, result, type, args);
      }
    }
    return true;
  };

  function captureRejection(that, result, type, args) {
    if (!that[kCapture]) return;
    const then = result.then;
    if (typeof then !== "function") return;
    then.call(result, undefined, (err) => {
      // Out of the promise chain, so that an error thrown here is not
      // swallowed as a rejection.
      setTimeout(() => {
        if (typeof that[kRejection] === "function") {
          that[kRejection](err, type, ...args);
        } else {
          const prev = that[kCapture];
          try {
            that[kCapture] = false;
            that.emit("error", err);
          } finally {
            that[kCapture] = prev;
          }
        }
      }, 0);
    });
  }

  function addListener(target, type, listener, prepend) {
    validateFunction(listener, "listener");
    let events = target._events;
    if (events === undefined) {
      events = target._events = Object.create(null);
      target._eventsCount = 0;
    } else if (events.newListener !== undefined) {
      target.emit("newListener", type, listener.listener ? listener.listener : listener);
      events = target._events;
    }
    const existing = events[type];
    if (existing === undefined) {
      events[type] = listener;
      target._eventsCount++;
      return target;
    }
    let list;
    if (typeof existing === "function") {
      list = events[type] = prepend ? [listener, existing] : [existing, listener];
    } else {
      list = existing;
      if (prepend) list.unshift(listener); else list.push(listener);
    }
    const max = maxOf(target);
    if (max > 0 && list.length > max && !list.warned) {
      list.warned = true;
      let name = target.constructor && target.constructor.name || "EventEmitter";
      const w = new Error(`Possible EventEmitter memory leak detected. ${list.length} ${String(type)} listeners added to [${name}]. ` +
        `MaxListeners is ${max}. Use emitter.setMaxListeners() to increase limit`);
      w.name = "MaxListenersExceededWarning";
      w.emitter = target;
      w.type = type;
      w.count = list.length;
      load("node:process").emitWarning(w);
    }
    return target;
  }
  proto.addListener = function (type, listener) { return addListener(this, type, listener, false); };
  proto.on = proto.addListener;
  proto.prependListener = function (type, listener) { return addListener(this, type, listener, true); };

  function onceWrapper(target, type, listener) {
    const state = { fired: false, target, type, listener };
    const wrapped = function (...args) {
      if (state.fired) return undefined;
      state.target.removeListener(state.type, wrapped);
      state.fired = true;
      return state.listener.apply(state.target, args);
    };
    wrapped.listener = listener;
    return wrapped;
  }
  proto.once = function once(type, listener) {
    validateFunction(listener, "listener");
    return this.on(type, onceWrapper(this, type, listener));
  };
  proto.prependOnceListener = function prependOnceListener(type, listener) {
    validateFunction(listener, "listener");
    return this.prependListener(type, onceWrapper(this, type, listener));
  };

  proto.removeListener = function removeListener(type, listener) {
    validateFunction(listener, "listener");
    const events = this._events;
    if (events === undefined) return this;
    const list = events[type];
    if (list === undefined) return this;
    if (list === listener || list.listener === listener) {
      this._eventsCount--;
      if (this._eventsCount === 0) this._events = Object.create(null);
      else delete events[type];
      if (events.removeListener !== undefined) this.emit("removeListener", type, list.listener || listener);
      return this;
    }
    if (typeof list === "function") return this;
    let position = -1;
    for (let k = list.length - 1; k >= 0; k--) {
      if (list[k] === listener || list[k].listener === listener) { position = k; break; }
    }
    if (position < 0) return this;
    const removed = list[position];
    list.splice(position, 1);
    if (list.length === 1) events[type] = list[0];
    if (events.removeListener !== undefined) this.emit("removeListener", type, removed.listener || listener);
    return this;
  };
  proto.off = proto.removeListener;

  proto.removeAllListeners = function removeAllListeners(type) {
    const events = this._events;
    if (events === undefined) return this;
    if (events.removeListener === undefined) {
      if (arguments.length === 0) {
        this._events = Object.create(null);
        this._eventsCount = 0;
      } else if (events[type] !== undefined) {
        if (--this._eventsCount === 0) this._events = Object.create(null);
        else delete events[type];
      }
      return this;
    }
    if (arguments.length === 0) {
      for (const key of Reflect.ownKeys(events)) {
        if (key !== "removeListener") this.removeAllListeners(key);
      }
      this.removeAllListeners("removeListener");
      this._events = Object.create(null);
      this._eventsCount = 0;
      return this;
    }
    const listeners = events[type];
    if (typeof listeners === "function") {
      this.removeListener(type, listeners);
    } else if (listeners !== undefined) {
      for (let k = listeners.length - 1; k >= 0; k--) this.removeListener(type, listeners[k]);
    }
    return this;
  };

  function listenersOf(target, type, unwrap) {
    const events = target._events;
    if (events === undefined) return [];
    const l = events[type];
    if (l === undefined) return [];
    if (typeof l === "function") return unwrap ? [l.listener || l] : [l];
    return unwrap ? l.map((f) => f.listener || f) : l.slice();
  }
  proto.listeners = function listeners(type) { return listenersOf(this, type, true); };
  proto.rawListeners = function rawListeners(type) { return listenersOf(this, type, false); };
  proto.listenerCount = function listenerCount(type, listener) {
    const events = this._events;
    if (events === undefined) return 0;
    const l = events[type];
    if (l === undefined) return 0;
    if (typeof l === "function") return listener == null || l === listener || l.listener === listener ? 1 : 0;
    if (listener == null) return l.length;
    return l.filter((f) => f === listener || f.listener === listener).length;
  };
  proto.eventNames = function eventNames() {
    return this._eventsCount > 0 ? Reflect.ownKeys(this._events) : [];
  };

  // ---- module functions.
  function isEventTarget(t) {
    return t && typeof t.addEventListener === "function" && typeof t.removeEventListener === "function" && typeof t.on !== "function";
  }
  function once(emitter, name, options = {}) {
    validateObject(options, "options");
    const signal = options.signal;
    validateAbortSignal(signal, "options.signal");
    if (signal && signal.aborted) return Promise.reject(abortError(signal.reason));
    return new Promise((resolve, reject) => {
      let stop = () => {};
      if (isEventTarget(emitter)) {
        const listener = (...args) => { stop(); resolve(args); };
        emitter.addEventListener(name, listener, { once: true });
        stop = onAbort(signal, () => {
          emitter.removeEventListener(name, listener);
          reject(abortError(signal.reason));
        });
        return;
      }
      const resolver = (...args) => {
        if (name !== "error") emitter.removeListener("error", errorListener);
        stop();
        resolve(args);
      };
      const errorListener = (err) => {
        emitter.removeListener(name, resolver);
        stop();
        reject(err);
      };
      emitter.once(name, resolver);
      if (name !== "error") emitter.once("error", errorListener);
      stop = onAbort(signal, () => {
        emitter.removeListener(name, resolver);
        emitter.removeListener("error", errorListener);
        reject(abortError(signal.reason));
      });
    });
  }

  // on returns an async iterator over the arguments of each emit of
  // event, written without async generators.
  function on(emitter, event, options = {}) {
    validateObject(options, "options");
    const signal = options.signal;
    validateAbortSignal(signal, "options.signal");
    if (signal && signal.aborted) throw abortError(signal.reason);
    const values = [];
    const waiting = [];
    let error = null;
    let finished = false;
    const target = isEventTarget(emitter);
    const listen = (name, fn) => target ? emitter.addEventListener(name, fn) : emitter.on(name, fn);
    const unlisten = (name, fn) => target ? emitter.removeEventListener(name, fn) : emitter.removeListener(name, fn);
    const onEvent = (...args) => {
      if (waiting.length) waiting.shift().resolve({ value: args, done: false });
      else values.push(args);
    };
    const onError = (err) => {
      if (waiting.length) waiting.shift().reject(err);
      else error = err;
      iterator.return();
    };
    const onClose = () => iterator.return();
    listen(event, onEvent);
    if (event !== "error" && !target) listen("error", onError);
    const closeEvents = options.close || [];
    for (const name of closeEvents) listen(name, onClose);
    const stopAbort = onAbort(signal, () => onError(abortError(signal.reason)));
    const iterator = {
      next() {
        if (values.length) return Promise.resolve({ value: values.shift(), done: false });
        if (error) {
          const p = Promise.reject(error);
          error = null;
          return p;
        }
        if (finished) return Promise.resolve({ value: undefined, done: true });
        return new Promise((resolve, reject) => waiting.push({ resolve, reject }));
      },
      return() {
        if (!finished) {
          finished = true;
          unlisten(event, onEvent);
          if (event !== "error" && !target) unlisten("error", onError);
          for (const name of closeEvents) unlisten(name, onClose);
          stopAbort();
          for (const w of waiting.splice(0)) w.resolve({ value: undefined, done: true });
        }
        return Promise.resolve({ value: undefined, done: true });
      },
      throw(err) {
        if (!err || !(err instanceof Error)) throw errInvalidArgType("EventEmitter.AsyncIterator", "an instance of Error", err);
        onError(err);
        return Promise.resolve({ value: undefined, done: true });
      },
      [kAsyncIterator]() { return this; },
    };
    return iterator;
  }

  function getEventListeners(target, type) {
    if (target && typeof target.listeners === "function") return target.listeners(type);
    if (isEventTarget(target)) return [];
    throw errInvalidArgType("emitter", "an instance of EventEmitter or EventTarget", target);
  }
  function getMaxListeners(target) {
    if (target && typeof target.getMaxListeners === "function") return target.getMaxListeners();
    return defaultMaxListeners;
  }
  function setMaxListeners(n = defaultMaxListeners, ...targets) {
    checkMax(n, "n");
    if (targets.length === 0) defaultMaxListeners = n;
    for (const t of targets) if (t && typeof t.setMaxListeners === "function") t.setMaxListeners(n);
  }
  function addAbortListener(signal, listener) {
    validateAbortSignal(signal, "signal");
    validateFunction(listener, "listener");
    const stop = onAbort(signal, listener);
    const disposable = { dispose: stop };
    if (typeof Symbol.dispose === "symbol") disposable[Symbol.dispose] = stop;
    return disposable;
  }

  // EventEmitterAsyncResource emits in the async context it was made in.
  class EventEmitterAsyncResource extends EventEmitter {
    #resource;
    constructor(options = {}) {
      super(options);
      const { AsyncResource } = load("node:async_hooks");
      this.#resource = new AsyncResource(options.name || new.target.name, options);
    }
    emit(event, ...args) {
      return this.#resource.runInAsyncScope(() => super.emit(event, ...args));
    }
    emitDestroy() { this.#resource.emitDestroy(); }
    get asyncResource() { return this.#resource; }
    get asyncId() { return this.#resource.asyncId(); }
    get triggerAsyncId() { return this.#resource.triggerAsyncId(); }
  }

  Object.assign(EventEmitter, {
    EventEmitter,
    default: EventEmitter,
    once,
    on,
    getEventListeners,
    getMaxListeners,
    setMaxListeners,
    addAbortListener,
    listenerCount: (emitter, type) => emitter.listenerCount(type),
    EventEmitterAsyncResource,
  });
  return EventEmitter;
};
modules["node:events"] = () => shared("events");
