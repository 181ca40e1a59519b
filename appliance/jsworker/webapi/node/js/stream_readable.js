// node:stream's Readable, after Node's state machine: push buffers or
// emits, read pulls from the buffer and calls _read below the high water
// mark, flowing mode emits 'data', paused mode 'readable'.
sharedValues.streamReadable = function makeReadable() {
  const base = shared("streamBase");
  const { Stream, tick, errors, errorOrDestroy } = base;
  const { Buffer } = shared("buffer");
  const kPaused = Symbol("kPaused");

  function ReadableState(options, stream, isDuplex) {
    options = options || {};
    this.objectMode = !!(options.objectMode || (isDuplex && options.readableObjectMode));
    this.highWaterMark = base.highWaterMark(options, "readableHighWaterMark", isDuplex, this.objectMode);
    this.buffer = [];
    this.length = 0;
    this.pipes = [];
    this.flowing = null;
    this.ended = false;
    this.endEmitted = false;
    this.reading = false;
    this.constructed = true;
    this.sync = true;
    this.needReadable = false;
    this.emittedReadable = false;
    this.readableListening = false;
    this.resumeScheduled = false;
    this[kPaused] = null;
    this.errorEmitted = false;
    this.emitClose = options.emitClose !== false;
    this.autoDestroy = options.autoDestroy !== false;
    this.destroyed = false;
    this.errored = null;
    this.closed = false;
    this.closeEmitted = false;
    this.defaultEncoding = options.defaultEncoding || "utf8";
    this.awaitDrainWriters = new Set();
    this.readingMore = false;
    this.dataEmitted = false;
    this.decoder = null;
    this.encoding = null;
    if (options.encoding) {
      this.decoder = new (shared("stringDecoder"))(options.encoding);
      this.encoding = this.decoder.encoding;
    }
  }

  function Readable(options) {
    if (!(this instanceof Readable)) return new Readable(options);
    const isDuplex = this instanceof shared("streamDuplex").Duplex;
    this._readableState = new ReadableState(options, this, isDuplex);
    if (options) {
      if (typeof options.read === "function") this._read = options.read;
      if (typeof options.destroy === "function") this._destroy = options.destroy;
      if (typeof options.construct === "function") this._construct = options.construct;
      if (options.signal && !isDuplex) base.addAbortSignal(options.signal, this);
    }
    Stream.call(this, options);
    base.construct(this, () => {
      if (this._readableState.needReadable) maybeReadMore(this, this._readableState);
    });
  }
  Object.setPrototypeOf(Readable.prototype, Stream.prototype);
  Object.setPrototypeOf(Readable, Stream);
  Readable.ReadableState = ReadableState;
  const proto = Readable.prototype;

  proto.destroy = base.destroy;
  proto._undestroy = function () {
    const r = this._readableState;
    Object.assign(r, { constructed: true, closed: false, closeEmitted: false, destroyed: false, errored: null, errorEmitted: false, reading: false, ended: r.readable === false, endEmitted: r.readable === false });
  };
  proto._destroy = function (err, cb) { cb(err); };
  proto._read = function () { throw errors.notImplemented("_read()"); };
  proto.push = function (chunk, encoding) { return addChunk(this, chunk, encoding, false); };
  proto.unshift = function (chunk, encoding) { return addChunk(this, chunk, encoding, true); };

  function addChunk(stream, chunk, encoding, front) {
    const state = stream._readableState;
    if (chunk === null) {
      state.reading = false;
      onEofChunk(stream, state);
      return false;
    }
    if (!state.objectMode) {
      if (typeof chunk === "string") {
        encoding = encoding || state.defaultEncoding;
        if (state.encoding !== encoding) {
          chunk = front && state.encoding ? Buffer.from(chunk, encoding).toString(state.encoding) : Buffer.from(chunk, encoding);
          encoding = "";
        }
      } else if (chunk instanceof Buffer) {
        encoding = "";
      } else if (chunk instanceof Uint8Array) {
        chunk = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
        encoding = "";
      } else if (chunk !== undefined) {
        errorOrDestroy(stream, errInvalidArgType("chunk", "of type string or an instance of Buffer or Uint8Array", chunk));
        return false;
      }
    }
    if (state.objectMode || (chunk && chunk.length > 0)) {
      if (front) {
        if (state.endEmitted) {
          errorOrDestroy(stream, errors.unshiftAfterEnd());
        } else if (state.destroyed || state.errored) {
          return false;
        } else {
          store(stream, state, chunk, true);
        }
      } else if (state.ended) {
        errorOrDestroy(stream, errors.pushAfterEOF());
      } else if (state.destroyed || state.errored) {
        return false;
      } else {
        state.reading = false;
        if (state.decoder && !encoding) {
          chunk = state.decoder.write(chunk);
          if (state.objectMode || chunk.length !== 0) store(stream, state, chunk, false);
          else maybeReadMore(stream, state);
        } else {
          store(stream, state, chunk, false);
        }
      }
    } else if (!front) {
      state.reading = false;
      maybeReadMore(stream, state);
    }
    return !state.ended && (state.length < state.highWaterMark || state.length === 0);
  }

  function store(stream, state, chunk, front) {
    if (state.flowing && state.length === 0 && !state.sync && stream.listenerCount("data") > 0) {
      state.awaitDrainWriters.clear();
      state.dataEmitted = true;
      stream.emit("data", chunk);
    } else {
      state.length += state.objectMode ? 1 : chunk.length;
      if (front) state.buffer.unshift(chunk); else state.buffer.push(chunk);
      if (state.needReadable) emitReadable(stream);
    }
    maybeReadMore(stream, state);
  }

  proto.isPaused = function () {
    const state = this._readableState;
    return state[kPaused] === true || state.flowing === false;
  };
  proto.setEncoding = function (enc) {
    const decoder = new (shared("stringDecoder"))(enc);
    const state = this._readableState;
    state.decoder = decoder;
    state.encoding = decoder.encoding;
    let content = "";
    for (const chunk of state.buffer) content += decoder.write(chunk);
    state.buffer = content !== "" ? [content] : [];
    state.length = content.length;
    return this;
  };

  function howMuchToRead(n, state) {
    if (n <= 0 || (state.length === 0 && state.ended)) return 0;
    if (state.objectMode) return 1;
    if (Number.isNaN(n)) {
      if (state.flowing && state.length) return state.buffer[0].length;
      return state.length;
    }
    if (n <= state.length) return n;
    return state.ended ? state.length : 0;
  }

  proto.read = function (n) {
    const state = this._readableState;
    if (n === undefined) n = NaN;
    else if (!Number.isInteger(n)) n = Number.parseInt(n, 10);
    const nOrig = n;
    if (n > state.highWaterMark) state.highWaterMark = Math.min(2 ** 30, 2 ** Math.ceil(Math.log2(n)));
    if (n !== 0) state.emittedReadable = false;
    if (n === 0 && state.needReadable &&
        ((state.highWaterMark !== 0 ? state.length >= state.highWaterMark : state.length > 0) || state.ended)) {
      if (state.length === 0 && state.ended) endReadable(this);
      else emitReadable(this);
      return null;
    }
    n = howMuchToRead(n, state);
    if (n === 0 && state.ended) {
      if (state.length === 0) endReadable(this);
      return null;
    }
    let doRead = state.needReadable;
    if (state.length === 0 || state.length - n < state.highWaterMark) doRead = true;
    if (state.ended || state.reading || state.destroyed || state.errored || !state.constructed) {
      doRead = false;
    } else if (doRead) {
      state.reading = true;
      state.sync = true;
      if (state.length === 0) state.needReadable = true;
      try {
        this._read(state.highWaterMark);
      } catch (err) {
        errorOrDestroy(this, err);
      }
      state.sync = false;
      if (!state.reading) n = howMuchToRead(nOrig, state);
    }
    let ret = n > 0 ? fromList(n, state) : null;
    if (ret === null) {
      state.needReadable = state.length <= state.highWaterMark;
      n = 0;
    } else {
      state.length -= n;
      state.awaitDrainWriters.clear();
    }
    if (state.length === 0) {
      if (!state.ended) state.needReadable = true;
      if (nOrig !== n && state.ended) endReadable(this);
    }
    if (ret !== null && !state.errorEmitted && !state.closeEmitted) {
      state.dataEmitted = true;
      this.emit("data", ret);
    }
    return ret;
  };

  // fromList takes n bytes (characters with an encoding; one chunk in
  // object mode) off the front of the buffer.
  function fromList(n, state) {
    if (state.length === 0) return null;
    const buf = state.buffer;
    if (state.objectMode) return buf.shift();
    if (n >= state.length) {
      const all = buf.length === 1 ? buf[0] : state.decoder ? buf.join("") : Buffer.concat(buf, state.length);
      state.buffer = [];
      return all;
    }
    const first = buf[0];
    if (n < first.length) {
      buf[0] = first.slice(n);
      return first.slice(0, n);
    }
    if (n === first.length) return buf.shift();
    const parts = [];
    let left = n;
    while (left > 0) {
      const c = buf[0];
      if (c.length <= left) {
        parts.push(buf.shift());
        left -= c.length;
      } else {
        parts.push(c.slice(0, left));
        buf[0] = c.slice(left);
        left = 0;
      }
    }
    return state.decoder ? parts.join("") : Buffer.concat(parts, n);
  }

  function onEofChunk(stream, state) {
    if (state.ended) return;
    if (state.decoder) {
      const chunk = state.decoder.end();
      if (chunk && chunk.length) {
        state.buffer.push(chunk);
        state.length += state.objectMode ? 1 : chunk.length;
      }
    }
    state.ended = true;
    if (state.sync) {
      emitReadable(stream);
    } else {
      state.needReadable = false;
      state.emittedReadable = true;
      emitReadableNow(stream);
    }
  }

  function emitReadable(stream) {
    const state = stream._readableState;
    state.needReadable = false;
    if (!state.emittedReadable) {
      state.emittedReadable = true;
      tick(emitReadableNow, stream);
    }
  }
  function emitReadableNow(stream) {
    const state = stream._readableState;
    if (!state.destroyed && !state.errored && (state.length || state.ended)) {
      stream.emit("readable");
      state.emittedReadable = false;
    }
    state.needReadable = !state.flowing && !state.ended && state.length <= state.highWaterMark;
    flow(stream);
  }

  function maybeReadMore(stream, state) {
    if (!state.readingMore && state.constructed) {
      state.readingMore = true;
      tick(() => {
        while (!state.reading && !state.ended && (state.length < state.highWaterMark || (state.flowing && state.length === 0))) {
          const len = state.length;
          stream.read(0);
          if (len === state.length) break;
        }
        state.readingMore = false;
      });
    }
  }

  function flow(stream) {
    const state = stream._readableState;
    while (state.flowing && stream.read() !== null);
  }

  proto.on = function (ev, fn) {
    const res = Stream.prototype.on.call(this, ev, fn);
    const state = this._readableState;
    if (ev === "data") {
      state.readableListening = this.listenerCount("readable") > 0;
      if (state.flowing !== false) this.resume();
    } else if (ev === "readable") {
      if (!state.endEmitted && !state.readableListening) {
        state.readableListening = state.needReadable = true;
        state.flowing = false;
        state.emittedReadable = false;
        if (state.length) emitReadable(this);
        else if (!state.reading) tick(() => this.read(0));
      }
    }
    return res;
  };
  proto.addListener = proto.on;
  function updateReadableListening(self) {
    const state = self._readableState;
    state.readableListening = self.listenerCount("readable") > 0;
    if (state.resumeScheduled && state[kPaused] === false) state.flowing = true;
    else if (self.listenerCount("data") > 0) self.resume();
    else if (!state.readableListening) state.flowing = null;
  }
  proto.removeListener = function (ev, fn) {
    const res = Stream.prototype.removeListener.call(this, ev, fn);
    if (ev === "readable") tick(updateReadableListening, this);
    return res;
  };
  proto.off = proto.removeListener;
  proto.removeAllListeners = function (ev) {
    const res = Stream.prototype.removeAllListeners.apply(this, arguments);
    if (ev === "readable" || ev === undefined) tick(updateReadableListening, this);
    return res;
  };

  proto.resume = function () {
    const state = this._readableState;
    if (!state.flowing) {
      state.flowing = !state.readableListening;
      if (!state.resumeScheduled) {
        state.resumeScheduled = true;
        tick(() => {
          if (!state.reading) this.read(0);
          state.resumeScheduled = false;
          this.emit("resume");
          flow(this);
          if (state.flowing && !state.reading) this.read(0);
        });
      }
    }
    state[kPaused] = false;
    return this;
  };
  proto.pause = function () {
    const state = this._readableState;
    if (state.flowing !== false) {
      state.flowing = false;
      this.emit("pause");
    }
    state[kPaused] = true;
    return this;
  };

  function endReadable(stream) {
    const state = stream._readableState;
    if (!state.endEmitted) {
      state.ended = true;
      tick(() => {
        if (!state.errored && !state.closeEmitted && !state.endEmitted && state.length === 0) {
          state.endEmitted = true;
          stream.emit("end");
          const w = stream._writableState;
          if (w && stream.allowHalfOpen === false && stream.writable) {
            tick(() => stream.end());
          } else if (state.autoDestroy) {
            if (!w || (w.autoDestroy && (w.finished || w.writable === false))) stream.destroy();
          }
        }
      });
    }
  }

  proto.pipe = function (dest, pipeOpts) {
    const src = this;
    const state = this._readableState;
    state.pipes.push(dest);
    const doEnd = (!pipeOpts || pipeOpts.end !== false) && !dest._isStdio;
    const endFn = doEnd ? onend : unpipe;
    if (state.endEmitted) tick(endFn);
    else src.once("end", endFn);
    dest.on("unpipe", onunpipe);
    function onunpipe(readable, info) {
      if (readable === src && info && info.hasUnpiped === false) {
        info.hasUnpiped = true;
        cleanup();
      }
    }
    function onend() { dest.end(); }
    let ondrain;
    let cleanedUp = false;
    function cleanup() {
      dest.removeListener("close", onclose);
      dest.removeListener("finish", onfinish);
      if (ondrain) dest.removeListener("drain", ondrain);
      dest.removeListener("error", onerror);
      dest.removeListener("unpipe", onunpipe);
      src.removeListener("end", onend);
      src.removeListener("end", unpipe);
      src.removeListener("data", ondata);
      cleanedUp = true;
      if (ondrain && state.awaitDrainWriters.size && (!dest._writableState || dest._writableState.needDrain)) ondrain();
    }
    function pause() {
      if (!cleanedUp) state.awaitDrainWriters.add(dest);
      src.pause();
      if (!ondrain) {
        ondrain = () => {
          state.awaitDrainWriters.delete(dest);
          if (state.awaitDrainWriters.size === 0 && src.listenerCount("data")) src.resume();
        };
        dest.on("drain", ondrain);
      }
    }
    src.on("data", ondata);
    function ondata(chunk) {
      if (dest.write(chunk) === false) pause();
    }
    function onerror(er) {
      unpipe();
      dest.removeListener("error", onerror);
      if (dest.listenerCount("error") === 0) {
        const s = dest._writableState || dest._readableState;
        if (s && !s.errorEmitted) errorOrDestroy(dest, er);
        else dest.emit("error", er);
      }
    }
    dest.prependListener("error", onerror);
    function onclose() {
      dest.removeListener("finish", onfinish);
      unpipe();
    }
    dest.once("close", onclose);
    function onfinish() {
      dest.removeListener("close", onclose);
      unpipe();
    }
    dest.once("finish", onfinish);
    function unpipe() { src.unpipe(dest); }
    dest.emit("pipe", src);
    if (dest.writableNeedDrain === true) pause();
    else if (!state.flowing) src.resume();
    return dest;
  };

  proto.unpipe = function (dest) {
    const state = this._readableState;
    if (state.pipes.length === 0) return this;
    if (!dest) {
      const dests = state.pipes;
      state.pipes = [];
      this.pause();
      for (const d of dests) d.emit("unpipe", this, { hasUnpiped: false });
      return this;
    }
    const index = state.pipes.indexOf(dest);
    if (index === -1) return this;
    state.pipes.splice(index, 1);
    if (state.pipes.length === 0) this.pause();
    dest.emit("unpipe", this, { hasUnpiped: false });
    return this;
  };

  // wrap adopts an old-style stream that only emits 'data' and 'end'.
  proto.wrap = function (stream) {
    let paused = false;
    stream.on("data", (chunk) => {
      if (!this.push(chunk) && stream.pause) {
        paused = true;
        stream.pause();
      }
    });
    stream.on("end", () => this.push(null));
    stream.on("error", (err) => errorOrDestroy(this, err));
    stream.on("close", () => this.destroy());
    stream.on("destroy", () => this.destroy());
    this._read = () => {
      if (paused && stream.resume) {
        paused = false;
        stream.resume();
      }
    };
    return this;
  };

  // ---- properties.
  const state = (s) => s._readableState;
  Object.defineProperties(proto, {
    readable: {
      get() {
        const r = this._readableState;
        return !!r && r.readable !== false && !r.destroyed && !r.errorEmitted && !r.endEmitted;
      },
      set(v) { if (this._readableState) this._readableState.readable = !!v; },
      configurable: true,
    },
    readableDidRead: { get() { return state(this).dataEmitted; }, configurable: true },
    readableAborted: { get() { const r = state(this); return !!(r.readable !== false && (r.destroyed || r.errored) && !r.endEmitted); }, configurable: true },
    readableHighWaterMark: { get() { return state(this).highWaterMark; }, configurable: true },
    readableBuffer: { get() { return state(this).buffer; }, configurable: true },
    readableFlowing: { get() { return state(this).flowing; }, set(v) { state(this).flowing = v; }, configurable: true },
    readableLength: { get() { return state(this).length; }, configurable: true },
    readableObjectMode: { get() { return state(this).objectMode; }, configurable: true },
    readableEncoding: { get() { return state(this).encoding; }, configurable: true },
    readableEnded: { get() { return state(this).endEmitted; }, configurable: true },
    errored: { get() { return state(this).errored; }, configurable: true },
    closed: { get() { return state(this).closed; }, configurable: true },
    destroyed: {
      get() { return !!this._readableState && this._readableState.destroyed; },
      set(v) { if (this._readableState) this._readableState.destroyed = v; },
      configurable: true,
    },
  });

  shared("streamIteration")(Readable);
  Readable.isDisturbed = (s) => !!(s && (s._readableState ? s._readableState.dataEmitted || s._readableState.destroyed : s.locked));
  Readable._fromList = fromList;
  return Readable;
};
