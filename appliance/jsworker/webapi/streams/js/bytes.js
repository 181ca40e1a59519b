// Byte streams: ReadableByteStreamController, ReadableStreamBYOBReader
// and ReadableStreamBYOBRequest. ArrayBuffers are not transferred (see
// the package doc): a chunk is queued as the Uint8Array it was enqueued
// as, and a BYOB read fills the reader's own buffer.

class RBC extends RController {
  constructor(s) {
    super(s);
    this.q = []; // Uint8Arrays, from index qh on
    this.qh = 0;
    this.total = 0;
    this.pending = []; // pull-into descriptors
    this.byobRequest = null; // RBYOBRequest
    this.autoAllocate = undefined;
  }
  get isByte() { return true; }
  canCloseOrEnqueue() { return !this.closeRequested && this.stream.state === "readable"; }
  hasBackpressure() { return !this.shouldCallPull(); }

  // ---- the queue of Uint8Arrays
  enqueueChunk(u8) {
    this.q.push(u8);
    this.total += u8.byteLength;
  }
  enqueueClonedChunk(buffer, byteOffset, byteLength) {
    let clone;
    try {
      clone = new Uint8Array(buffer.slice(byteOffset, byteOffset + byteLength));
    } catch (e) {
      this.error(e);
      throw e;
    }
    this.enqueueChunk(clone);
  }
  headChunk() { return this.q[this.qh]; }
  shiftChunk() {
    const h = this.qh;
    const v = this.q[h];
    this.q[h] = undefined;
    this.qh = h + 1;
    if (this.qh === this.q.length) {
      this.q.length = 0;
      this.qh = 0;
    } else if (this.qh >= 64 && this.qh * 2 >= this.q.length) {
      this.q = this.q.slice(this.qh);
      this.qh = 0;
    }
    this.total -= v.byteLength;
    return v;
  }
  resetQueue() {
    this.q = [];
    this.qh = 0;
    this.total = 0;
  }

  shouldCallPull() {
    const s = this.stream;
    if (s.state !== "readable" || this.closeRequested || !this.started) return false;
    if (numReadRequests(s) > 0) return true;
    return this.hwm - this.total > 0;
  }
  desiredSize() {
    const st = this.stream.state;
    if (st === "errored") return null;
    if (st === "closed") return 0;
    return this.hwm - this.total;
  }
  invalidateBYOBRequest() {
    const b = this.byobRequest;
    if (b === null) return;
    b.controller = undefined;
    b.view = null;
    this.byobRequest = null;
  }
  clearPendingPullIntos() {
    this.invalidateBYOBRequest();
    this.pending = [];
  }
  close() {
    const s = this.stream;
    if (this.closeRequested || s.state !== "readable") return;
    if (this.total > 0) {
      this.closeRequested = true;
      return;
    }
    if (this.pending.length > 0) {
      const first = this.pending[0];
      if (first.bytesFilled % first.elementSize !== 0) {
        const e = new TypeError("Insufficient bytes to fill elements in the given buffer");
        this.error(e);
        throw e;
      }
    }
    this.clearAlgorithms();
    readableClose(s);
  }
  enqueue(chunk) {
    const s = this.stream;
    if (this.closeRequested || s.state !== "readable") return;
    const u8 = chunk instanceof Uint8Array ? chunk : new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    if (this.pending.length > 0) {
      const first = this.pending[0];
      this.invalidateBYOBRequest();
      if (first.readerType === "none") this.enqueueDetachedPullIntoToQueue(first);
    }
    const r = s.reader;
    if (r !== undefined && !r.byob) {
      this.processReadRequestsUsingQueue();
      if (r.requests.length === 0) {
        this.enqueueChunk(u8);
      } else {
        if (this.pending.length > 0) this.pending.shift();
        fulfillReadRequest(s, u8, false);
      }
    } else if (r !== undefined) {
      this.enqueueChunk(u8);
      this.commitAll(this.processPullIntoDescriptorsUsingQueue());
    } else {
      this.enqueueChunk(u8);
    }
    this.callPullIfNeeded();
  }
  enqueueDetachedPullIntoToQueue(d) {
    if (d.bytesFilled > 0) this.enqueueClonedChunk(d.buffer, d.byteOffset, d.bytesFilled);
    this.pending.shift();
  }
  error(e) {
    if (this.stream.state !== "readable") return;
    this.clearPendingPullIntos();
    this.resetQueue();
    this.clearAlgorithms();
    readableError(this.stream, e);
  }
  // fillPullIntoFromQueue copies queued bytes into d and reports whether
  // d is filled to its minimum.
  fillPullIntoFromQueue(d) {
    const maxBytesToCopy = Math.min(this.total, d.byteLength - d.bytesFilled);
    const maxBytesFilled = d.bytesFilled + maxBytesToCopy;
    let remaining = maxBytesToCopy;
    let ready = false;
    const maxAligned = maxBytesFilled - (maxBytesFilled % d.elementSize);
    if (maxAligned >= d.minimumFill) {
      remaining = maxAligned - d.bytesFilled;
      ready = true;
    }
    while (remaining > 0) {
      const head = this.headChunk();
      const n = Math.min(remaining, head.byteLength);
      new Uint8Array(d.buffer, d.byteOffset + d.bytesFilled, n).set(n === head.byteLength ? head : head.subarray(0, n));
      if (n === head.byteLength) {
        this.shiftChunk();
      } else {
        this.q[this.qh] = head.subarray(n);
        this.total -= n;
      }
      d.bytesFilled += n;
      remaining -= n;
    }
    return ready;
  }
  handleQueueDrain() {
    if (this.total === 0 && this.closeRequested) {
      this.clearAlgorithms();
      readableClose(this.stream);
    } else {
      this.callPullIfNeeded();
    }
  }
  processPullIntoDescriptorsUsingQueue() {
    const filled = [];
    while (this.pending.length > 0 && this.total > 0) {
      const d = this.pending[0];
      if (this.fillPullIntoFromQueue(d)) {
        this.pending.shift();
        filled.push(d);
      }
    }
    return filled;
  }
  processReadRequestsUsingQueue() {
    const r = this.stream.reader;
    while (r.requests.length > 0 && this.total > 0) {
      const req = r.requests.shift();
      req.chunk(this.takeQueued());
    }
  }
  commitAll(filled) {
    for (let k = 0; k < filled.length; k++) commitPullInto(this.stream, filled[k]);
  }
  takeQueued() {
    if (this.total === 0) return NONE;
    const v = this.shiftChunk();
    this.handleQueueDrain();
    return v;
  }
  pullSteps(req) {
    if (this.total > 0) {
      req.chunk(this.takeQueued());
      return;
    }
    const n = this.autoAllocate;
    if (n !== undefined) {
      let buffer;
      try {
        buffer = new ArrayBuffer(n);
      } catch (e) {
        req.error(e);
        return;
      }
      this.pending.push(pullInto(buffer, 0, n, 1, 1, Uint8Array, "default"));
    }
    this.stream.reader.requests.push(req);
    this.callPullIfNeeded();
  }
  releaseSteps() {
    if (this.pending.length > 0) {
      const first = this.pending[0];
      first.readerType = "none";
      this.pending = [first];
    }
  }
  cancelSteps(reason) {
    this.clearPendingPullIntos();
    return super.cancelSteps(reason);
  }
  getBYOBRequest() {
    if (this.byobRequest === null && this.pending.length > 0) {
      const d = this.pending[0];
      const view = new Uint8Array(d.buffer, d.byteOffset + d.bytesFilled, d.byteLength - d.bytesFilled);
      this.byobRequest = new RBYOBRequest(this, view);
    }
    return this.byobRequest;
  }
  pullInto(view, min, req) {
    const s = this.stream;
    let ctor = DataView;
    let elementSize = 1;
    if (!(view instanceof DataView)) {
      ctor = view.constructor;
      elementSize = ctor.BYTES_PER_ELEMENT;
    }
    const d = pullInto(view.buffer, view.byteOffset, view.byteLength, min * elementSize, elementSize, ctor, "byob");
    if (this.pending.length > 0) {
      this.pending.push(d);
      s.reader.requests.push(req);
      return;
    }
    if (s.state === "closed") {
      req.close(new ctor(d.buffer, d.byteOffset, 0));
      return;
    }
    if (this.total > 0) {
      if (this.fillPullIntoFromQueue(d)) {
        const filled = convertPullInto(d);
        this.handleQueueDrain();
        req.chunk(filled);
        return;
      }
      if (this.closeRequested) {
        const e = new TypeError("Insufficient bytes to fill elements in the given buffer");
        this.error(e);
        req.error(e);
        return;
      }
    }
    this.pending.push(d);
    s.reader.requests.push(req);
    this.callPullIfNeeded();
  }
  respond(bytesWritten) {
    const first = this.pending[0];
    if (this.stream.state === "closed") {
      if (bytesWritten !== 0) throw new TypeError("bytesWritten must be 0 when calling respond() on a closed stream");
    } else {
      if (bytesWritten === 0) throw new TypeError("bytesWritten must be greater than 0 when calling respond() on a readable stream");
      if (first.bytesFilled + bytesWritten > first.byteLength) throw new RangeError("bytesWritten out of range");
    }
    this.respondInternal(bytesWritten);
  }
  respondWithNewView(view) {
    const first = this.pending[0];
    if (this.stream.state === "closed") {
      if (view.byteLength !== 0) throw new TypeError("The view's length must be 0 when calling respondWithNewView() on a closed stream");
    } else if (view.byteLength === 0) {
      throw new TypeError("The view's length must be greater than 0 when calling respondWithNewView() on a readable stream");
    }
    if (first.byteOffset + first.bytesFilled !== view.byteOffset) throw new RangeError("The region specified by view does not match byobRequest");
    if (first.bufferByteLength !== view.buffer.byteLength) throw new RangeError("The buffer of view has different capacity than byobRequest");
    if (first.bytesFilled + view.byteLength > first.byteLength) throw new RangeError("The region specified by view is larger than byobRequest");
    first.buffer = view.buffer;
    this.respondInternal(view.byteLength);
  }
  respondInternal(bytesWritten) {
    const first = this.pending[0];
    this.invalidateBYOBRequest();
    if (this.stream.state === "closed") this.respondInClosedState(first);
    else this.respondInReadableState(bytesWritten, first);
    this.callPullIfNeeded();
  }
  respondInClosedState(first) {
    if (first.readerType === "none") this.pending.shift();
    const s = this.stream;
    const r = s.reader;
    if (r !== undefined && r.byob) {
      const filled = [];
      const n = r.requests.length;
      while (filled.length < n) filled.push(this.pending.shift());
      this.commitAll(filled);
    }
  }
  respondInReadableState(bytesWritten, d) {
    d.bytesFilled += bytesWritten;
    if (d.readerType === "none") {
      this.enqueueDetachedPullIntoToQueue(d);
      this.commitAll(this.processPullIntoDescriptorsUsingQueue());
      return;
    }
    if (d.bytesFilled < d.minimumFill) return;
    this.pending.shift();
    const rem = d.bytesFilled % d.elementSize;
    if (rem > 0) {
      const end = d.byteOffset + d.bytesFilled;
      this.enqueueClonedChunk(d.buffer, end - rem, rem);
    }
    d.bytesFilled -= rem;
    const filled = this.processPullIntoDescriptorsUsingQueue();
    commitPullInto(this.stream, d);
    this.commitAll(filled);
  }
}

function pullInto(buffer, byteOffset, byteLength, minimumFill, elementSize, ctor, readerType) {
  return {
    buffer, bufferByteLength: buffer.byteLength, byteOffset, byteLength,
    bytesFilled: 0, minimumFill, elementSize, ctor, readerType,
  };
}

function convertPullInto(d) {
  return new d.ctor(d.buffer, d.byteOffset, d.bytesFilled / d.elementSize);
}

function commitPullInto(s, d) {
  const done = s.state === "closed";
  const view = convertPullInto(d);
  const req = s.reader.requests.shift();
  if (d.readerType === "default") {
    if (done) req.close();
    else req.chunk(view);
  } else if (done) {
    req.close(view);
  } else {
    req.chunk(view);
  }
}

class ReadableByteStreamController {
  #c;
  constructor(token, c) {
    illegal(token);
    this.#c = c;
    c.pub = this;
  }
  get byobRequest() {
    const b = this.#c.getBYOBRequest();
    return b === null ? null : b.pub;
  }
  get desiredSize() { return this.#c.desiredSize(); }
  close() {
    const c = this.#c;
    if (c.closeRequested) throw new TypeError("The stream has already been closed; do not close it again!");
    const st = c.stream.state;
    if (st !== "readable") throw new TypeError(`The stream (in ${st} state) is not in the readable state and cannot be closed`);
    c.close();
  }
  enqueue(chunk) {
    const c = this.#c;
    if (!isView(chunk)) throw new TypeError("A byte stream's chunk must be an ArrayBufferView");
    if (chunk.byteLength === 0) throw new TypeError("chunk must have non-zero byteLength");
    if (chunk.buffer.byteLength === 0) throw new TypeError("chunk's buffer must have non-zero byteLength");
    if (c.closeRequested) throw new TypeError("The stream is closed or draining");
    const st = c.stream.state;
    if (st !== "readable") throw new TypeError(`The stream (in ${st} state) is not in the readable state and cannot be enqueued to`);
    c.enqueue(chunk);
  }
  error(e) { this.#c.error(e); }
}
webidl(ReadableByteStreamController, "ReadableByteStreamController");

class RBYOBRequest {
  constructor(c, view) {
    this.controller = c;
    this.view = view;
    this.pub = new ReadableStreamBYOBRequest(INTERNAL, this);
  }
}

class ReadableStreamBYOBRequest {
  #b;
  constructor(token, b) {
    illegal(token);
    this.#b = b;
  }
  get view() { return this.#b.view; }
  respond(bytesWritten) {
    const b = this.#b;
    const n = enforceRange(bytesWritten, "bytesWritten");
    if (b.controller === undefined) throw new TypeError("This BYOB request has been invalidated");
    b.controller.respond(n);
  }
  respondWithNewView(view) {
    const b = this.#b;
    if (!isView(view)) throw new TypeError("respondWithNewView needs an ArrayBufferView");
    if (b.controller === undefined) throw new TypeError("This BYOB request has been invalidated");
    b.controller.respondWithNewView(view);
  }
}
webidl(ReadableStreamBYOBRequest, "ReadableStreamBYOBRequest");

// setUpByte gives s a byte controller with the algorithms; the caller
// starts it.
function setUpByte(s, pullAlgo, cancelAlgo, hwm, autoAllocate) {
  const c = new RBC(s);
  new ReadableByteStreamController(INTERNAL, c); // eslint-disable-line no-new
  c.hwm = hwm;
  c.pullAlgo = pullAlgo;
  c.cancelAlgo = cancelAlgo;
  c.autoAllocate = autoAllocate;
  s.controller = c;
  return c;
}

// createByteReadable is the spec's CreateReadableByteStream.
function createByteReadable(startAlgo, pullAlgo, cancelAlgo) {
  const s = newRS();
  setUpByte(s, pullAlgo, cancelAlgo, 0, undefined).start(startAlgo);
  return s;
}

function byobRead(r, view, min, req) {
  const s = r.stream;
  s.disturbed = true;
  if (s.state === "errored") req.error(s.storedError);
  else s.controller.pullInto(view, min, req);
}

class ReadableStreamBYOBReader {
  #r;
  constructor(stream) {
    if (stream === INTERNAL) {
      this.#r = arguments[1];
    } else {
      const s = streamImpl(stream);
      if (s === undefined) throw new TypeError("ReadableStreamBYOBReader needs a ReadableStream");
      this.#r = acquireReader(s, true);
    }
    this.#r.pub = this;
  }
  get closed() { return this.#r.closed.promise(); }
  read(view, options = undefined) {
    const r = this.#r;
    let min;
    try {
      if (!isView(view)) throw new TypeError("read() needs an ArrayBufferView to read into");
      if (view.byteLength === 0) throw new TypeError("view must have non-zero byteLength");
      if (view.buffer.byteLength === 0) throw new TypeError("view's buffer must have non-zero byteLength");
      const m = member(dict(options, "read's options"), "min");
      min = m === undefined ? 1 : enforceRange(m, "options.min");
      if (min === 0) throw new TypeError("options.min must be greater than 0");
      if (!(view instanceof DataView)) {
        if (min > view.length) throw new RangeError("options.min must be less than or equal to view's length");
      } else if (min > view.byteLength) {
        throw new RangeError("options.min must be less than or equal to view's byteLength");
      }
      if (r.stream === undefined) throw readerLockError("read from");
    } catch (e) {
      return Promise.reject(e);
    }
    const req = new PromiseRead();
    byobRead(r, view, min, req);
    return req.promise;
  }
  // readAtLeast is Cloudflare's: a read that fills at least minBytes of
  // view (or ends at the end of the stream).
  readAtLeast(minBytes, view) {
    let min;
    try {
      const n = enforceRange(minBytes, "minBytes");
      const size = isView(view) && !(view instanceof DataView) ? view.BYTES_PER_ELEMENT : 1;
      min = Math.max(1, Math.ceil(n / size));
    } catch (e) {
      return Promise.reject(e);
    }
    return this.read(view, { min });
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
webidl(ReadableStreamBYOBReader, "ReadableStreamBYOBReader");

function newBYOBReader(r) {
  new ReadableStreamBYOBReader(INTERNAL, r); // eslint-disable-line no-new
  return r.pub;
}
