// node:async_hooks — AsyncLocalStorage over the runtime's async context
// (internal.AsyncLocalStorage carries values across await, promise
// reactions and timers) and AsyncResource over its snapshots. Hooks never
// fire: there is no async resource tracking to hook into.
modules["node:async_hooks"] = function makeAsyncHooks() {
  const Base = internal.AsyncLocalStorage;
  let nextAsyncId = 1;

  class AsyncLocalStorage extends Base {
    #name;
    #disabled = false;
    constructor(options = {}) {
      super();
      validateObject(options, "options");
      this.#name = options.name === undefined ? "" : String(options.name);
    }
    get name() { return this.#name; }
    getStore() {
      return this.#disabled ? undefined : super.getStore();
    }
    run(store, fn, ...args) {
      validateFunction(fn, "fn");
      this.#disabled = false;
      return super.run(store, fn, ...args);
    }
    exit(fn, ...args) {
      validateFunction(fn, "fn");
      return super.exit(fn, ...args);
    }
    disable() {
      this.#disabled = true;
    }
  }

  class AsyncResource {
    #snapshot;
    #type;
    #asyncId;
    #triggerAsyncId;
    constructor(type, options = {}) {
      validateString(type, "type");
      this.#type = type;
      this.#snapshot = Base.snapshot();
      this.#asyncId = ++nextAsyncId;
      const trigger = typeof options === "number" ? options : options && options.triggerAsyncId;
      this.#triggerAsyncId = trigger === undefined ? 0 : trigger;
    }
    runInAsyncScope(fn, thisArg, ...args) {
      validateFunction(fn, "fn");
      return this.#snapshot(() => fn.apply(thisArg, args));
    }
    emitDestroy() { return this; }
    asyncId() { return this.#asyncId; }
    triggerAsyncId() { return this.#triggerAsyncId; }
    get type() { return this.#type; }
    bind(fn, thisArg) {
      validateFunction(fn, "fn");
      const resource = this;
      const bound = thisArg === undefined
        ? function (...args) { return resource.runInAsyncScope(fn, this, ...args); }
        : (...args) => resource.runInAsyncScope(fn, thisArg, ...args);
      Object.defineProperties(bound, {
        length: { value: fn.length, configurable: true },
        asyncResource: { value: this, configurable: true, enumerable: true, writable: true },
      });
      return bound;
    }
    static bind(fn, type, thisArg) {
      return new AsyncResource(type || fn.name || "bound-anonymous-fn").bind(fn, thisArg);
    }
  }

  const hook = { enable() { return this; }, disable() { return this; } };
  return {
    AsyncLocalStorage,
    AsyncResource,
    createHook: (callbacks) => { validateObject(callbacks, "callbacks"); return Object.create(hook); },
    executionAsyncId: () => 0,
    triggerAsyncId: () => 0,
    executionAsyncResource: () => ({}),
    asyncWrapProviders: Object.freeze({ __proto__: null }),
  };
};
