// node:stream's async iteration of Readables (written by hand: goja has
// no async generators), the iterator helpers libraries use, and
// Readable.from.
sharedValues.streamIteration = function makeStreamIteration() {
  const base = shared("streamBase");
  const { tick, nop, errors } = base;
  // install adds them to Readable.
  return function install(Readable) {
    // ---- async iteration, by hand (goja has no async generators).
    Readable.prototype[kAsyncIterator] = function () { return iterate(this, {}); };
    Readable.prototype.iterator = function (options) { return iterate(this, options || {}); };
    function iterate(stream, options) {
      let wake = nop;
      let error; // undefined while the stream runs; null once it ended cleanly
      let done = false;
      const onReadable = () => { const w = wake; wake = nop; w(); };
      stream.on("readable", onReadable);
      const cleanup = base.finished(stream, { writable: false }, (err) => {
        error = err || null;
        onReadable();
      });
      function finish(destroy) {
        if (done) return;
        done = true;
        cleanup();
        stream.removeListener("readable", onReadable);
        if (destroy && options.destroyOnReturn !== false) stream.destroy(null);
      }
      const iterator = {
        next() {
          return new Promise((resolve, reject) => {
            const attempt = () => {
              if (done) return resolve({ value: undefined, done: true });
              const chunk = stream.destroyed ? null : stream.read();
              if (chunk !== null) return resolve({ value: chunk, done: false });
              if (error) {
                const err = error;
                finish(false);
                stream.destroy(err);
                return reject(err);
              }
              if (error === null) {
                finish(false);
                return resolve({ value: undefined, done: true });
              }
              wake = attempt;
            };
            attempt();
          });
        },
        return(value) {
          const r = stream._readableState;
          finish(!(r && r.endEmitted));
          return Promise.resolve({ value, done: true });
        },
        [kAsyncIterator]() { return this; },
      };
      return iterator;
    }

    // ---- iterator helpers (the ones libraries use).
    Readable.prototype.toArray = async function (options) {
      const out = [];
      const it = this[kAsyncIterator]();
      for (;;) {
        if (options && options.signal && options.signal.aborted) { it.return(); throw abortError(options.signal.reason); }
        const { value, done } = await it.next();
        if (done) return out;
        out.push(value);
      }
    };
    Readable.prototype.forEach = async function (fn) {
      validateFunction(fn, "fn");
      const it = this[kAsyncIterator]();
      for (;;) {
        const { value, done } = await it.next();
        if (done) return;
        await fn(value);
      }
    };
    Readable.prototype.reduce = async function (fn, initial) {
      validateFunction(fn, "reducer");
      const it = this[kAsyncIterator]();
      let acc = initial;
      let first = arguments.length < 2;
      for (;;) {
        const { value, done } = await it.next();
        if (done) {
          if (first) throw codedError(TypeError, "ERR_INVALID_ARGS", "Reduce of an empty stream requires an initial value");
          return acc;
        }
        if (first) { acc = value; first = false; } else acc = await fn(acc, value);
      }
    };
    function derived(src, step) {
      const it = src[kAsyncIterator]();
      return Readable.from({
        [kAsyncIterator]() {
          return {
            async next() {
              for (;;) {
                const r = await it.next();
                if (r.done) return r;
                const out = await step(r.value);
                if (out === SKIP) continue;
                if (out === STOP) { await it.return(); return { value: undefined, done: true }; }
                return { value: out, done: false };
              }
            },
            return() { return it.return(); },
          };
        },
      });
    }
    const SKIP = Symbol("skip");
    const STOP = Symbol("stop");
    Readable.prototype.map = function (fn) { validateFunction(fn, "fn"); return derived(this, (v) => fn(v)); };
    Readable.prototype.filter = function (fn) { validateFunction(fn, "fn"); return derived(this, async (v) => ((await fn(v)) ? v : SKIP)); };
    Readable.prototype.take = function (n) { let k = 0; return derived(this, (v) => (k++ < n ? v : STOP)); };
    Readable.prototype.drop = function (n) { let k = 0; return derived(this, (v) => (k++ < n ? SKIP : v)); };
    Readable.prototype.some = async function (fn) { for (const v of await this.toArray()) if (await fn(v)) return true; return false; };
    Readable.prototype.every = async function (fn) { for (const v of await this.toArray()) if (!(await fn(v))) return false; return true; };
    Readable.prototype.find = async function (fn) { for (const v of await this.toArray()) if (await fn(v)) return v; return undefined; };

    // ---- Readable.from: a stream over an iterable or async iterable.
    Readable.from = function from(iterable, opts) {
      if (typeof iterable === "string" || iterable instanceof Uint8Array) {
        return new Readable(Object.assign({ objectMode: true }, opts, {
          read() {
            this.push(iterable);
            this.push(null);
          },
        }));
      }
      let iterator, isAsync;
      if (iterable && typeof iterable[kAsyncIterator] === "function") {
        isAsync = true;
        iterator = iterable[kAsyncIterator]();
      } else if (iterable && typeof iterable[Symbol.iterator] === "function") {
        isAsync = false;
        iterator = iterable[Symbol.iterator]();
      } else {
        throw errInvalidArgType("iterable", "an instance of Iterable", iterable);
      }
      const readable = new Readable(Object.assign({ objectMode: true, highWaterMark: 1 }, opts));
      let reading = false;
      let closed = false;
      readable._read = function () {
        if (!reading) {
          reading = true;
          next();
        }
      };
      readable._destroy = function (error, cb) {
        close(error).then(() => tick(cb, error), (e) => tick(cb, e || error));
      };
      async function close(error) {
        if (closed) return;
        closed = true;
        if (error != null && typeof iterator.throw === "function") {
          const { value, done } = await iterator.throw(error);
          await value;
          if (done) return;
        }
        if (typeof iterator.return === "function") {
          const { value } = await iterator.return();
          await value;
        }
      }
      async function next() {
        for (;;) {
          try {
            const { value, done } = isAsync ? await iterator.next() : iterator.next();
            if (done) {
              closed = true;
              readable.push(null);
            } else {
              const res = value && typeof value.then === "function" ? await value : value;
              if (res === null) {
                reading = false;
                throw errors.nullValues();
              } else if (readable.push(res)) {
                continue;
              } else {
                reading = false;
              }
            }
          } catch (err) {
            readable.destroy(err);
          }
          break;
        }
      }
      return readable;
    };
  };
};
