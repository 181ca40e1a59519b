// WritableStream, its default writer and its default controller.

const CLOSE = Symbol("close"); // the close sentinel in a controller's queue

class WS {
  constructor() {
    this.state = "writable"; // "writable", "closed", "erroring" or "errored"
    this.storedError = undefined;
    this.writer = undefined;
    this.controller = undefined;
    this.inFlightWrite = undefined; // Deferred
    this.closeRequest = undefined; // Deferred
    this.inFlightClose = undefined; // Deferred
    this.pendingAbort = undefined; // { d, reason, wasAlreadyErroring }
    this.writeRequests = []; // Deferreds
    this.backpressure = false;
    this.pub = undefined;
  }
}

function newWS() {
  const w = new WS();
  new WritableStream(INTERNAL, w); // eslint-disable-line no-new
  return w;
}

function isWritableLocked(w) { return w.writer !== undefined; }

function writableAbort(w, reason) {
  if (w.state === "closed" || w.state === "errored") return Promise.resolve();
  w.controller.signalAbort(reason);
  const st = w.state;
  if (st === "closed" || st === "errored") return Promise.resolve();
  if (w.pendingAbort !== undefined) return w.pendingAbort.d.promise;
  let wasAlreadyErroring = false;
  if (st === "erroring") {
    wasAlreadyErroring = true;
    reason = undefined;
  }
  const d = new Deferred();
  w.pendingAbort = { d, reason, wasAlreadyErroring };
  if (!wasAlreadyErroring) startErroring(w, reason);
  return d.promise;
}

function writableClose(w) {
  const st = w.state;
  if (st === "closed" || st === "errored") {
    return Promise.reject(new TypeError(`The stream (in ${st} state) is not in the writable state and cannot be closed`));
  }
  const d = new Deferred();
  w.closeRequest = d;
  const wr = w.writer;
  if (wr !== undefined && w.backpressure && st === "writable") writerReady(wr);
  w.controller.closeQueued();
  return d.promise;
}

function closeQueuedOrInFlight(w) {
  return w.closeRequest !== undefined || w.inFlightClose !== undefined;
}

function dealWithRejection(w, e) {
  if (w.state === "writable") {
    startErroring(w, e);
    return;
  }
  finishErroring(w);
}

function startErroring(w, reason) {
  const c = w.controller;
  w.state = "erroring";
  w.storedError = reason;
  const wr = w.writer;
  if (wr !== undefined) wr.ready.ensureRejected(reason);
  if (!hasOperationInFlight(w) && c.started) finishErroring(w);
}

function finishErroring(w) {
  w.state = "errored";
  w.controller.errorSteps();
  const e = w.storedError;
  const reqs = w.writeRequests;
  w.writeRequests = [];
  for (let k = 0; k < reqs.length; k++) reqs[k].reject(e);
  const abort = w.pendingAbort;
  if (abort === undefined) {
    rejectCloseAndClosedIfNeeded(w);
    return;
  }
  w.pendingAbort = undefined;
  if (abort.wasAlreadyErroring) {
    abort.d.reject(e);
    rejectCloseAndClosedIfNeeded(w);
    return;
  }
  w.controller.abortSteps(abort.reason).then(() => {
    abort.d.resolve(undefined);
    rejectCloseAndClosedIfNeeded(w);
  }, (r) => {
    abort.d.reject(r);
    rejectCloseAndClosedIfNeeded(w);
  });
}

function finishInFlightWrite(w) {
  w.inFlightWrite.resolve(undefined);
  w.inFlightWrite = undefined;
}

function finishInFlightWriteWithError(w, e) {
  w.inFlightWrite.reject(e);
  w.inFlightWrite = undefined;
  dealWithRejection(w, e);
}

function finishInFlightClose(w) {
  w.inFlightClose.resolve(undefined);
  w.inFlightClose = undefined;
  if (w.state === "erroring") {
    w.storedError = undefined;
    if (w.pendingAbort !== undefined) {
      w.pendingAbort.d.resolve(undefined);
      w.pendingAbort = undefined;
    }
  }
  w.state = "closed";
  const wr = w.writer;
  if (wr !== undefined) wr.closed.resolve(undefined);
}

function finishInFlightCloseWithError(w, e) {
  w.inFlightClose.reject(e);
  w.inFlightClose = undefined;
  if (w.pendingAbort !== undefined) {
    w.pendingAbort.d.reject(e);
    w.pendingAbort = undefined;
  }
  dealWithRejection(w, e);
}

function hasOperationInFlight(w) {
  return w.inFlightWrite !== undefined || w.inFlightClose !== undefined;
}

function rejectCloseAndClosedIfNeeded(w) {
  if (w.closeRequest !== undefined) {
    w.closeRequest.reject(w.storedError);
    w.closeRequest = undefined;
  }
  const wr = w.writer;
  if (wr !== undefined) wr.closed.reject(w.storedError);
}

function updateBackpressure(w, backpressure) {
  const wr = w.writer;
  const changed = wr !== undefined && backpressure !== w.backpressure;
  w.backpressure = backpressure;
  if (!changed) return;
  if (backpressure) wr.ready.reset();
  else writerReady(wr);
}

// writerReady resolves the writer's ready promise and calls its onReady.
function writerReady(wr) {
  wr.ready.resolve(undefined);
  const f = wr.onReady;
  if (f !== undefined) {
    wr.onReady = undefined;
    f();
  }
}

// ---- writers

class WWriter {
  constructor() {
    this.stream = undefined;
    this.ready = undefined; // Settled
    this.closed = undefined; // Settled
    // onReady, when set, is called once when backpressure ends (pipes
    // wait for ready without a promise).
    this.onReady = undefined;
    this.pub = undefined;
  }
}

function acquireWriter(w) {
  if (isWritableLocked(w)) throw new TypeError("This stream has already been locked for exclusive writing by another writer");
  const wr = new WWriter();
  wr.stream = w;
  w.writer = wr;
  const st = w.state;
  if (st === "writable") {
    wr.ready = !closeQueuedOrInFlight(w) && w.backpressure ? new Settled() : Settled.fulfilled(undefined);
    wr.closed = new Settled();
  } else if (st === "erroring") {
    wr.ready = Settled.rejected(w.storedError);
    wr.closed = new Settled();
  } else if (st === "closed") {
    wr.ready = Settled.fulfilled(undefined);
    wr.closed = Settled.fulfilled(undefined);
  } else {
    wr.ready = Settled.rejected(w.storedError);
    wr.closed = Settled.rejected(w.storedError);
  }
  return wr;
}

function writerCloseWithErrorPropagation(wr) {
  const w = wr.stream;
  const st = w.state;
  if (closeQueuedOrInFlight(w) || st === "closed") return RESOLVED;
  if (st === "errored") return Promise.reject(w.storedError);
  return writableClose(w);
}

function writerDesiredSize(wr) {
  const w = wr.stream;
  const st = w.state;
  if (st === "errored" || st === "erroring") return null;
  if (st === "closed") return 0;
  return w.controller.desiredSize();
}

function releaseWriter(wr) {
  const w = wr.stream;
  const e = new TypeError("Writer was released and can no longer be used to monitor the stream's closedness");
  wr.ready.ensureRejected(e);
  wr.closed.ensureRejected(e);
  w.writer = undefined;
  wr.stream = undefined;
}

// writerWrite writes chunk and returns a promise of the write. A caller
// that passes req (an object with resolve and reject) gets it settled
// instead, and no promise is made.
function writerWrite(wr, chunk, req) {
  const w = wr.stream;
  const c = w.controller;
  if (c.prepare !== undefined && w.state === "writable") {
    try {
      chunk = c.prepare(chunk);
    } catch (e) {
      return failWrite(req, e);
    }
  }
  const size = c.chunkSize(chunk);
  if (w !== wr.stream) return failWrite(req, new TypeError("Cannot write to a stream using a released writer"));
  const st = w.state;
  if (st === "errored") return failWrite(req, w.storedError);
  if (closeQueuedOrInFlight(w) || st === "closed") return failWrite(req, new TypeError("The stream is closing or closed and cannot be written to"));
  if (st === "erroring") return failWrite(req, w.storedError);
  if (req === undefined) {
    const d = new Deferred();
    w.writeRequests.push(d);
    c.write(chunk, size);
    return d.promise;
  }
  w.writeRequests.push(req);
  c.write(chunk, size);
  return undefined;
}

function failWrite(req, e) {
  if (req === undefined) return Promise.reject(e);
  req.reject(e);
  return undefined;
}

function writerLockError(what) { return new TypeError(`Cannot ${what} a stream using a released writer`); }

class WritableStreamDefaultWriter {
  #wr;
  constructor(stream) {
    if (stream === INTERNAL) {
      this.#wr = arguments[1];
    } else {
      const w = writableImpl(stream);
      if (w === undefined) throw new TypeError("WritableStreamDefaultWriter needs a WritableStream");
      this.#wr = acquireWriter(w);
    }
    this.#wr.pub = this;
  }
  get closed() { return this.#wr.closed.promise(); }
  get ready() { return this.#wr.ready.promise(); }
  get desiredSize() {
    const wr = this.#wr;
    if (wr.stream === undefined) throw writerLockError("get the desiredSize of");
    return writerDesiredSize(wr);
  }
  abort(reason) {
    const wr = this.#wr;
    if (wr.stream === undefined) return Promise.reject(writerLockError("abort"));
    return writableAbort(wr.stream, reason);
  }
  close() {
    const wr = this.#wr;
    const w = wr.stream;
    if (w === undefined) return Promise.reject(writerLockError("close"));
    if (closeQueuedOrInFlight(w)) return Promise.reject(new TypeError("Cannot close an already-closing stream"));
    return writableClose(w);
  }
  releaseLock() {
    const wr = this.#wr;
    if (wr.stream !== undefined) releaseWriter(wr);
  }
  write(chunk = undefined) {
    const wr = this.#wr;
    if (wr.stream === undefined) return Promise.reject(writerLockError("write to"));
    return writerWrite(wr, chunk);
  }
}
webidl(WritableStreamDefaultWriter, "WritableStreamDefaultWriter");

// ---- the default controller

class WC {
  constructor(w) {
    this.stream = w;
    qInit(this);
    this.started = false;
    this.size = null;
    this.hwm = 1;
    this.writeAlgo = undefined;
    this.closeAlgo = undefined;
    this.abortAlgo = undefined;
    // prepare, when set, turns a chunk into what is queued or throws to
    // reject the write (internal byte sinks copy and check chunks).
    this.prepare = undefined;
    // The abort signal is made when asked for; abortReason keeps a
    // reason that came first.
    this.signal = undefined;
    this.aborted = false;
    this.abortReason = undefined;
    // onAbort, when set, hears of an abort at once (internal sinks whose
    // writes could otherwise keep the abort waiting).
    this.onAbort = undefined;
    this.pub = undefined;
  }
  signalAbort(reason) {
    if (this.aborted) return;
    this.aborted = true;
    this.abortReason = reason;
    if (this.signal !== undefined) internal.abortSignal(this.signal, reason);
    if (this.onAbort !== undefined) this.onAbort(reason);
  }
  getSignal() {
    if (this.signal === undefined) {
      if (!internal.newAbortSignal) return undefined;
      this.signal = internal.newAbortSignal();
      if (this.aborted) internal.abortSignal(this.signal, this.abortReason);
    }
    return this.signal;
  }
  clearAlgorithms() {
    this.writeAlgo = undefined;
    this.closeAlgo = undefined;
    this.abortAlgo = undefined;
    this.size = null;
  }
  desiredSize() { return this.hwm - this.total; }
  backpressure() { return this.hwm - this.total <= 0; }
  errorSteps() { qReset(this); }
  abortSteps(reason) {
    const algo = this.abortAlgo;
    this.clearAlgorithms();
    if (algo === undefined) return RESOLVED;
    try {
      return thenable(algo(reason));
    } catch (e) {
      return Promise.reject(e);
    }
  }
  chunkSize(chunk) {
    if (this.size === null) return 1;
    try {
      return sizeOf(this.size, chunk);
    } catch (e) {
      this.errorIfNeeded(e);
      return 1;
    }
  }
  errorIfNeeded(e) {
    if (this.stream.state === "writable") this.error(e);
  }
  error(e) {
    this.clearAlgorithms();
    startErroring(this.stream, e);
  }
  write(chunk, size) {
    try {
      qPush(this, chunk, size);
    } catch (e) {
      this.errorIfNeeded(e);
      return;
    }
    const w = this.stream;
    if (!closeQueuedOrInFlight(w) && w.state === "writable") updateBackpressure(w, this.backpressure());
    this.advanceQueueIfNeeded();
  }
  closeQueued() {
    qPush(this, CLOSE, 0);
    this.advanceQueueIfNeeded();
  }
  advanceQueueIfNeeded() {
    const w = this.stream;
    if (!this.started || w.inFlightWrite !== undefined) return;
    if (w.state === "erroring") {
      finishErroring(w);
      return;
    }
    if (qLen(this) === 0) return;
    const v = qPeek(this);
    if (v === CLOSE) this.processClose();
    else this.processWrite(v);
  }
  processClose() {
    const w = this.stream;
    w.inFlightClose = w.closeRequest;
    w.closeRequest = undefined;
    qShift(this);
    const algo = this.closeAlgo;
    this.clearAlgorithms();
    let p;
    try {
      p = algo === undefined ? RESOLVED : thenable(algo());
    } catch (e) {
      p = Promise.reject(e);
    }
    p.then(() => finishInFlightClose(w), (e) => finishInFlightCloseWithError(w, e));
  }
  processWrite(chunk) {
    const w = this.stream;
    w.inFlightWrite = w.writeRequests.shift();
    let p;
    try {
      p = this.writeAlgo(chunk);
    } catch (e) {
      p = Promise.reject(e);
    }
    if (p === PENDING) return;
    thenable(p).then(this.writeDone, this.writeFailed);
  }
}

// The reactions to a sink's write, made once per controller.
function writeReactions(c) {
  const w = c.stream;
  c.writeDone = () => {
    finishInFlightWrite(w);
    qShift(c);
    if (!closeQueuedOrInFlight(w) && w.state === "writable") updateBackpressure(w, c.backpressure());
    c.advanceQueueIfNeeded();
  };
  c.writeFailed = (e) => {
    if (w.state === "writable") c.clearAlgorithms();
    finishInFlightWriteWithError(w, e);
  };
}

class WritableStreamDefaultController {
  #c;
  constructor(token, c) {
    illegal(token);
    this.#c = c;
    c.pub = this;
  }
  get signal() { return this.#c.getSignal(); }
  error(e) {
    const c = this.#c;
    if (c.stream.state !== "writable") return;
    c.error(e);
  }
}
webidl(WritableStreamDefaultController, "WritableStreamDefaultController");

// setUpWritable gives w a controller with the algorithms and starts it.
function setUpWritable(w, startAlgo, writeAlgo, closeAlgo, abortAlgo, hwm, size, cref) {
  const c = new WC(w);
  new WritableStreamDefaultController(INTERNAL, c); // eslint-disable-line no-new
  writeReactions(c);
  w.controller = c;
  c.size = size;
  c.hwm = hwm;
  c.writeAlgo = writeAlgo;
  c.closeAlgo = closeAlgo;
  c.abortAlgo = abortAlgo;
  if (cref !== undefined) cref.c = c;
  updateBackpressure(w, c.backpressure());
  thenable(startAlgo()).then(() => {
    c.started = true;
    c.advanceQueueIfNeeded();
  }, (e) => {
    c.started = true;
    dealWithRejection(w, e);
  });
  return c;
}

// createWritable is the spec's CreateWritableStream.
function createWritable(startAlgo, writeAlgo, closeAlgo, abortAlgo, hwm = 1, size = null) {
  const w = newWS();
  setUpWritable(w, startAlgo, writeAlgo, closeAlgo, abortAlgo, hwm, size);
  return w;
}

let writableImpl;
class WritableStream {
  #w;
  constructor(sink = undefined, strategy = undefined) {
    if (sink === INTERNAL) {
      this.#w = arguments[1];
      this.#w.pub = this;
      return;
    }
    const w = new WS();
    this.#w = w;
    w.pub = this;
    const what = "The underlying sink";
    const d = dict(sink, what);
    const abort = callbackMember(d, "abort", what);
    const close = callbackMember(d, "close", what);
    const start = callbackMember(d, "start", what);
    const type = member(d, "type");
    const write = callbackMember(d, "write", what);
    if (type !== undefined) throw new RangeError(`${what}'s type must be undefined`);
    const st = strategyOf(strategy, 1, "The queuing strategy");
    const cref = {};
    setUpWritable(w,
      start ? () => start.call(sink, cref.c.pub) : returnsUndefined,
      write ? (chunk) => write.call(sink, chunk, cref.c.pub) : returnsUndefined,
      close ? () => close.call(sink) : returnsUndefined,
      abort ? (r) => abort.call(sink, r) : returnsUndefined,
      st.hwm, st.size, cref);
  }
  static { writableImpl = (x) => (x !== null && typeof x === "object" && #w in x) ? x.#w : undefined; }
  get locked() { return isWritableLocked(this.#w); }
  abort(reason) {
    const w = writableImpl(this);
    if (w === undefined) return Promise.reject(new TypeError("WritableStream.prototype.abort called on an object that is not a WritableStream"));
    if (isWritableLocked(w)) return Promise.reject(new TypeError("Cannot abort a stream that already has a writer"));
    return writableAbort(w, reason);
  }
  close() {
    const w = writableImpl(this);
    if (w === undefined) return Promise.reject(new TypeError("WritableStream.prototype.close called on an object that is not a WritableStream"));
    if (isWritableLocked(w)) return Promise.reject(new TypeError("Cannot close a stream that already has a writer"));
    if (closeQueuedOrInFlight(w)) return Promise.reject(new TypeError("Cannot close an already-closing stream"));
    return writableClose(w);
  }
  getWriter() {
    const wr = acquireWriter(this.#w);
    new WritableStreamDefaultWriter(INTERNAL, wr); // eslint-disable-line no-new
    return wr.pub;
  }
}
webidl(WritableStream, "WritableStream");
