// node:stream: pipeline, the conversions to and from the Web stream
// globals, and the modules node:stream, node:stream/promises,
// node:stream/consumers, node:stream/web and the _stream_* aliases.
sharedValues.stream = function makeStreamModule() {
  const base = shared("streamBase");
  const { tick, errors, finished, isNodeStream, isReadableNodeStream, isWebReadable, isWebWritable, isIterable } = base;
  const Readable = shared("streamReadable");
  const Writable = shared("streamWritable");
  const { Duplex, Transform, PassThrough } = shared("streamDuplex");
  const { Buffer } = shared("buffer");

  // ---- pipeline.
  function asyncIterableOf(val) {
    if (isIterable(val)) return val;
    if (isReadableNodeStream(val)) return { [kAsyncIterator]: () => val[kAsyncIterator]() };
    if (isWebReadable(val)) return asyncIterableOf(Readable.fromWeb(val, { objectMode: true }));
    throw errInvalidArgType("val", "Readable, Iterable, or AsyncIterable", val);
  }
  function destroyerFor(stream, reading, writing) {
    let done = false;
    stream.on("close", () => { done = true; });
    finished(stream, { readable: reading, writable: writing }, (err) => { done = !err; });
    return (err) => {
      if (done) return;
      done = true;
      base.destroyer(stream, err || errors.destroyed("pipe"));
    };
  }
  function pipe(src, dst, finish, end) {
    src.pipe(dst, { end: false });
    if (end) {
      const endFn = () => dst.end();
      if (base.isReadableFinished(src)) tick(endFn);
      else src.once("end", endFn);
      finished(dst, { readable: false, writable: true }, finish);
    } else {
      finish();
    }
    finished(src, { readable: true, writable: false }, (err) => {
      const r = src._readableState;
      if (err && err.code === "ERR_STREAM_PREMATURE_CLOSE" && r && r.ended && !r.errored && !r.errorEmitted) {
        src.once("end", finish).once("error", finish);
      } else {
        finish(err);
      }
    });
  }
  async function pump(iterable, writable, finish, end) {
    let error;
    let onresolve = null;
    const resume = (err) => {
      if (err) error = err;
      if (onresolve) {
        const cb = onresolve;
        onresolve = null;
        cb();
      }
    };
    const wait = () => new Promise((resolve, reject) => {
      if (error) reject(error);
      else onresolve = () => (error ? reject(error) : resolve());
    });
    writable.on("drain", resume);
    const cleanup = finished(writable, { readable: false }, resume);
    try {
      if (writable.writableNeedDrain) await wait();
      const it = typeof iterable[kAsyncIterator] === "function" ? iterable[kAsyncIterator]() : iterable[Symbol.iterator]();
      for (;;) {
        const { value, done } = await it.next();
        if (done) break;
        if (!writable.write(value)) await wait();
      }
      if (end) {
        writable.end();
        await wait();
      }
      finish();
    } catch (err) {
      finish(err);
    } finally {
      cleanup();
      writable.removeListener("drain", resume);
    }
  }
  async function pumpToWeb(iterable, writableStream, finish, end) {
    const writer = writableStream.getWriter();
    try {
      const source = asyncIterableOf(iterable);
      const it = typeof source[kAsyncIterator] === "function" ? source[kAsyncIterator]() : source[Symbol.iterator]();
      for (;;) {
        const { value, done } = await it.next();
        if (done) break;
        await writer.ready;
        await writer.write(value);
      }
      await writer.ready;
      if (end) await writer.close();
      finish();
    } catch (err) {
      try { await writer.abort(err); } catch { /* already failed */ }
      finish(err);
    }
  }

  function pipelineImpl(streams, callback, opts) {
    if (streams.length === 1 && Array.isArray(streams[0])) streams = streams[0];
    if (streams.length < 2) throw errors.missingArgs("streams");
    // The signal function stages get (none when no AbortController
    // global is installed).
    const controller = typeof AbortController === "function" ? new AbortController() : null;
    const signal = controller ? controller.signal : undefined;
    const outerSignal = opts && opts.signal;
    validateAbortSignal(outerSignal, "options.signal");
    let error;
    let value;
    let finishCount = 0;
    let done = false;
    const destroys = [];
    const stopAbort = onAbort(outerSignal, () => finishImpl(abortError(outerSignal.reason), true));
    function finish(err) {
      finishImpl(err, --finishCount === 0);
    }
    function finishImpl(err, final) {
      if (err && (!error || error.code === "ERR_STREAM_PREMATURE_CLOSE")) error = err;
      if (!error && !final) return;
      while (destroys.length) destroys.shift()(error);
      if (error && controller) controller.abort(error);
      if (final && !done) {
        done = true;
        stopAbort();
        tick(callback, error, value);
      }
    }
    let ret;
    try {
      for (let i = 0; i < streams.length; i++) {
        const stream = streams[i];
        const reading = i < streams.length - 1;
        const writing = i > 0;
        const end = reading || !opts || opts.end !== false;
        if (isNodeStream(stream)) {
          destroys.push(destroyerFor(stream, reading, writing));
          // An error after the stream's part is done still fails the
          // pipeline, and is not thrown as unhandled.
          stream.on("error", (err) => {
            if (err && err.name !== "AbortError" && err.code !== "ERR_STREAM_PREMATURE_CLOSE") finishImpl(err, false);
          });
        }
        if (i === 0) {
          if (typeof stream === "function") {
            ret = stream({ signal });
            if (!isIterable(ret)) throw errors.invalidReturn("Iterable, AsyncIterable or Stream", "source", ret);
          } else if (isIterable(stream) || isReadableNodeStream(stream) || isWebReadable(stream)) {
            ret = stream;
          } else {
            ret = Duplex.from(stream);
          }
        } else if (typeof stream === "function") {
          ret = stream(asyncIterableOf(ret), { signal });
          if (reading) {
            if (!isIterable(ret, true)) throw errors.invalidReturn("AsyncIterable", `transform[${i - 1}]`, ret);
          } else {
            const pt = new PassThrough({ objectMode: true });
            const then = ret && ret.then;
            if (typeof then === "function") {
              finishCount++;
              then.call(ret, (val) => {
                value = val;
                if (val != null) pt.write(val);
                if (end) pt.end();
                tick(finish);
              }, (err) => {
                pt.destroy(err);
                tick(finish, err);
              });
            } else if (isIterable(ret, true)) {
              finishCount++;
              pump(ret, pt, finish, end);
            } else {
              throw errors.invalidReturn("AsyncIterable or Promise", "destination", ret);
            }
            ret = pt;
            destroys.push(destroyerFor(ret, false, true));
          }
        } else if (isNodeStream(stream)) {
          if (isReadableNodeStream(ret)) {
            finishCount += 2;
            pipe(ret, stream, finish, end);
          } else if (isIterable(ret) || isWebReadable(ret)) {
            finishCount++;
            pump(asyncIterableOf(ret), stream, finish, end);
          } else {
            throw errInvalidArgType("val", "Readable, Iterable, AsyncIterable, ReadableStream, or TransformStream", ret);
          }
          ret = stream;
        } else if (isWebWritable(stream)) {
          finishCount++;
          pumpToWeb(ret, stream, finish, end);
          ret = stream;
        } else if (stream && isWebReadable(stream.readable) && isWebWritable(stream.writable)) {
          finishCount++;
          pumpToWeb(ret, stream.writable, finish, true);
          ret = stream.readable;
        } else {
          ret = Duplex.from(stream);
        }
      }
    } catch (err) {
      finishCount = 0;
      finishImpl(err, true);
      return ret;
    }
    if (finishCount === 0) finishImpl(undefined, true);
    return ret;
  }
  function pipeline(...streams) {
    const callback = streams.pop();
    validateFunction(callback, "streams[streams.length - 1]");
    return pipelineImpl(streams, callback);
  }
  function pipelinePromise(...streams) {
    let opts;
    const last = streams[streams.length - 1];
    if (last && typeof last === "object" && !isNodeStream(last) && !isIterable(last) && !isWebReadable(last) && !isWebWritable(last) && !(isWebReadable(last.readable))) {
      opts = streams.pop();
    }
    return new Promise((resolve, reject) => {
      pipelineImpl(streams, (err, value) => (err ? reject(err) : resolve(value)), opts);
    });
  }
  pipeline[Symbol.for("nodejs.util.promisify.custom")] = pipelinePromise;
  finished[Symbol.for("nodejs.util.promisify.custom")] = base.finishedPromise;

  // ---- the Web stream globals.
  function readableToWeb(readable, options = {}) {
    const objectMode = readable.readableObjectMode;
    let controller;
    const strategy = options.strategy || (objectMode ? { highWaterMark: 1 } : { highWaterMark: 65536, size: (c) => c.byteLength || c.length || 1 });
    function onData(chunk) {
      if (!objectMode && chunk instanceof Uint8Array) chunk = new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength);
      controller.enqueue(chunk);
      if (controller.desiredSize <= 0) readable.pause();
    }
    const stream = new ReadableStream({
      start(c) { controller = c; },
      pull() { readable.resume(); },
      cancel(reason) { base.destroyer(readable, reason); },
    }, strategy);
    const cleanup = finished(readable, (error) => {
      cleanup();
      readable.on("error", () => {});
      readable.removeListener("data", onData);
      if (error) {
        if (error.code === "ERR_STREAM_PREMATURE_CLOSE") error = abortError(error);
        try { controller.error(error); } catch { /* already closed */ }
        return;
      }
      try { controller.close(); } catch { /* already closed */ }
    });
    readable.pause();
    readable.on("data", onData);
    return stream;
  }
  function readableFromWeb(readableStream, options = {}) {
    if (!isWebReadable(readableStream)) throw errInvalidArgType("readableStream", "an instance of ReadableStream", readableStream);
    const { highWaterMark, encoding, objectMode = false, signal } = options;
    const reader = readableStream.getReader();
    let closed = false;
    const readable = new Readable({
      objectMode, highWaterMark, encoding, signal,
      read() {
        reader.read().then((chunk) => {
          if (chunk.done) readable.push(null);
          else readable.push(chunk.value);
        }, (error) => base.destroyer(readable, error));
      },
      destroy(error, callback) {
        const done = () => callback(error);
        if (!closed) {
          reader.cancel(error).then(done, done);
          return;
        }
        done();
      },
    });
    reader.closed.then(() => { closed = true; }, (error) => {
      closed = true;
      base.destroyer(readable, error);
    });
    return readable;
  }
  function writableToWeb(writable) {
    function writeChunk(chunk) {
      if (writable.writableNeedDrain) {
        return new Promise((resolve) => writable.once("drain", resolve)).then(() => writeChunk(chunk));
      }
      return new Promise((resolve, reject) => {
        writable.write(chunk, (err) => (err ? reject(err) : resolve()));
      });
    }
    return new WritableStream({
      start(c) {
        finished(writable, (err) => {
          if (err) {
            try { c.error(err); } catch { /* already errored */ }
          }
        });
      },
      write: writeChunk,
      close() {
        return new Promise((resolve, reject) => {
          writable.end();
          finished(writable, (err) => (err ? reject(err) : resolve()));
        });
      },
      abort(reason) { base.destroyer(writable, reason); },
    }, { highWaterMark: 1 });
  }
  function writableFromWeb(writableStream, options = {}) {
    if (!isWebWritable(writableStream)) throw errInvalidArgType("writableStream", "an instance of WritableStream", writableStream);
    const writer = writableStream.getWriter();
    return new Writable({
      highWaterMark: options.highWaterMark,
      objectMode: options.objectMode,
      decodeStrings: options.decodeStrings,
      signal: options.signal,
      write(chunk, encoding, callback) {
        writer.ready.then(() => writer.write(chunk)).then(() => callback(), callback);
      },
      final(callback) {
        writer.close().then(() => callback(), callback);
      },
      destroy(error, callback) {
        if (error) writer.abort(error).then(() => callback(error), () => callback(error));
        else callback(null);
      },
    });
  }
  Readable.toWeb = readableToWeb;
  Readable.fromWeb = readableFromWeb;
  Writable.toWeb = writableToWeb;
  Writable.fromWeb = writableFromWeb;
  Duplex.toWeb = (duplex) => ({ readable: readableToWeb(duplex), writable: writableToWeb(duplex) });
  Duplex.fromWeb = function fromWeb(pair, options = {}) {
    const readable = readableFromWeb(pair.readable, options);
    const writable = writableFromWeb(pair.writable, options);
    const duplex = new Duplex({
      objectMode: options.objectMode,
      encoding: options.encoding,
      read() { readable.resume(); },
      write(chunk, encoding, cb) { writable.write(chunk, encoding, cb); },
      final(cb) { writable.end(cb); },
      destroy(err, cb) {
        readable.destroy(err);
        writable.destroy(err);
        cb(err);
      },
    });
    readable.on("data", (chunk) => { if (!duplex.push(chunk)) readable.pause(); });
    readable.on("end", () => duplex.push(null));
    readable.on("error", (err) => duplex.destroy(err));
    writable.on("error", (err) => duplex.destroy(err));
    return duplex;
  };
  // Duplex.from takes a stream, a pair of Web streams, an iterable or a
  // Blob; async generator functions (Node's other case) are not taken.
  Duplex.from = function from(body) {
    if (isNodeStream(body)) return body;
    if (body && isWebReadable(body.readable) && isWebWritable(body.writable)) return Duplex.fromWeb(body);
    if (isWebReadable(body)) return readableFromWeb(body);
    if (isWebWritable(body)) return writableFromWeb(body);
    if (typeof Blob === "function" && body instanceof Blob) return readableFromWeb(body.stream());
    if (isIterable(body)) return Readable.from(body);
    if (body && (isNodeStream(body.readable) || isNodeStream(body.writable))) {
      const r = body.readable, w = body.writable;
      const d = new Duplex({
        objectMode: true,
        read() { if (r) r.resume(); },
        write(chunk, encoding, cb) { w.write(chunk, encoding, cb); },
        final(cb) { w.end(); finished(w, cb); },
      });
      if (r) {
        r.on("data", (chunk) => { if (!d.push(chunk)) r.pause(); });
        r.on("end", () => d.push(null));
        r.on("error", (err) => d.destroy(err));
      }
      return d;
    }
    throw errInvalidArgType("body", "a stream, a pair of Web streams, an iterable or a Blob (dwk does not take async generator functions here)", body);
  };

  const isErrored = (s) => !!(s && (s.errored || (s._readableState && s._readableState.errored) || (s._writableState && s._writableState.errored)));
  const Stream = base.Stream;
  Object.assign(Stream, {
    Stream,
    Readable,
    Writable,
    Duplex,
    Transform,
    PassThrough,
    pipeline,
    finished,
    addAbortSignal: base.addAbortSignal,
    destroy: base.destroyer,
    isReadable: (s) => (s && s._readableState ? !s.destroyed && s.readable !== false && !s._readableState.endEmitted : null),
    isWritable: (s) => (s && s._writableState ? !s.destroyed && s.writable !== false : null),
    isErrored,
    isDisturbed: Readable.isDisturbed,
    getDefaultHighWaterMark: base.getDefaultHighWaterMark,
    setDefaultHighWaterMark: base.setDefaultHighWaterMark,
    promises: { pipeline: pipelinePromise, finished: base.finishedPromise },
    _isUint8Array: (v) => v instanceof Uint8Array,
    _uint8ArrayToBuffer: (v) => Buffer.from(v.buffer, v.byteOffset, v.byteLength),
  });
  return Stream;
};

modules["node:stream"] = () => shared("stream");
modules["node:stream/promises"] = () => shared("stream").promises;
modules["node:_stream_readable"] = () => shared("stream").Readable;
modules["node:_stream_writable"] = () => shared("stream").Writable;
modules["node:_stream_duplex"] = () => shared("stream").Duplex;
modules["node:_stream_transform"] = () => shared("stream").Transform;
modules["node:_stream_passthrough"] = () => shared("stream").PassThrough;

modules["node:stream/web"] = function makeStreamWeb() {
  const names = `ReadableStream ReadableStreamDefaultReader ReadableStreamBYOBReader ReadableStreamBYOBRequest
    ReadableByteStreamController ReadableStreamDefaultController TransformStream TransformStreamDefaultController
    WritableStream WritableStreamDefaultWriter WritableStreamDefaultController ByteLengthQueuingStrategy
    CountQueuingStrategy TextEncoderStream TextDecoderStream CompressionStream DecompressionStream`.split(/\s+/);
  const web = {};
  for (const name of names) Object.defineProperty(web, name, { get: () => global[name], enumerable: true });
  return web;
};

modules["node:stream/consumers"] = function makeConsumers() {
  const { Buffer } = shared("buffer");
  // chunks collects what a Node stream, a Web stream or an async iterable
  // yields.
  async function chunks(stream) {
    const out = [];
    if (stream && typeof stream.getReader === "function" && typeof stream[kAsyncIterator] !== "function") {
      const reader = stream.getReader();
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return out;
        out.push(value);
      }
    }
    const it = stream[kAsyncIterator]();
    for (;;) {
      const { value, done } = await it.next();
      if (done) return out;
      out.push(value);
    }
  }
  const toBuffer = (list) => Buffer.concat(list.map((c) => (typeof c === "string" ? Buffer.from(c) : c instanceof Uint8Array ? c : Buffer.from(c))));
  async function text(stream) {
    const list = await chunks(stream);
    if (list.every((c) => typeof c === "string")) return list.join("");
    return toBuffer(list).toString("utf8");
  }
  return {
    async arrayBuffer(stream) {
      const b = toBuffer(await chunks(stream));
      return b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength);
    },
    async buffer(stream) { return toBuffer(await chunks(stream)); },
    async blob(stream) { return new Blob(await chunks(stream)); },
    async json(stream) { return JSON.parse(await text(stream)); },
    text,
  };
};
