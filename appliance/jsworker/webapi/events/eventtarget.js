// ---- EventTarget (DOM Standard §2.7). A target is not in a tree, so an
// event's path is the target alone: capture listeners run first, then the
// others, all at AT_TARGET.

// targets maps each EventTarget to its listeners: Map(type → [listener]).
// A listener is { callback, capture, once, passive, removed, detach }.
const targets = new WeakMap();

function listenersOf(target, method) {
  const m = target !== null && (typeof target === "object" || typeof target === "function") ? targets.get(target) : undefined;
  if (m === undefined) throw new TypeError(`EventTarget.prototype.${method} called on an object that is not an EventTarget`);
  return m;
}

// captureOf reads the capture flag of a listener options argument.
function captureOf(options) {
  if (typeof options === "boolean") return options;
  if (options !== null && typeof options === "object") return !!options.capture;
  return !!options;
}

function removeListener(map, type, l) {
  const list = map.get(type);
  if (list === undefined) return;
  const k = list.indexOf(l);
  if (k < 0) return;
  l.removed = true;
  if (list.length === 1) map.delete(type);
  else list.splice(k, 1);
  if (l.detach !== undefined) l.detach();
}

class EventTarget {
  constructor() {
    targets.set(this, new Map());
  }

  addEventListener(type, callback, options) {
    const map = listenersOf(this, "addEventListener");
    if (arguments.length < 2) throw new TypeError(`Failed to execute 'addEventListener': 2 arguments required, but only ${arguments.length} present.`);
    if (callback === null || callback === undefined) return;
    if (typeof callback !== "function" && typeof callback !== "object") {
      throw new TypeError("Failed to execute 'addEventListener': the listener must be a function or an object with a handleEvent method");
    }
    type = String(type);
    let capture = false, once = false, passive = false, signal;
    if (options !== null && typeof options === "object") {
      capture = !!options.capture;
      once = !!options.once;
      passive = !!options.passive;
      signal = options.signal;
      if (signal !== undefined && !isAbortSignal(signal)) {
        throw new TypeError("Failed to execute 'addEventListener': options.signal must be an AbortSignal");
      }
    } else {
      capture = !!options;
    }
    if (signal !== undefined && signal.aborted) return;
    let list = map.get(type);
    if (list === undefined) {
      list = [];
      map.set(type, list);
    } else {
      for (const l of list) {
        if (l.callback === callback && l.capture === capture) return;
      }
    }
    const l = { callback, capture, once, passive, removed: false, detach: undefined };
    list.push(l);
    if (signal !== undefined) {
      l.detach = addAbortAlgorithm(signal, () => removeListener(map, type, l));
    }
  }

  removeEventListener(type, callback, options) {
    const map = listenersOf(this, "removeEventListener");
    if (arguments.length < 2) throw new TypeError(`Failed to execute 'removeEventListener': 2 arguments required, but only ${arguments.length} present.`);
    type = String(type);
    const list = map.get(type);
    if (list === undefined) return;
    const capture = captureOf(options);
    for (const l of list) {
      if (l.callback === callback && l.capture === capture) {
        removeListener(map, type, l);
        return;
      }
    }
  }

  dispatchEvent(event) {
    listenersOf(this, "dispatchEvent");
    if (!isEvent(event)) throw new TypeError("Failed to execute 'dispatchEvent': the argument must be an Event");
    const s = eventState(event);
    if (s.dispatching) throw new DOMException("The event is already being dispatched.", "InvalidStateError");
    s.trusted = false;
    return dispatch(this, event, s);
  }
}
Object.defineProperty(EventTarget.prototype, Symbol.toStringTag, { value: "EventTarget", configurable: true });

// dispatch runs the listeners of target for event, whose state is s, and
// reports whether no listener canceled it. A listener that throws is
// reported as uncaught and the others still run.
function dispatch(target, event, s) {
  const map = targets.get(target);
  s.dispatching = true;
  s.target = target;
  s.currentTarget = target;
  s.phase = AT_TARGET;
  try {
    const list = map.get(s.type);
    if (list !== undefined && !s.stop) {
      const copy = list.slice();
      for (const phase of [true, false]) {
        for (const l of copy) {
          if (l.capture !== phase || l.removed) continue;
          if (l.once) removeListener(map, s.type, l);
          invoke(target, event, s, l);
          if (s.stopImmediate) return !s.canceled;
        }
      }
    }
    return !s.canceled;
  } finally {
    s.dispatching = false;
    s.phase = NONE;
    s.currentTarget = null;
    s.stop = false;
    s.stopImmediate = false;
  }
}

function invoke(target, event, s, l) {
  s.inPassive = l.passive;
  try {
    const cb = l.callback;
    if (typeof cb === "function") {
      cb.call(target, event);
    } else {
      const handle = cb.handleEvent;
      if (typeof handle !== "function") throw new TypeError("The event listener object has no handleEvent method");
      handle.call(cb, event);
    }
  } catch (err) {
    reportException(err);
  } finally {
    s.inPassive = false;
  }
}

// initEventTarget makes an object that EventTarget's constructor did not
// make (the global scope, say) a target of its own; the caller copies the
// methods of EventTarget.prototype onto it if it needs them.
function initEventTarget(obj) {
  if (!targets.has(obj)) targets.set(obj, new Map());
}

// dispatchTrusted dispatches event on target as the runtime does (its
// isTrusted is true), whatever dispatchEvent the target has.
function dispatchTrusted(target, event) {
  listenersOf(target, "dispatchEvent");
  const s = eventState(event);
  if (s.dispatching) throw new DOMException("The event is already being dispatched.", "InvalidStateError");
  s.trusted = true;
  return dispatch(target, event, s);
}

// listenerCount is the number of listeners target has for type.
function listenerCount(target, type) {
  const list = listenersOf(target, "listenerCount").get(String(type));
  return list === undefined ? 0 : list.length;
}

// removeAllListeners drops every listener of target, or those of one
// type; the event handler attributes (onabort) go too unless keepHandlers.
function removeAllListeners(target, type, keepHandlers) {
  const map = listenersOf(target, "removeAllListeners");
  for (const [t, list] of [...map]) {
    if (type !== undefined && t !== type) continue;
    for (const l of [...list]) removeListener(map, t, l);
  }
  const slots = handlerSlots.get(target);
  if (slots !== undefined && !keepHandlers) {
    if (type === undefined) slots.clear();
    else slots.delete(type);
  }
}

// ---- Event handler attributes (onabort, onmessage, ...): the handler
// takes the place in the listener list where it was first set; setting
// null removes it.
const handlerSlots = new WeakMap(); // target → Map(type → { fn, listener })

function defineEventHandler(proto, type) {
  Object.defineProperty(proto, "on" + type, {
    configurable: true,
    enumerable: true,
    get() {
      listenersOf(this, "on" + type);
      const slots = handlerSlots.get(this);
      const slot = slots && slots.get(type);
      return slot ? slot.fn : null;
    },
    set(fn) {
      const target = this;
      listenersOf(target, "on" + type);
      let slots = handlerSlots.get(target);
      if (slots === undefined) handlerSlots.set(target, (slots = new Map()));
      const slot = slots.get(type);
      if (typeof fn !== "function" && (fn === null || typeof fn !== "object")) fn = null;
      if (fn === null) {
        if (slot !== undefined) {
          slots.delete(type);
          EventTarget.prototype.removeEventListener.call(target, type, slot.listener);
        }
        return;
      }
      if (slot !== undefined) {
        slot.fn = fn;
        return;
      }
      const s = { fn, listener: undefined };
      s.listener = function (event) {
        const f = s.fn;
        if (typeof f !== "function") return;
        const r = f.call(target, event);
        if (r === false) event.preventDefault();
      };
      slots.set(type, s);
      EventTarget.prototype.addEventListener.call(target, type, s.listener);
    },
  });
}

internal.defineGlobal("EventTarget", EventTarget);
internal.EventTarget = EventTarget;
internal.initEventTarget = initEventTarget;
internal.dispatchEvent = dispatchTrusted;
internal.listenerCount = listenerCount;
internal.removeAllListeners = removeAllListeners;
internal.defineEventHandler = defineEventHandler;
