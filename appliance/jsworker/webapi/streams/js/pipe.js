// pipeTo: the spec's ReadableStreamPipeTo. Chunks move in a loop that
// reads while the destination has no backpressure, without a promise per
// chunk: writes are tracked by request objects, reads by one reusable
// read request.

// PipeWrite is the write request of one piped chunk.
class PipeWrite {
  constructor(pipe) { this.pipe = pipe; }
  resolve() { this.pipe.writeSettled(this); }
  reject() { this.pipe.writeSettled(this); }
}

class Pipe {
  constructor(source, dest, preventClose, preventAbort, preventCancel, signal) {
    this.source = source;
    this.dest = dest;
    this.preventClose = preventClose;
    this.preventAbort = preventAbort;
    this.preventCancel = preventCancel;
    this.signal = signal;
    this.reader = acquireReader(source, false);
    this.writer = acquireWriter(dest);
    this.shuttingDown = false;
    this.reading = false;
    this.inRead = false;
    this.readsDone = false; // the source closed or errored
    this.lastWrite = undefined;
    this.afterWrites = undefined;
    this.done = new Deferred();
    this.abortAlgorithm = undefined;
    const pipe = this;
    this.pumpFn = () => pipe.pump();
  }

  start() {
    const { source, dest, signal } = this;
    source.disturbed = true;
    if (signal !== undefined) {
      if (signal.aborted) {
        this.abort();
        return;
      }
      // An abort algorithm of the signal (it runs before the abort
      // event's listeners) when the events extension offers them.
      const algo = () => this.abort();
      if (internal.onAbort) {
        this.abortAlgorithm = internal.onAbort(signal, algo);
      } else {
        signal.addEventListener("abort", algo);
        this.abortAlgorithm = () => signal.removeEventListener("abort", algo);
      }
    }
    // Errors must be propagated forward, closing forward, errors
    // backward, closing backward.
    if (source.state === "errored") this.sourceErrored(source.storedError);
    if (dest.state === "errored") this.destErrored(dest.storedError);
    else this.writer.closed.promise().then(undefined, (e) => this.destErrored(e));
    if (source.state === "closed") this.sourceClosed();
    else if (source.state === "readable") this.reader.closed.promise().then(() => this.sourceClosed(), (e) => this.sourceErrored(e));
    if (closeQueuedOrInFlight(dest) || dest.state === "closed") {
      const destClosed = new TypeError("the destination writable stream closed before all data could be piped to it");
      if (!this.preventCancel) this.shutdownWithAction(() => readableCancel(source, destClosed), true, destClosed);
      else this.shutdown(true, destClosed);
    }
    this.pump();
  }

  abort() {
    const { source, dest, signal } = this;
    const error = signal.reason;
    const actions = [];
    if (!this.preventAbort) actions.push(() => (dest.state === "writable" ? writableAbort(dest, error) : RESOLVED));
    if (!this.preventCancel) actions.push(() => (source.state === "readable" ? readableCancel(source, error) : RESOLVED));
    this.shutdownWithAction(() => Promise.all(actions.map((a) => a())), true, error);
  }

  sourceErrored(e) {
    if (!this.preventAbort) this.shutdownWithAction(() => writableAbort(this.dest, e), true, e);
    else this.shutdown(true, e);
  }

  destErrored(e) {
    if (!this.preventCancel) this.shutdownWithAction(() => readableCancel(this.source, e), true, e);
    else this.shutdown(true, e);
  }

  sourceClosed() {
    if (!this.preventClose) this.shutdownWithAction(() => writerCloseWithErrorPropagation(this.writer));
    else this.shutdown();
  }

  // pump reads and writes chunks while the destination takes them.
  pump() {
    const dest = this.dest;
    while (!this.shuttingDown && !this.reading && !this.readsDone) {
      if (dest.state !== "writable") return;
      if (dest.backpressure) {
        this.writer.onReady = this.pumpFn;
        return;
      }
      this.reading = true;
      this.inRead = true;
      readerRead(this.reader, this);
      this.inRead = false;
    }
  }

  // The read request's steps.
  chunk(c) {
    this.reading = false;
    const w = new PipeWrite(this);
    this.lastWrite = w;
    writerWrite(this.writer, c, w);
    if (!this.inRead) this.pump();
  }
  close() {
    this.reading = false;
    this.readsDone = true;
  }
  error() {
    this.reading = false;
    this.readsDone = true;
  }

  writeSettled(w) {
    if (w !== this.lastWrite) return;
    this.lastWrite = undefined;
    const then = this.afterWrites;
    if (then !== undefined) {
      this.afterWrites = undefined;
      then();
    }
  }

  // waitForWrites runs then once the writes made so far have settled.
  waitForWrites(then) {
    if (this.lastWrite === undefined) RESOLVED.then(then);
    else this.afterWrites = then;
  }

  shutdownWithAction(action, isError, error) {
    if (this.shuttingDown) return;
    this.shuttingDown = true;
    const rest = () => {
      let p;
      try {
        p = thenable(action());
      } catch (e) {
        p = Promise.reject(e);
      }
      p.then(() => this.finalize(isError, error), (e) => this.finalize(true, e));
    };
    if (this.dest.state === "writable" && !closeQueuedOrInFlight(this.dest)) this.waitForWrites(rest);
    else rest();
  }

  shutdown(isError, error) {
    if (this.shuttingDown) return;
    this.shuttingDown = true;
    if (this.dest.state === "writable" && !closeQueuedOrInFlight(this.dest)) this.waitForWrites(() => this.finalize(isError, error));
    else this.finalize(isError, error);
  }

  finalize(isError, error) {
    releaseWriter(this.writer);
    releaseReader(this.reader);
    if (this.abortAlgorithm !== undefined) this.abortAlgorithm();
    if (isError) this.done.reject(error);
    else this.done.resolve(undefined);
  }
}

function pipeTo(source, dest, preventClose, preventAbort, preventCancel, signal) {
  const pipe = new Pipe(source, dest, preventClose, preventAbort, preventCancel, signal);
  pipe.start();
  return pipe.done.promise;
}
