// node:stream's foundation: the legacy Stream class, the errors, destroy
// and finished (end-of-stream), shared by Readable, Writable and the rest.
// The streams follow Node's state machines; Node's process.nextTick is a
// microtask here.
sharedValues.streamBase = function makeStreamBase() {
  const EventEmitter = shared("events");

  const tick = (fn, ...args) => queueMicrotask(() => fn(...args));
  const nop = () => {};

  const errors = {
    pushAfterEOF: () => codedError(Error, "ERR_STREAM_PUSH_AFTER_EOF", "stream.push() after EOF"),
    unshiftAfterEnd: () => codedError(Error, "ERR_STREAM_UNSHIFT_AFTER_END_EVENT", "stream.unshift() after end event"),
    writeAfterEnd: () => codedError(Error, "ERR_STREAM_WRITE_AFTER_END", "write after end"),
    destroyed: (name) => codedError(Error, "ERR_STREAM_DESTROYED", `Cannot call ${name} after a stream was destroyed`),
    alreadyFinished: (name) => codedError(Error, "ERR_STREAM_ALREADY_FINISHED", `Cannot call ${name} after a stream was finished`),
    nullValues: () => codedError(TypeError, "ERR_STREAM_NULL_VALUES", "May not write null values to stream"),
    multipleCallback: () => codedError(Error, "ERR_MULTIPLE_CALLBACK", "Callback called multiple times"),
    prematureClose: () => codedError(Error, "ERR_STREAM_PREMATURE_CLOSE", "Premature close"),
    notImplemented: (name) => codedError(Error, "ERR_METHOD_NOT_IMPLEMENTED", `The ${name} method is not implemented`),
    missingArgs: (name) => codedError(TypeError, "ERR_MISSING_ARGS", `The "${name}" argument must be specified`),
    invalidReturn: (what, name, value) => codedError(TypeError, "ERR_INVALID_RETURN_VALUE", `Expected ${what} to be returned from the "${name}" function but got ${value === null ? "null" : typeof value}.`),
  };

  // Stream is the legacy base class: an EventEmitter with a bare pipe.
  function Stream(opts) {
    EventEmitter.call(this, opts);
  }
  Object.setPrototypeOf(Stream.prototype, EventEmitter.prototype);
  Object.setPrototypeOf(Stream, EventEmitter);
  Stream.prototype.pipe = function pipe(dest, options) {
    const source = this;
    function ondata(chunk) {
      if (dest.writable && dest.write(chunk) === false && source.pause) source.pause();
    }
    function ondrain() {
      if (source.readable && source.resume) source.resume();
    }
    source.on("data", ondata);
    dest.on("drain", ondrain);
    if (!dest._isStdio && (!options || options.end !== false)) {
      source.on("end", () => dest.end());
      source.on("close", () => { if (typeof dest.destroy === "function") dest.destroy(); });
    }
    dest.emit("pipe", source);
    return dest;
  };

  let defaultHighWaterMark = 65536;
  let defaultObjectHighWaterMark = 16;
  function getDefaultHighWaterMark(objectMode) {
    return objectMode ? defaultObjectHighWaterMark : defaultHighWaterMark;
  }
  function setDefaultHighWaterMark(objectMode, value) {
    validateInteger(value, "value", 0);
    if (objectMode) defaultObjectHighWaterMark = value; else defaultHighWaterMark = value;
  }
  // highWaterMark reads a stream's high water mark from its options,
  // duplexKey (readableHighWaterMark, writableHighWaterMark) for a side of
  // a Duplex.
  function highWaterMark(options, duplexKey, isDuplex, objectMode) {
    let hwm = options.highWaterMark;
    if (hwm == null && isDuplex) hwm = options[duplexKey];
    if (hwm == null) return getDefaultHighWaterMark(objectMode);
    if (!Number.isInteger(hwm) || hwm < 0) throw errInvalidArgValue(isDuplex && options.highWaterMark == null ? `options.${duplexKey}` : "options.highWaterMark", hwm);
    return Math.floor(hwm);
  }

  // ---- destroy, shared by every stream kind.
  function destroy(err, cb) {
    const r = this._readableState;
    const w = this._writableState;
    const s = w || r;
    if ((w && w.destroyed) || (r && r.destroyed)) {
      if (typeof cb === "function") cb();
      return this;
    }
    setErrored(this, err);
    if (w) w.destroyed = true;
    if (r) r.destroyed = true;
    if (!s.constructed) {
      s.afterConstruct.push((er) => destroyNow(this, er || err, cb));
    } else {
      destroyNow(this, err, cb);
    }
    return this;
  }
  function setErrored(stream, err) {
    if (!err) return;
    const r = stream._readableState, w = stream._writableState;
    if (w && !w.errored) w.errored = err;
    if (r && !r.errored) r.errored = err;
  }
  function destroyNow(self, err, cb) {
    let called = false;
    function onDestroy(er) {
      if (called) return;
      called = true;
      const r = self._readableState, w = self._writableState;
      setErrored(self, er);
      if (w) w.closed = true;
      if (r) r.closed = true;
      if (typeof cb === "function") cb(er);
      if (er) tick(emitErrorCloseNT, self, er);
      else tick(emitCloseNT, self);
    }
    try {
      self._destroy(err || null, onDestroy);
    } catch (e) {
      onDestroy(e);
    }
  }
  function emitErrorCloseNT(self, err) {
    emitErrorNT(self, err);
    emitCloseNT(self);
  }
  function emitCloseNT(self) {
    const r = self._readableState, w = self._writableState;
    if (w) w.closeEmitted = true;
    if (r) r.closeEmitted = true;
    if ((w && w.emitClose) || (r && r.emitClose)) self.emit("close");
  }
  function emitErrorNT(self, err) {
    const r = self._readableState, w = self._writableState;
    if ((w && w.errorEmitted) || (r && r.errorEmitted)) return;
    if (w) w.errorEmitted = true;
    if (r) r.errorEmitted = true;
    self.emit("error", err);
  }
  // errorOrDestroy fails a stream: destroy when it auto-destroys, else
  // emit 'error'.
  function errorOrDestroy(stream, err, sync) {
    const r = stream._readableState, w = stream._writableState;
    if ((w && w.destroyed) || (r && r.destroyed)) return;
    if ((r && r.autoDestroy) || (w && w.autoDestroy)) {
      stream.destroy(err);
    } else if (err) {
      setErrored(stream, err);
      if (sync) tick(emitErrorNT, stream, err); else emitErrorNT(stream, err);
    }
  }
  // construct runs a stream's _construct before it reads or writes;
  // onReady runs once it succeeded.
  function construct(stream, onReady) {
    if (typeof stream._construct !== "function") return;
    const r = stream._readableState, w = stream._writableState;
    const state = w || r;
    if (r) r.constructed = false;
    if (w) w.constructed = false;
    state.afterConstruct = [];
    tick(() => {
      let called = false;
      const done = (err) => {
        if (called) return errorOrDestroy(stream, err || errors.multipleCallback());
        called = true;
        if (r) r.constructed = true;
        if (w) w.constructed = true;
        const waiters = state.afterConstruct;
        state.afterConstruct = null;
        for (const fn of waiters) fn(err);
        if (err) errorOrDestroy(stream, err, true);
        else tick(onReady);
      };
      try {
        stream._construct((err) => tick(done, err));
      } catch (err) {
        tick(done, err);
      }
    });
  }
  // destroyer destroys any stream-like: a Node stream, a request, or a
  // web stream.
  function destroyer(stream, err) {
    if (!stream) return;
    if (typeof stream.destroy === "function") stream.destroy(err);
    else if (typeof stream.close === "function") stream.close();
    else if (typeof stream.cancel === "function") stream.cancel(err);
  }

  // ---- what a stream is.
  const isNodeStream = (s) => s != null && typeof s === "object" && (s._readableState || s._writableState ||
    (typeof s.write === "function" && typeof s.on === "function") || (typeof s.pipe === "function" && typeof s.on === "function"));
  const isReadableNodeStream = (s) => s != null && typeof s === "object" && typeof s.pipe === "function" && typeof s.on === "function" &&
    (!s._writableState || (s._readableState && s._readableState.readable !== false)) && (!s._writableState || !!s._readableState);
  const isWritableNodeStream = (s) => s != null && typeof s === "object" && typeof s.write === "function" && typeof s.on === "function" &&
    (!s._readableState || (s._writableState && s._writableState.writable !== false));
  const isWebReadable = (s) => s != null && typeof s.getReader === "function" && typeof s.pipeTo === "function";
  const isWebWritable = (s) => s != null && typeof s.getWriter === "function" && typeof s.abort === "function";
  const isIterable = (v, isAsync) => v != null && (isAsync === true ? typeof v[kAsyncIterator] === "function"
    : isAsync === false ? typeof v[Symbol.iterator] === "function"
      : typeof v[kAsyncIterator] === "function" || typeof v[Symbol.iterator] === "function");
  function isReadableFinished(s, strict) {
    const r = s._readableState;
    if (!r || r.errored) return false;
    return r.endEmitted || (strict === false && r.ended === true && r.length === 0);
  }
  function isWritableFinished(s, strict) {
    const w = s._writableState;
    if (!w || w.errored) return false;
    return w.finished || (strict === false && w.ended === true && w.length === 0);
  }
  function isClosed(s) {
    const r = s._readableState, w = s._writableState;
    return !!((r && r.closed) || (w && w.closed) || s.closed === true);
  }
  function willEmitClose(s) {
    const state = s._writableState || s._readableState;
    return !!state && state.autoDestroy && state.emitClose && state.closed === false;
  }

  // finished calls callback once stream has ended, finished, errored or
  // closed early, and returns a function that stops listening.
  function finished(stream, options, callback) {
    if (typeof options === "function") { callback = options; options = {}; }
    else if (options == null) options = {};
    validateFunction(callback, "callback");
    validateAbortSignal(options.signal, "options.signal");
    let called = false;
    const cb = (...args) => {
      if (called) return;
      called = true;
      callback.apply(stream, args);
    };
    if (isWebReadable(stream) || isWebWritable(stream)) {
      throw errInvalidArgType("stream", "a Node.js stream (web streams: use their promises)", stream);
    }
    const readable = options.readable != null ? options.readable : isReadableNodeStream(stream);
    const writable = options.writable != null ? options.writable : isWritableNodeStream(stream);
    const w = stream._writableState, r = stream._readableState;
    const emitsClose = willEmitClose(stream);
    let writableDone = isWritableFinished(stream, false);
    let readableDone = isReadableFinished(stream, false);
    const onlegacyfinish = () => { if (!stream.writable) onfinish(); };
    const onfinish = () => {
      writableDone = true;
      if (emitsClose && !stream.destroyed && (!stream.readable || readable)) return;
      if (!readable || readableDone) cb();
    };
    const onend = () => {
      readableDone = true;
      if (emitsClose && !stream.destroyed && (!stream.writable || writable)) return;
      if (!writable || writableDone) cb();
    };
    const onerror = (err) => cb(err);
    const onclose = () => {
      const errored = (w && w.errored) || (r && r.errored);
      if (errored && typeof errored !== "boolean") return cb(errored);
      if (readable && !readableDone && r && !isReadableFinished(stream, false)) return cb(errors.prematureClose());
      if (writable && !writableDone && w && !isWritableFinished(stream, false)) return cb(errors.prematureClose());
      cb();
    };
    const onrequest = () => stream.req.on("finish", onfinish);
    if (stream.setHeader && typeof stream.abort === "function") {
      stream.on("complete", onfinish);
      stream.on("abort", onclose);
      if (stream.req) onrequest(); else stream.on("request", onrequest);
    } else if (writable && !w) {
      stream.on("end", onlegacyfinish);
      stream.on("close", onlegacyfinish);
    }
    stream.on("end", onend);
    stream.on("finish", onfinish);
    if (options.error !== false) stream.on("error", onerror);
    stream.on("close", onclose);

    const closed = isClosed(stream);
    if (closed) {
      tick(onclose);
    } else if ((w && w.errorEmitted) || (r && r.errorEmitted)) {
      if (!emitsClose) tick(onclose);
    } else if ((!readable || readableDone) && (!writable || writableDone) && (readable || writable) && (!emitsClose || stream.destroyed)) {
      tick(onclose);
    }
    const cleanup = () => {
      callback = nop;
      stream.removeListener("aborted", onclose);
      stream.removeListener("complete", onfinish);
      stream.removeListener("abort", onclose);
      stream.removeListener("request", onrequest);
      if (stream.req) stream.req.removeListener("finish", onfinish);
      stream.removeListener("end", onlegacyfinish);
      stream.removeListener("close", onlegacyfinish);
      stream.removeListener("finish", onfinish);
      stream.removeListener("end", onend);
      stream.removeListener("error", onerror);
      stream.removeListener("close", onclose);
    };
    if (options.signal && !closed) {
      const original = callback;
      const stop = onAbort(options.signal, () => {
        cleanup();
        if (!called) {
          called = true;
          original.call(stream, abortError(options.signal.reason));
        }
      });
      callback = function (...args) {
        stop();
        original.apply(this, args);
      };
    }
    return cleanup;
  }
  function finishedPromise(stream, options) {
    return new Promise((resolve, reject) => {
      finished(stream, options, (err) => (err ? reject(err) : resolve()));
    });
  }

  function addAbortSignal(signal, stream) {
    validateAbortSignal(signal, "signal");
    if (!isNodeStream(stream) && !isWebReadable(stream)) throw errInvalidArgType("stream", "an instance of ReadableStream, WritableStream, or Stream", stream);
    const stop = onAbort(signal, () => destroyer(stream, abortError(signal.reason)));
    if (isNodeStream(stream)) finished(stream, stop);
    return stream;
  }

  return {
    Stream, tick, nop, errors, destroy, errorOrDestroy, construct, destroyer,
    highWaterMark, getDefaultHighWaterMark, setDefaultHighWaterMark,
    isNodeStream, isReadableNodeStream, isWritableNodeStream, isWebReadable, isWebWritable, isIterable,
    isReadableFinished, isWritableFinished, isClosed, finished, finishedPromise, addAbortSignal,
  };
};
