// ReadableStream: the stream, its readers and its default controller.
// The public classes wrap internal records (RS, RReader, RDC) whose
// plain properties the spec's abstract operations below work on.

class RS {
  constructor() {
    this.state = "readable"; // "readable", "closed" or "errored"
    this.reader = undefined;
    this.storedError = undefined;
    this.disturbed = false;
    this.controller = undefined;
    this.pub = undefined;
    this.length = undefined; // the body length in bytes, when known
  }
}

function newRS() {
  const s = new RS();
  new ReadableStream(INTERNAL, s); // eslint-disable-line no-new
  return s;
}

function isLocked(s) { return s.reader !== undefined; }

function readableCancel(s, reason) {
  s.disturbed = true;
  if (s.state === "closed") return Promise.resolve();
  if (s.state === "errored") return Promise.reject(s.storedError);
  readableClose(s);
  const r = s.reader;
  if (r !== undefined && r.byob) {
    const reqs = r.requests;
    r.requests = [];
    for (let k = 0; k < reqs.length; k++) reqs[k].close(undefined);
  }
  return s.controller.cancelSteps(reason).then(noop);
}

function readableClose(s) {
  s.state = "closed";
  const r = s.reader;
  if (r === undefined) return;
  r.closed.resolve(undefined);
  if (!r.byob && r.requests.length > 0) {
    const reqs = r.requests;
    r.requests = [];
    for (let k = 0; k < reqs.length; k++) reqs[k].close();
  }
}

function readableError(s, e) {
  s.state = "errored";
  s.storedError = e;
  const r = s.reader;
  if (r === undefined) return;
  r.closed.reject(e);
  errorRequests(r, e);
}

function errorRequests(r, e) {
  const reqs = r.requests;
  if (reqs.length === 0) return;
  r.requests = [];
  for (let k = 0; k < reqs.length; k++) reqs[k].error(e);
}

function fulfillReadRequest(s, chunk, done) {
  const req = s.reader.requests.shift();
  if (done) req.close();
  else req.chunk(chunk);
}

function numReadRequests(s) {
  const r = s.reader;
  return r === undefined ? 0 : r.requests.length;
}

// ---- readers

class RReader {
  constructor(byob) {
    this.byob = byob;
    this.stream = undefined;
    this.requests = [];
    this.closed = undefined; // Settled
    this.pub = undefined;
  }
}

function acquireReader(s, byob) {
  if (isLocked(s)) throw new TypeError("This stream has already been locked for exclusive reading by another reader");
  if (byob && !s.controller.isByte) throw new TypeError("Cannot get a BYOB reader for a stream that is not a byte stream (type: \"bytes\")");
  const r = new RReader(byob);
  r.stream = s;
  s.reader = r;
  if (s.state === "readable") r.closed = new Settled();
  else if (s.state === "closed") r.closed = Settled.fulfilled(undefined);
  else r.closed = Settled.rejected(s.storedError);
  return r;
}

function releaseReader(r) {
  const s = r.stream;
  const e = new TypeError("Reader was released and can no longer be used to monitor the stream's closedness");
  r.closed.ensureRejected(e);
  s.controller.releaseSteps();
  s.reader = undefined;
  r.stream = undefined;
  errorRequests(r, new TypeError("Reader was released"));
}

function readerRead(r, req) {
  const s = r.stream;
  s.disturbed = true;
  if (s.state === "closed") req.close();
  else if (s.state === "errored") req.error(s.storedError);
  else s.controller.pullSteps(req);
}

// PromiseRead is a read request that settles a read() promise.
class PromiseRead {
  constructor() {
    this.promise = new Promise(captureExec);
    this.res = dRes;
    this.rej = dRej;
  }
  chunk(v) { this.res({ value: v, done: false }); }
  close(v) { this.res({ value: v, done: true }); }
  error(e) { this.rej(e); }
}

function readerLockError(what) { return new TypeError(`Cannot ${what} a stream using a released reader`); }

class ReadableStreamDefaultReader {
  #r;
  constructor(stream) {
    if (stream === INTERNAL) {
      this.#r = arguments[1];
    } else {
      const s = streamImpl(stream);
      if (s === undefined) throw new TypeError("ReadableStreamDefaultReader needs a ReadableStream");
      this.#r = acquireReader(s, false);
    }
    this.#r.pub = this;
  }
  get closed() {
    const r = this.#r;
    return r.closed.promise();
  }
  read() {
    const r = this.#r;
    const s = r.stream;
    if (s === undefined) return Promise.reject(readerLockError("read from"));
    s.disturbed = true;
    if (s.state === "readable") {
      const v = s.controller.takeQueued();
      if (v !== NONE) return Promise.resolve({ value: v, done: false });
      const req = new PromiseRead();
      s.controller.pullSteps(req);
      return req.promise;
    }
    if (s.state === "closed") return Promise.resolve({ value: undefined, done: true });
    return Promise.reject(s.storedError);
  }
  cancel(reason) {
    const r = this.#r;
    if (r.stream === undefined) return Promise.reject(readerLockError("cancel"));
    return readableCancel(r.stream, reason);
  }
  releaseLock() {
    const r = this.#r;
    if (r.stream !== undefined) releaseReader(r);
  }
}
webidl(ReadableStreamDefaultReader, "ReadableStreamDefaultReader");

function newDefaultReader(r) {
  new ReadableStreamDefaultReader(INTERNAL, r); // eslint-disable-line no-new
  return r.pub;
}

// ---- controllers: what default and byte controllers share.

class RController {
  constructor(s) {
    this.stream = s;
    this.started = false;
    this.closeRequested = false;
    this.pulling = false;
    this.pullAgain = false;
    this.hwm = 0;
    this.pullAlgo = undefined;
    this.cancelAlgo = undefined;
    // onPull, when set, receives the value the pull promise fulfilled
    // with before the pull counts as done (internal sources that return
    // their chunk from pull: one promise reaction per chunk).
    this.onPull = undefined;
    this.pub = undefined;
    const c = this;
    this.pullDone = (v) => {
      if (c.onPull !== undefined && c.stream.state === "readable") {
        try {
          c.onPull(v);
        } catch (e) {
          c.error(e);
        }
      }
      c.pulling = false;
      if (c.pullAgain) {
        c.pullAgain = false;
        c.callPullIfNeeded();
      }
    };
    this.pullFailed = (e) => c.error(e);
  }
  // callPullIfNeeded pulls if the stream wants chunks. A pull that
  // returns undefined (a source that enqueued at once, or will later) is
  // done at once rather than a microtask later: the pulls are the same,
  // one reaction per chunk fewer.
  callPullIfNeeded() {
    if (!this.shouldCallPull()) return;
    if (this.pulling) {
      this.pullAgain = true;
      return;
    }
    this.pulling = true;
    for (;;) {
      let r;
      try {
        r = this.pullAlgo();
      } catch (e) {
        Promise.reject(e).then(this.pullDone, this.pullFailed);
        return;
      }
      if (r === PENDING) return;
      if (r !== undefined) {
        Promise.resolve(r).then(this.pullDone, this.pullFailed);
        return;
      }
      this.pulling = false;
      if (!this.pullAgain) return;
      this.pullAgain = false;
      if (!this.shouldCallPull()) return;
      this.pulling = true;
    }
  }
  // start runs the start algorithm (a throw propagates to the caller, as
  // from the constructor) and pulls once it settles.
  start(startAlgo) {
    const c = this;
    thenable(startAlgo()).then(() => {
      c.started = true;
      c.callPullIfNeeded();
    }, (e) => c.error(e));
  }
  cancelSteps(reason) {
    this.resetQueue();
    const algo = this.cancelAlgo;
    this.clearAlgorithms();
    if (algo === undefined) return RESOLVED;
    try {
      return thenable(algo(reason));
    } catch (e) {
      return Promise.reject(e);
    }
  }
  clearAlgorithms() {
    this.pullAlgo = undefined;
    this.cancelAlgo = undefined;
    this.onPull = undefined;
  }
}

// ---- the default controller

class RDC extends RController {
  constructor(s) {
    super(s);
    qInit(this);
    this.size = null;
    this.hwm = 1;
  }
  get isByte() { return false; }
  canCloseOrEnqueue() { return !this.closeRequested && this.stream.state === "readable"; }
  shouldCallPull() {
    if (!this.canCloseOrEnqueue() || !this.started) return false;
    if (numReadRequests(this.stream) > 0) return true;
    return this.hwm - this.total > 0;
  }
  desiredSize() {
    const st = this.stream.state;
    if (st === "errored") return null;
    if (st === "closed") return 0;
    return this.hwm - this.total;
  }
  hasBackpressure() { return !this.shouldCallPull(); }
  close() {
    if (!this.canCloseOrEnqueue()) return;
    this.closeRequested = true;
    if (qLen(this) === 0) {
      this.clearAlgorithms();
      readableClose(this.stream);
    }
  }
  enqueue(chunk) {
    if (!this.canCloseOrEnqueue()) return;
    const s = this.stream;
    if (numReadRequests(s) > 0) {
      fulfillReadRequest(s, chunk, false);
    } else {
      let size = 1;
      try {
        if (this.size !== null) size = sizeOf(this.size, chunk);
        qPush(this, chunk, size);
      } catch (e) {
        this.error(e);
        throw e;
      }
    }
    this.callPullIfNeeded();
  }
  error(e) {
    if (this.stream.state !== "readable") return;
    qReset(this);
    this.clearAlgorithms();
    readableError(this.stream, e);
  }
  clearAlgorithms() {
    super.clearAlgorithms();
    this.size = null;
  }
  resetQueue() { qReset(this); }
  // takeQueued dequeues a chunk if one is queued (the pull steps with
  // the chunk returned instead of handed to a request), else NONE.
  takeQueued() {
    if (qLen(this) === 0) return NONE;
    const v = qShift(this);
    if (this.closeRequested && qLen(this) === 0) {
      this.clearAlgorithms();
      readableClose(this.stream);
    } else {
      this.callPullIfNeeded();
    }
    return v;
  }
  pullSteps(req) {
    const v = this.takeQueued();
    if (v !== NONE) {
      req.chunk(v);
      return;
    }
    this.stream.reader.requests.push(req);
    this.callPullIfNeeded();
  }
  releaseSteps() {}
}

class ReadableStreamDefaultController {
  #c;
  constructor(token, c) {
    illegal(token);
    this.#c = c;
    c.pub = this;
  }
  get desiredSize() { return this.#c.desiredSize(); }
  close() {
    const c = this.#c;
    if (!c.canCloseOrEnqueue()) throw new TypeError("The stream is not in a state that permits close");
    c.close();
  }
  enqueue(chunk) {
    const c = this.#c;
    if (!c.canCloseOrEnqueue()) throw new TypeError("The stream is not in a state that permits enqueue");
    c.enqueue(chunk);
  }
  error(e) { this.#c.error(e); }
}
webidl(ReadableStreamDefaultController, "ReadableStreamDefaultController");

// setUpDefault gives s a default controller with the algorithms; the
// caller starts it (c.start) once its algorithms can reach c.pub.
function setUpDefault(s, pullAlgo, cancelAlgo, hwm, size) {
  const c = new RDC(s);
  new ReadableStreamDefaultController(INTERNAL, c); // eslint-disable-line no-new
  c.hwm = hwm;
  c.size = size;
  c.pullAlgo = pullAlgo;
  c.cancelAlgo = cancelAlgo;
  s.controller = c;
  return c;
}

// createReadable is the spec's CreateReadableStream.
function createReadable(startAlgo, pullAlgo, cancelAlgo, hwm = 1, size = null) {
  const s = newRS();
  setUpDefault(s, pullAlgo, cancelAlgo, hwm, size).start(startAlgo);
  return s;
}

function returnsUndefined() { return undefined; }
