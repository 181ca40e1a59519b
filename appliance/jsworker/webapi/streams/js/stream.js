// The ReadableStream class itself.

let streamImpl;
class ReadableStream {
  #s;
  constructor(source = undefined, strategy = undefined) {
    if (source === INTERNAL) {
      this.#s = arguments[1];
      this.#s.pub = this;
      return;
    }
    const s = new RS();
    this.#s = s;
    s.pub = this;
    const what = "The underlying source";
    const src = dict(source, what);
    // Dictionary members are read in lexicographic order, as Web IDL does.
    const autoAllocate = member(src, "autoAllocateChunkSize");
    const cancel = callbackMember(src, "cancel", what);
    const pull = callbackMember(src, "pull", what);
    const start = callbackMember(src, "start", what);
    let type = member(src, "type");
    if (type !== undefined) {
      type = String(type);
      if (type !== "bytes") throw new TypeError(`${what}'s type must be "bytes" or undefined, not "${type}"`);
    }
    let c;
    const startAlgo = start ? () => start.call(source, c.pub) : returnsUndefined;
    const pullAlgo = pull ? () => pull.call(source, c.pub) : returnsUndefined;
    const cancelAlgo = cancel ? (r) => cancel.call(source, r) : returnsUndefined;
    if (type === "bytes") {
      const st = strategyOf(strategy, 0, "The queuing strategy");
      if (st.hasSize) throw new RangeError("The strategy for a byte stream cannot have a size function");
      let chunkSize;
      if (autoAllocate !== undefined) {
        chunkSize = enforceRange(autoAllocate, "autoAllocateChunkSize");
        if (chunkSize === 0) throw new TypeError("autoAllocateChunkSize must be greater than 0");
      }
      c = setUpByte(s, pullAlgo, cancelAlgo, st.hwm, chunkSize);
    } else {
      const st = strategyOf(strategy, 1, "The queuing strategy");
      c = setUpDefault(s, pullAlgo, cancelAlgo, st.hwm, st.size);
    }
    c.start(startAlgo);
  }

  static { streamImpl = (x) => (x !== null && typeof x === "object" && #s in x) ? x.#s : undefined; }

  get locked() { return isLocked(this.#s); }

  cancel(reason) {
    const s = streamImpl(this);
    if (s === undefined) return Promise.reject(new TypeError("ReadableStream.prototype.cancel called on an object that is not a ReadableStream"));
    if (isLocked(s)) return Promise.reject(new TypeError("Cannot cancel a stream that already has a reader"));
    return readableCancel(s, reason);
  }

  getReader(options = undefined) {
    const s = this.#s;
    const d = dict(options, "getReader's options");
    let mode = member(d, "mode");
    if (mode === undefined) return newDefaultReader(acquireReader(s, false));
    mode = String(mode);
    if (mode !== "byob") throw new TypeError(`getReader's mode must be "byob" or undefined, not "${mode}"`);
    return newBYOBReader(acquireReader(s, true));
  }

  pipeThrough(transform, options = undefined) {
    const s = this.#s;
    const pair = dict(transform, "pipeThrough's transform");
    const readable = member(pair, "readable");
    const writable = member(pair, "writable");
    if (streamImpl(readable) === undefined) throw new TypeError("pipeThrough's transform must have a readable ReadableStream");
    const w = writableImpl(writable);
    if (w === undefined) throw new TypeError("pipeThrough's transform must have a writable WritableStream");
    const o = pipeOptions(options);
    if (isLocked(s)) throw new TypeError("ReadableStream.prototype.pipeThrough cannot be used on a locked ReadableStream");
    if (isWritableLocked(w)) throw new TypeError("ReadableStream.prototype.pipeThrough cannot be used on a locked WritableStream");
    markHandled(pipeTo(s, w, o.preventClose, o.preventAbort, o.preventCancel, o.signal));
    return readable;
  }

  pipeTo(destination, options = undefined) {
    try {
      const s = streamImpl(this);
      if (s === undefined) throw new TypeError("ReadableStream.prototype.pipeTo called on an object that is not a ReadableStream");
      const w = writableImpl(destination);
      if (w === undefined) throw new TypeError("pipeTo's destination must be a WritableStream");
      const o = pipeOptions(options);
      if (isLocked(s)) throw new TypeError("ReadableStream.prototype.pipeTo cannot be used on a locked ReadableStream");
      if (isWritableLocked(w)) throw new TypeError("ReadableStream.prototype.pipeTo cannot be used on a locked WritableStream");
      return pipeTo(s, w, o.preventClose, o.preventAbort, o.preventCancel, o.signal);
    } catch (e) {
      return Promise.reject(e);
    }
  }

  tee() {
    const [a, b] = tee(this.#s);
    return [a.pub, b.pub];
  }

  values(options = undefined) {
    const s = this.#s;
    const d = dict(options, "values' options");
    const preventCancel = !!member(d, "preventCancel");
    return newStreamIterator(acquireReader(s, false), preventCancel);
  }

  static from(asyncIterable) {
    return fromIterable(asyncIterable).pub;
  }
}
Object.defineProperty(ReadableStream.prototype, asyncIteratorSymbol, {
  value: ReadableStream.prototype.values, writable: true, configurable: true,
});
webidl(ReadableStream, "ReadableStream");

// pipeOptions reads StreamPipeOptions.
function pipeOptions(options) {
  const d = dict(options, "The pipe options");
  const preventAbort = !!member(d, "preventAbort");
  const preventCancel = !!member(d, "preventCancel");
  const preventClose = !!member(d, "preventClose");
  const signal = member(d, "signal");
  if (signal !== undefined && !isAbortSignal(signal)) throw new TypeError("The pipe options' signal must be an AbortSignal");
  return { preventAbort, preventCancel, preventClose, signal };
}
