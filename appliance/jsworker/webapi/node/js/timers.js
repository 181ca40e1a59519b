// node:timers and node:timers/promises. Node's timers return Timeout
// objects (ref, unref, refresh, close, and the id as their primitive
// value); ref and unref change nothing here, as in workerd.
sharedValues.timers = function makeTimers() {
  const kId = Symbol("kId");
  class Timeout {
    constructor(callback, delay, args, repeat) {
      this._idleTimeout = delay;
      this._onTimeout = callback;
      this._repeat = repeat ? delay : null;
      this._args = args;
      this._destroyed = false;
      this[kId] = this.#arm();
    }
    #arm() {
      const fire = () => {
        if (!this._repeat) this._destroyed = true;
        this._onTimeout(...this._args);
      };
      return this._repeat ? global.setInterval(fire, this._idleTimeout) : global.setTimeout(fire, this._idleTimeout);
    }
    ref() { return this; }
    unref() { return this; }
    hasRef() { return true; }
    refresh() {
      if (!this._destroyed) {
        global.clearTimeout(this[kId]);
        this[kId] = this.#arm();
      }
      return this;
    }
    close() {
      global.clearTimeout(this[kId]);
      this._destroyed = true;
      return this;
    }
    [Symbol.toPrimitive]() { return this[kId]; }
  }
  class Immediate {
    constructor(callback, args) {
      this._onImmediate = callback;
      this[kId] = global.setImmediate(() => callback(...args));
    }
    ref() { return this; }
    unref() { return this; }
    hasRef() { return true; }
    [Symbol.toPrimitive]() { return this[kId]; }
  }
  function clear(timer) {
    if (timer == null) return;
    if (timer instanceof Timeout) timer.close();
    else global.clearTimeout(timer[kId] !== undefined ? timer[kId] : timer);
  }

  // ---- promises.
  function checkOptions(options) {
    validateObject(options, "options");
    validateAbortSignal(options.signal, "options.signal");
    return options.signal;
  }
  function delayed(arm, disarm, value, options = {}) {
    const signal = checkOptions(options);
    if (signal && signal.aborted) return Promise.reject(abortError(signal.reason));
    return new Promise((resolve, reject) => {
      let stop = () => {};
      const id = arm(() => {
        stop();
        resolve(value);
      });
      stop = onAbort(signal, () => {
        disarm(id);
        reject(abortError(signal.reason));
      });
    });
  }
  const setTimeoutPromise = (delay, value, options) => delayed((fn) => global.setTimeout(fn, delay), global.clearTimeout, value, options);
  const setImmediatePromise = (value, options) => delayed((fn) => global.setImmediate(fn), global.clearImmediate, value, options);
  // setIntervalPromise is an async iterator yielding value every delay.
  function setIntervalPromise(delay, value, options = {}) {
    const signal = checkOptions(options);
    let pending = 0;
    const waiting = [];
    let done = false;
    let error = signal && signal.aborted ? abortError(signal.reason) : null;
    const id = error ? null : global.setInterval(() => {
      if (waiting.length) waiting.shift().resolve({ value, done: false });
      else pending++;
    }, delay);
    const stop = onAbort(error ? null : signal, () => {
      error = abortError(signal.reason);
      finish();
      for (const w of waiting.splice(0)) w.reject(error);
    });
    function finish() {
      if (done) return;
      done = true;
      if (id !== null) global.clearInterval(id);
      stop();
    }
    return {
      next() {
        if (error) {
          const err = error;
          error = null;
          finish();
          return Promise.reject(err);
        }
        if (done) return Promise.resolve({ value: undefined, done: true });
        if (pending > 0) {
          pending--;
          return Promise.resolve({ value, done: false });
        }
        return new Promise((resolve, reject) => waiting.push({ resolve, reject }));
      },
      return() {
        finish();
        for (const w of waiting.splice(0)) w.resolve({ value: undefined, done: true });
        return Promise.resolve({ value: undefined, done: true });
      },
      [kAsyncIterator]() { return this; },
    };
  }
  const promises = {
    setTimeout: setTimeoutPromise,
    setImmediate: setImmediatePromise,
    setInterval: setIntervalPromise,
    scheduler: {
      wait: (delay, options) => setTimeoutPromise(delay, undefined, options),
      yield: () => setImmediatePromise(),
    },
  };

  const custom = Symbol.for("nodejs.util.promisify.custom");
  const timers = {
    setTimeout(callback, delay, ...args) {
      validateFunction(callback, "callback");
      return new Timeout(callback, delay, args, false);
    },
    setInterval(callback, delay, ...args) {
      validateFunction(callback, "callback");
      return new Timeout(callback, delay, args, true);
    },
    setImmediate(callback, ...args) {
      validateFunction(callback, "callback");
      return new Immediate(callback, args);
    },
    clearTimeout: clear,
    clearInterval: clear,
    clearImmediate: clear,
    promises,
  };
  timers.setTimeout[custom] = setTimeoutPromise;
  timers.setImmediate[custom] = setImmediatePromise;
  return timers;
};
modules["node:timers"] = () => shared("timers");
modules["node:timers/promises"] = () => shared("timers").promises;
