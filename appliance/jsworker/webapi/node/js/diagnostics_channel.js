// node:diagnostics_channel — named channels that libraries publish to and
// instrumentation subscribes to, with store binding and tracing channels.
modules["node:diagnostics_channel"] = function makeDiagnosticsChannel() {
  const channels = new Map();
  function report(err) {
    console.error("Uncaught exception in a diagnostics_channel subscriber:", err);
  }
  class Channel {
    constructor(name) {
      this.name = name;
      this._subscribers = [];
      this._stores = new Map();
    }
    get hasSubscribers() { return this._subscribers.length > 0 || this._stores.size > 0; }
    subscribe(subscription) {
      validateFunction(subscription, "subscription");
      this._subscribers.push(subscription);
    }
    unsubscribe(subscription) {
      const k = this._subscribers.indexOf(subscription);
      if (k < 0) return false;
      this._subscribers.splice(k, 1);
      return true;
    }
    publish(message) {
      for (const fn of this._subscribers.slice()) {
        try {
          fn(message, this.name);
        } catch (err) {
          report(err);
        }
      }
    }
    bindStore(store, transform) {
      this._stores.set(store, transform);
    }
    unbindStore(store) {
      return this._stores.delete(store);
    }
    runStores(data, fn, thisArg, ...args) {
      let run = () => {
        this.publish(data);
        return fn.apply(thisArg, args);
      };
      for (const [store, transform] of this._stores) {
        const next = run;
        run = () => {
          let context;
          try {
            context = transform ? transform(data) : data;
          } catch (err) {
            report(err);
            return next();
          }
          return store.run(context, next);
        };
      }
      return run();
    }
  }
  function channel(name) {
    if (typeof name !== "string" && typeof name !== "symbol") throw errInvalidArgType("channel", "of type string or symbol", name);
    let ch = channels.get(name);
    if (!ch) channels.set(name, (ch = new Channel(name)));
    return ch;
  }

  const events = ["start", "end", "asyncStart", "asyncEnd", "error"];
  class TracingChannel {
    constructor(nameOrChannels) {
      for (const e of events) {
        this[e] = typeof nameOrChannels === "string" ? channel(`tracing:${nameOrChannels}:${e}`) : nameOrChannels[e];
        if (!(this[e] instanceof Channel)) throw errInvalidArgType(`nameOrChannels.${e}`, "an instance of Channel", this[e]);
      }
    }
    get hasSubscribers() { return events.some((e) => this[e].hasSubscribers); }
    subscribe(handlers) {
      for (const e of events) if (handlers[e]) this[e].subscribe(handlers[e]);
    }
    unsubscribe(handlers) {
      let done = true;
      for (const e of events) if (handlers[e] && !this[e].unsubscribe(handlers[e])) done = false;
      return done;
    }
    traceSync(fn, context = {}, thisArg, ...args) {
      if (!this.hasSubscribers) return fn.apply(thisArg, args);
      return this.start.runStores(context, () => {
        try {
          const result = fn.apply(thisArg, args);
          context.result = result;
          return result;
        } catch (err) {
          context.error = err;
          this.error.publish(context);
          throw err;
        } finally {
          this.end.publish(context);
        }
      });
    }
    tracePromise(fn, context = {}, thisArg, ...args) {
      if (!this.hasSubscribers) return fn.apply(thisArg, args);
      return this.start.runStores(context, () => {
        try {
          const promise = Promise.resolve(fn.apply(thisArg, args));
          return promise.then((result) => {
            context.result = result;
            this.asyncStart.publish(context);
            this.asyncEnd.publish(context);
            return result;
          }, (err) => {
            context.error = err;
            this.error.publish(context);
            this.asyncStart.publish(context);
            this.asyncEnd.publish(context);
            throw err;
          });
        } catch (err) {
          context.error = err;
          this.error.publish(context);
          throw err;
        } finally {
          this.end.publish(context);
        }
      });
    }
    traceCallback(fn, position = -1, context = {}, thisArg, ...args) {
      if (!this.hasSubscribers) return fn.apply(thisArg, args);
      const at = position < 0 ? args.length + position : position;
      const callback = args[at];
      validateFunction(callback, "callback");
      const self = this;
      args[at] = function wrapped(err, res) {
        const callbackArgs = arguments;
        if (err) {
          context.error = err;
          self.error.publish(context);
        } else {
          context.result = res;
        }
        return self.asyncStart.runStores(context, () => {
          try {
            return callback.apply(this, callbackArgs);
          } finally {
            self.asyncEnd.publish(context);
          }
        });
      };
      return this.start.runStores(context, () => {
        try {
          return fn.apply(thisArg, args);
        } catch (err) {
          context.error = err;
          this.error.publish(context);
          throw err;
        } finally {
          this.end.publish(context);
        }
      });
    }
  }

  return {
    channel,
    hasSubscribers: (name) => { const ch = channels.get(name); return !!ch && ch.hasSubscribers; },
    subscribe: (name, fn) => channel(name).subscribe(fn),
    unsubscribe: (name, fn) => channel(name).unsubscribe(fn),
    tracingChannel: (nameOrChannels) => new TracingChannel(nameOrChannels),
    Channel,
  };
};
