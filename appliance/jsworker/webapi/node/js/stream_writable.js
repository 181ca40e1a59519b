// node:stream's Writable, after Node's state machine: one _write at a
// time, later writes buffered (and handed to _writev together when there
// is one), 'drain' once the buffer fell below the high water mark, _final
// then 'finish' after end.
sharedValues.streamWritable = function makeWritable() {
  const base = shared("streamBase");
  const { Stream, tick, nop, errors, errorOrDestroy } = base;
  const { Buffer } = shared("buffer");

  function WritableState(options, stream, isDuplex) {
    options = options || {};
    this.objectMode = !!(options.objectMode || (isDuplex && options.writableObjectMode));
    this.highWaterMark = base.highWaterMark(options, "writableHighWaterMark", isDuplex, this.objectMode);
    this.finalCalled = false;
    this.needDrain = false;
    this.ending = false;
    this.ended = false;
    this.finished = false;
    this.destroyed = false;
    this.decodeStrings = options.decodeStrings !== false;
    this.defaultEncoding = options.defaultEncoding || "utf8";
    this.length = 0;
    this.writing = false;
    this.corked = 0;
    this.sync = true;
    this.bufferProcessing = false;
    this.onwrite = (er) => onwrite(stream, er);
    this.writecb = null;
    this.writelen = 0;
    this.afterWriteTickInfo = null;
    this.buffered = [];
    this.bufferedIndex = 0;
    this.pendingcb = 0;
    this.constructed = true;
    this.prefinished = false;
    this.errorEmitted = false;
    this.emitClose = options.emitClose !== false;
    this.autoDestroy = options.autoDestroy !== false;
    this.errored = null;
    this.closed = false;
    this.closeEmitted = false;
    this.onFinished = [];
  }
  WritableState.prototype.getBuffer = function () { return this.buffered.slice(this.bufferedIndex); };
  Object.defineProperty(WritableState.prototype, "bufferedRequestCount", { get() { return this.buffered.length - this.bufferedIndex; } });

  function Writable(options) {
    const isDuplex = this instanceof shared("streamDuplex").Duplex;
    if (!isDuplex && !Function.prototype[Symbol.hasInstance].call(Writable, this)) return new Writable(options);
    this._writableState = new WritableState(options, this, isDuplex);
    if (options) {
      if (typeof options.write === "function") this._write = options.write;
      if (typeof options.writev === "function") this._writev = options.writev;
      if (typeof options.destroy === "function") this._destroy = options.destroy;
      if (typeof options.final === "function") this._final = options.final;
      if (typeof options.construct === "function") this._construct = options.construct;
      if (options.signal) base.addAbortSignal(options.signal, this);
    }
    Stream.call(this, options);
    base.construct(this, () => {
      const state = this._writableState;
      if (!state.writing) clearBuffer(this, state);
      finishMaybe(this, state);
    });
  }
  Object.setPrototypeOf(Writable.prototype, Stream.prototype);
  Object.setPrototypeOf(Writable, Stream);
  Writable.WritableState = WritableState;
  // A Duplex is a Writable too, though it inherits from Readable.
  Object.defineProperty(Writable, Symbol.hasInstance, {
    value(object) {
      if (Function.prototype[Symbol.hasInstance].call(this, object)) return true;
      if (this !== Writable) return false;
      return !!(object && object._writableState instanceof WritableState);
    },
  });
  const proto = Writable.prototype;

  proto.pipe = function () {
    errorOrDestroy(this, codedError(Error, "ERR_STREAM_CANNOT_PIPE", "Cannot pipe, not readable"));
  };

  function write(stream, chunk, encoding, cb) {
    const state = stream._writableState;
    if (typeof encoding === "function") {
      cb = encoding;
      encoding = state.defaultEncoding;
    } else {
      if (!encoding) encoding = state.defaultEncoding;
      else if (encoding !== "buffer" && !Buffer.isEncoding(encoding)) throw codedError(TypeError, "ERR_UNKNOWN_ENCODING", `Unknown encoding: ${encoding}`);
      if (typeof cb !== "function") cb = nop;
    }
    if (chunk === null) throw errors.nullValues();
    if (!state.objectMode) {
      if (typeof chunk === "string") {
        if (state.decodeStrings !== false) {
          chunk = Buffer.from(chunk, encoding);
          encoding = "buffer";
        }
      } else if (chunk instanceof Buffer) {
        encoding = "buffer";
      } else if (chunk instanceof Uint8Array) {
        chunk = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
        encoding = "buffer";
      } else {
        throw errInvalidArgType("chunk", "of type string or an instance of Buffer or Uint8Array", chunk);
      }
    }
    let err;
    if (state.ending) err = errors.writeAfterEnd();
    else if (state.destroyed) err = errors.destroyed("write");
    if (err) {
      tick(cb, err);
      errorOrDestroy(stream, err, true);
      return err;
    }
    state.pendingcb++;
    return writeOrBuffer(stream, state, chunk, encoding, cb);
  }
  proto.write = function (chunk, encoding, cb) {
    const r = write(this, chunk, encoding, cb);
    return r instanceof Error ? false : r;
  };

  function writeOrBuffer(stream, state, chunk, encoding, callback) {
    const len = state.objectMode ? 1 : chunk.length;
    state.length += len;
    const ret = state.length < state.highWaterMark;
    if (!ret) state.needDrain = true;
    if (state.writing || state.corked || state.errored || !state.constructed) {
      state.buffered.push({ chunk, encoding, callback });
    } else {
      state.writelen = len;
      state.writecb = callback;
      state.writing = true;
      state.sync = true;
      stream._write(chunk, encoding, state.onwrite);
      state.sync = false;
    }
    return ret && !state.errored && !state.destroyed;
  }

  function doWrite(stream, state, writev, len, chunk, encoding, cb) {
    state.writelen = len;
    state.writecb = cb;
    state.writing = true;
    state.sync = true;
    if (state.destroyed) state.onwrite(errors.destroyed("write"));
    else if (writev) stream._writev(chunk, state.onwrite);
    else stream._write(chunk, encoding, state.onwrite);
    state.sync = false;
  }

  function onwrite(stream, er) {
    const state = stream._writableState;
    const sync = state.sync;
    const cb = state.writecb;
    if (typeof cb !== "function") {
      errorOrDestroy(stream, errors.multipleCallback());
      return;
    }
    state.writing = false;
    state.writecb = null;
    state.length -= state.writelen;
    state.writelen = 0;
    if (er) {
      if (!state.errored) state.errored = er;
      if (stream._readableState && !stream._readableState.errored) stream._readableState.errored = er;
      const fail = () => {
        errorBuffer(state);
        cb(er);
        errorOrDestroy(stream, er);
      };
      if (sync) tick(fail); else fail();
      return;
    }
    if (state.buffered.length > state.bufferedIndex) clearBuffer(stream, state);
    if (sync) {
      if (state.afterWriteTickInfo !== null && state.afterWriteTickInfo.cb === cb) {
        state.afterWriteTickInfo.count++;
      } else {
        const info = { count: 1, cb };
        state.afterWriteTickInfo = info;
        tick(() => {
          state.afterWriteTickInfo = null;
          afterWrite(stream, state, info.count, info.cb);
        });
      }
    } else {
      afterWrite(stream, state, 1, cb);
    }
  }

  function afterWrite(stream, state, count, cb) {
    const needDrain = !state.ending && !stream.destroyed && state.length === 0 && state.needDrain;
    if (needDrain) {
      state.needDrain = false;
      stream.emit("drain");
    }
    while (count-- > 0) {
      state.pendingcb--;
      cb(null);
    }
    if (state.destroyed) errorBuffer(state);
    finishMaybe(stream, state);
  }

  // errorBuffer fails every buffered write once the stream is destroyed.
  function errorBuffer(state) {
    if (state.writing) return;
    for (let n = state.bufferedIndex; n < state.buffered.length; ++n) {
      const { chunk, callback } = state.buffered[n];
      state.length -= state.objectMode ? 1 : chunk.length;
      callback(state.errored || errors.destroyed("write"));
    }
    for (const cb of state.onFinished.splice(0)) cb(state.errored || errors.destroyed("end"));
    state.buffered = [];
    state.bufferedIndex = 0;
  }

  function clearBuffer(stream, state) {
    if (state.corked || state.bufferProcessing || state.destroyed || !state.constructed) return;
    const { buffered, objectMode } = state;
    const count = buffered.length - state.bufferedIndex;
    if (!count) return;
    let i = state.bufferedIndex;
    state.bufferProcessing = true;
    if (count > 1 && stream._writev) {
      state.pendingcb -= count - 1;
      const chunks = buffered.slice(i);
      const callback = (err) => { for (const c of chunks) c.callback(err); };
      state.buffered = [];
      state.bufferedIndex = 0;
      doWrite(stream, state, true, state.length, chunks, "", callback);
    } else {
      do {
        const { chunk, encoding, callback } = buffered[i];
        buffered[i++] = null;
        doWrite(stream, state, false, objectMode ? 1 : chunk.length, chunk, encoding, callback);
      } while (i < buffered.length && !state.writing);
      if (i === buffered.length) {
        state.buffered = [];
        state.bufferedIndex = 0;
      } else if (i > 256) {
        buffered.splice(0, i);
        state.bufferedIndex = 0;
      } else {
        state.bufferedIndex = i;
      }
    }
    state.bufferProcessing = false;
  }

  proto._write = function (chunk, encoding, cb) {
    if (this._writev) this._writev([{ chunk, encoding }], cb);
    else throw errors.notImplemented("_write()");
  };
  proto._writev = null;
  proto._destroy = function (err, cb) { cb(err); };
  proto.destroy = function (err, cb) {
    const state = this._writableState;
    if (!state.destroyed && (state.bufferedIndex < state.buffered.length || state.onFinished.length)) tick(errorBuffer, state);
    base.destroy.call(this, err, cb);
    return this;
  };
  proto._undestroy = function () {
    const w = this._writableState;
    Object.assign(w, { constructed: true, destroyed: false, closed: false, closeEmitted: false, errored: null, errorEmitted: false, finalCalled: false, prefinished: false, ended: w.writable === false, ending: w.writable === false, finished: w.writable === false });
  };

  proto.cork = function () { this._writableState.corked++; };
  proto.uncork = function () {
    const state = this._writableState;
    if (state.corked) {
      state.corked--;
      if (!state.writing) clearBuffer(this, state);
    }
  };
  proto.setDefaultEncoding = function (encoding) {
    if (typeof encoding === "string") encoding = encoding.toLowerCase();
    if (!Buffer.isEncoding(encoding)) throw codedError(TypeError, "ERR_UNKNOWN_ENCODING", `Unknown encoding: ${encoding}`);
    this._writableState.defaultEncoding = encoding;
    return this;
  };

  proto.end = function (chunk, encoding, cb) {
    const state = this._writableState;
    if (typeof chunk === "function") {
      cb = chunk;
      chunk = null;
      encoding = null;
    } else if (typeof encoding === "function") {
      cb = encoding;
      encoding = null;
    }
    let err;
    if (chunk !== null && chunk !== undefined) {
      const ret = write(this, chunk, encoding);
      if (ret instanceof Error) err = ret;
    }
    if (state.corked) {
      state.corked = 1;
      this.uncork();
    }
    if (err) {
      // the write failed; end reports it
    } else if (!state.errored && !state.ending) {
      state.ending = true;
      finishMaybe(this, state, true);
      state.ended = true;
    } else if (state.finished) {
      err = errors.alreadyFinished("end");
    } else if (state.destroyed) {
      err = errors.destroyed("end");
    }
    if (typeof cb === "function") {
      if (err) tick(cb, err);
      else if (state.finished) tick(cb, null);
      else state.onFinished.push(cb);
    }
    return this;
  };

  function needFinish(state) {
    return state.ending && !state.destroyed && state.constructed && state.length === 0 && !state.errored &&
      state.buffered.length === 0 && !state.finished && !state.writing && !state.errorEmitted && !state.closeEmitted;
  }
  function callFinal(stream, state) {
    let called = false;
    function onFinish(err) {
      if (called) {
        errorOrDestroy(stream, err || errors.multipleCallback());
        return;
      }
      called = true;
      state.pendingcb--;
      if (err) {
        for (const cb of state.onFinished.splice(0)) cb(err);
        errorOrDestroy(stream, err, state.sync);
      } else if (needFinish(state)) {
        state.prefinished = true;
        stream.emit("prefinish");
        state.pendingcb++;
        tick(finish, stream, state);
      }
    }
    state.sync = true;
    state.pendingcb++;
    try {
      stream._final(onFinish);
    } catch (err) {
      onFinish(err);
    }
    state.sync = false;
  }
  function prefinish(stream, state) {
    if (!state.prefinished && !state.finalCalled) {
      if (typeof stream._final === "function" && !state.destroyed) {
        state.finalCalled = true;
        callFinal(stream, state);
      } else {
        state.prefinished = true;
        stream.emit("prefinish");
      }
    }
  }
  function finishMaybe(stream, state, sync) {
    if (!needFinish(state)) return;
    prefinish(stream, state);
    if (state.pendingcb !== 0) return;
    if (sync) {
      state.pendingcb++;
      tick(() => {
        if (needFinish(state)) finish(stream, state);
        else state.pendingcb--;
      });
    } else if (needFinish(state)) {
      state.pendingcb++;
      finish(stream, state);
    }
  }
  function finish(stream, state) {
    state.pendingcb--;
    state.finished = true;
    for (const cb of state.onFinished.splice(0)) cb(null);
    stream.emit("finish");
    if (state.autoDestroy) {
      const r = stream._readableState;
      if (!r || (r.autoDestroy && (r.endEmitted || r.readable === false))) stream.destroy();
    }
  }

  const state = (s) => s._writableState;
  Object.defineProperties(proto, {
    writable: {
      get() {
        const w = this._writableState;
        return !!w && w.writable !== false && !w.destroyed && !w.errored && !w.ending && !w.ended;
      },
      set(v) { if (this._writableState) this._writableState.writable = !!v; },
      configurable: true,
    },
    writableFinished: { get() { return !!this._writableState && this._writableState.finished; }, configurable: true },
    writableObjectMode: { get() { return !!this._writableState && this._writableState.objectMode; }, configurable: true },
    writableBuffer: { get() { return this._writableState && this._writableState.getBuffer(); }, configurable: true },
    writableEnded: { get() { return !!this._writableState && this._writableState.ending; }, configurable: true },
    writableNeedDrain: { get() { const w = this._writableState; return !!w && !w.destroyed && !w.ending && w.needDrain; }, configurable: true },
    writableHighWaterMark: { get() { return this._writableState && this._writableState.highWaterMark; }, configurable: true },
    writableCorked: { get() { return this._writableState ? this._writableState.corked : 0; }, configurable: true },
    writableLength: { get() { return this._writableState && this._writableState.length; }, configurable: true },
    writableAborted: { get() { const w = state(this); return !!(w.writable !== false && (w.destroyed || w.errored) && !w.finished); }, configurable: true },
    errored: { get() { return this._writableState ? this._writableState.errored : null; }, configurable: true },
    closed: { get() { return !!this._writableState && this._writableState.closed; }, configurable: true },
    destroyed: {
      get() { return !!this._writableState && this._writableState.destroyed; },
      set(v) { if (this._writableState) this._writableState.destroyed = v; },
      configurable: true,
    },
  });
  return Writable;
};
