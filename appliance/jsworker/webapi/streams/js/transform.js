// TransformStream and its default controller.

class TSI {
  constructor() {
    this.readable = undefined; // RS
    this.writable = undefined; // WS
    this.backpressure = undefined;
    // The spec's [[backpressureChangePromise]] is two waits here, ended
    // by the next change of backpressure without a promise: a pull of
    // the readable side, and a write that waits to be transformed.
    this.pullWaiting = false;
    this.writeWaiting = false;
    this.waitingChunk = undefined;
    this.resume = undefined; // resumes the waiting write, a microtask later
    this.controller = undefined; // TC
  }
}

class TC {
  constructor(ts) {
    this.stream = ts;
    this.transformAlgo = undefined;
    this.flushAlgo = undefined;
    this.cancelAlgo = undefined;
    this.finish = undefined; // Deferred
    this.pub = undefined;
  }
}

// initTransform is the spec's InitializeTransformStream and
// SetUpTransformStreamDefaultController.
// With bytes, the readable side is a byte stream (BYOB readers work on
// it) and the chunks enqueued must be Uint8Arrays.
function initTransform(ts, startPromise, wHWM, wSize, rHWM, rSize, transformAlgo, flushAlgo, cancelAlgo, bytes = false) {
  const startAlgo = () => startPromise;
  ts.writable = createWritable(startAlgo,
    (chunk) => sinkWrite(ts, chunk),
    () => sinkClose(ts),
    (reason) => sinkAbort(ts, reason),
    wHWM, wSize);
  if (bytes) {
    ts.readable = newRS();
    setUpByte(ts.readable, () => sourcePull(ts), (reason) => sourceCancel(ts, reason), rHWM, undefined).start(startAlgo);
  } else {
    ts.readable = createReadable(startAlgo,
      () => sourcePull(ts),
      (reason) => sourceCancel(ts, reason),
      rHWM, rSize);
  }
  ts.backpressure = true;
  ts.resume = () => resumeWrite(ts);
  const c = new TC(ts);
  new TransformStreamDefaultController(INTERNAL, c); // eslint-disable-line no-new
  c.transformAlgo = transformAlgo;
  c.flushAlgo = flushAlgo;
  c.cancelAlgo = cancelAlgo;
  ts.controller = c;
  return c;
}

function setBackpressure(ts, bp) {
  ts.backpressure = bp;
  if (ts.writeWaiting) RESOLVED.then(ts.resume);
  if (ts.pullWaiting) {
    ts.pullWaiting = false;
    ts.readable.controller.pullDone(undefined);
  }
}

// resumeWrite transforms the chunk of a write that waited for the
// readable side to want more.
function resumeWrite(ts) {
  if (!ts.writeWaiting) return;
  const chunk = ts.waitingChunk;
  ts.writeWaiting = false;
  ts.waitingChunk = undefined;
  const w = ts.writable;
  const wc = w.controller;
  if (w.state === "erroring") {
    wc.writeFailed(w.storedError);
    return;
  }
  const p = performTransform(ts.controller, chunk);
  if (p === RESOLVED) wc.writeDone();
  else p.then(wc.writeDone, wc.writeFailed);
}

function tsError(ts, e) {
  ts.readable.controller.error(e);
  errorWritableAndUnblockWrite(ts, e);
}

function errorWritableAndUnblockWrite(ts, e) {
  clearTransformAlgorithms(ts.controller);
  ts.writable.controller.errorIfNeeded(e);
  if (ts.backpressure) setBackpressure(ts, false);
}

function clearTransformAlgorithms(c) {
  c.transformAlgo = undefined;
  c.flushAlgo = undefined;
  c.cancelAlgo = undefined;
}

function tcEnqueue(c, chunk) {
  const ts = c.stream;
  const rc = ts.readable.controller;
  if (!rc.canCloseOrEnqueue()) throw new TypeError("The readable side is not in a state that permits enqueue");
  try {
    rc.enqueue(chunk);
  } catch (e) {
    errorWritableAndUnblockWrite(ts, e);
    throw ts.readable.storedError;
  }
  if (rc.hasBackpressure() !== ts.backpressure) setBackpressure(ts, true);
}

function tcTerminate(c) {
  const ts = c.stream;
  ts.readable.controller.close();
  errorWritableAndUnblockWrite(ts, new TypeError("The TransformStream was terminated"));
}

function performTransform(c, chunk) {
  const ts = c.stream;
  const onError = (e) => {
    tsError(ts, e);
    throw e;
  };
  let r;
  try {
    r = c.transformAlgo(chunk);
  } catch (e) {
    return Promise.reject(e).then(undefined, onError);
  }
  if (r === undefined) return RESOLVED;
  return Promise.resolve(r).then(undefined, onError);
}

function sinkWrite(ts, chunk) {
  if (ts.backpressure) {
    ts.writeWaiting = true;
    ts.waitingChunk = chunk;
    return PENDING;
  }
  return performTransform(ts.controller, chunk);
}

// callAlgo calls an algorithm that may be missing (cleared) and returns
// a promise of its result.
function callAlgo(algo, arg) {
  if (algo === undefined) return RESOLVED;
  try {
    return thenable(algo(arg));
  } catch (e) {
    return Promise.reject(e);
  }
}

function sinkAbort(ts, reason) {
  const c = ts.controller;
  if (c.finish !== undefined) return c.finish.promise;
  const readable = ts.readable;
  const fin = c.finish = new Deferred();
  const p = callAlgo(c.cancelAlgo, reason);
  clearTransformAlgorithms(c);
  p.then(() => {
    if (readable.state === "errored") {
      fin.reject(readable.storedError);
    } else {
      readable.controller.error(reason);
      fin.resolve(undefined);
    }
  }, (r) => {
    readable.controller.error(r);
    fin.reject(r);
  });
  return fin.promise;
}

function sinkClose(ts) {
  const c = ts.controller;
  if (c.finish !== undefined) return c.finish.promise;
  const readable = ts.readable;
  const fin = c.finish = new Deferred();
  const p = callAlgo(c.flushAlgo);
  clearTransformAlgorithms(c);
  p.then(() => {
    if (readable.state === "errored") {
      fin.reject(readable.storedError);
    } else {
      readable.controller.close();
      fin.resolve(undefined);
    }
  }, (r) => {
    readable.controller.error(r);
    fin.reject(r);
  });
  return fin.promise;
}

function sourcePull(ts) {
  setBackpressure(ts, false);
  ts.pullWaiting = true;
  return PENDING;
}

function sourceCancel(ts, reason) {
  const c = ts.controller;
  if (c.finish !== undefined) return c.finish.promise;
  const writable = ts.writable;
  const fin = c.finish = new Deferred();
  const p = callAlgo(c.cancelAlgo, reason);
  clearTransformAlgorithms(c);
  p.then(() => {
    if (writable.state === "errored") {
      fin.reject(writable.storedError);
    } else {
      writable.controller.errorIfNeeded(reason);
      if (ts.backpressure) setBackpressure(ts, false);
      fin.resolve(undefined);
    }
  }, (r) => {
    writable.controller.errorIfNeeded(r);
    if (ts.backpressure) setBackpressure(ts, false);
    fin.reject(r);
  });
  return fin.promise;
}

class TransformStreamDefaultController {
  #c;
  constructor(token, c) {
    illegal(token);
    this.#c = c;
    c.pub = this;
  }
  get desiredSize() { return this.#c.stream.readable.controller.desiredSize(); }
  enqueue(chunk = undefined) { tcEnqueue(this.#c, chunk); }
  error(reason = undefined) { tsError(this.#c.stream, reason); }
  terminate() { tcTerminate(this.#c); }
}
webidl(TransformStreamDefaultController, "TransformStreamDefaultController");

// newTransform makes a transform stream from algorithms (for the
// transforms this package defines): transform(chunk, c) and flush(c)
// get the internal controller; cancel(reason) runs when either side is
// canceled or aborted. bytes makes the readable side a byte stream.
function newTransform(transform, flush, cancel, bytes = false) {
  const ts = new TSI();
  const cref = {};
  const c = initTransform(ts, RESOLVED, 1, null, 0, null,
    (chunk) => transform(chunk, cref.c),
    flush ? () => flush(cref.c) : undefined,
    cancel, bytes);
  cref.c = c;
  return ts;
}

class TransformStream {
  #ts;
  constructor(transformer = undefined, writableStrategy = undefined, readableStrategy = undefined) {
    if (transformer === INTERNAL) {
      this.#ts = writableStrategy;
      return;
    }
    const what = "The transformer";
    const d = dict(transformer, what);
    const cancel = callbackMember(d, "cancel", what);
    const flush = callbackMember(d, "flush", what);
    const readableType = member(d, "readableType");
    const start = callbackMember(d, "start", what);
    const transform = callbackMember(d, "transform", what);
    const writableType = member(d, "writableType");
    const ws = strategyOf(writableStrategy, 1, "The writable strategy");
    const rs = strategyOf(readableStrategy, 0, "The readable strategy");
    if (readableType !== undefined) throw new RangeError(`${what}'s readableType must be undefined`);
    if (writableType !== undefined) throw new RangeError(`${what}'s writableType must be undefined`);
    const ts = new TSI();
    this.#ts = ts;
    const startPromise = new Deferred();
    let c;
    const transformAlgo = transform
      ? (chunk) => transform.call(transformer, chunk, c.pub)
      : (chunk) => { tcEnqueue(c, chunk); };
    c = initTransform(ts, startPromise.promise, ws.hwm, ws.size, rs.hwm, rs.size, transformAlgo,
      flush ? () => flush.call(transformer, c.pub) : undefined,
      cancel ? (r) => cancel.call(transformer, r) : undefined);
    if (start) startPromise.resolve(start.call(transformer, c.pub));
    else startPromise.resolve(undefined);
  }
  get readable() { return this.#ts.readable.pub; }
  get writable() { return this.#ts.writable.pub; }
}
webidl(TransformStream, "TransformStream");

