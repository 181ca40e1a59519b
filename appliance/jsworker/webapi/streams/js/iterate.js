// Async iteration: ReadableStream's values() iterator (Web IDL's async
// iterator with its ongoing-promise queue, written by hand since goja has
// no async generators) and ReadableStream.from.

// IterRead is the read request of one next() call.
class IterRead {
  constructor(it) {
    this.it = it;
    this.promise = new Promise(captureExec);
    this.res = dRes;
    this.rej = dRej;
  }
  chunk(v) {
    this.settle();
    this.res({ value: v, done: false });
  }
  close() {
    const it = this.it;
    this.settle();
    it.finished = true;
    releaseReader(it.reader);
    this.res({ value: undefined, done: true });
  }
  error(e) {
    const it = this.it;
    this.settle();
    it.finished = true;
    releaseReader(it.reader);
    this.rej(e);
  }
  // settle ends the iterator's ongoing operation if it is this read.
  settle() {
    if (this.it.ongoing === this.promise) this.it.ongoing = undefined;
  }
}

class StreamIteratorState {
  constructor(reader, preventCancel) {
    this.reader = reader;
    this.preventCancel = preventCancel;
    this.ongoing = undefined; // the promise of the last next() or return()
    this.finished = false;
  }
  nextSteps() {
    if (this.finished) return Promise.resolve({ value: undefined, done: true });
    const r = this.reader;
    const s = r.stream;
    s.disturbed = true;
    if (s.state === "readable") {
      const v = s.controller.takeQueued();
      if (v !== NONE) return Promise.resolve({ value: v, done: false });
    }
    const req = new IterRead(this);
    if (this.ongoing === undefined) this.ongoing = req.promise;
    readerRead(r, req);
    return req.promise;
  }
  returnSteps(value) {
    if (this.finished) return Promise.resolve({ value, done: true });
    this.finished = true;
    const r = this.reader;
    let p = RESOLVED;
    if (!this.preventCancel) p = readableCancel(r.stream, value);
    releaseReader(r);
    return p;
  }
}

const iterStates = new WeakMap();
const streamIteratorPrototype = {
  next() {
    const it = iterStates.get(this);
    if (it === undefined) return Promise.reject(new TypeError("next() called on an object that is not a ReadableStream iterator"));
    if (it.ongoing !== undefined) {
      // After the operations before it, like Web IDL's ongoing promise.
      const steps = () => it.nextSteps();
      const p = it.ongoing.then(steps, steps);
      it.ongoing = p;
      const clear = () => {
        if (it.ongoing === p) it.ongoing = undefined;
      };
      p.then(clear, clear);
      return p;
    }
    return it.nextSteps();
  },
  return(value) {
    const it = iterStates.get(this);
    if (it === undefined) return Promise.reject(new TypeError("return() called on an object that is not a ReadableStream iterator"));
    const steps = () => it.returnSteps(value);
    let p;
    if (it.ongoing !== undefined) p = it.ongoing.then(steps, steps);
    else p = steps();
    it.ongoing = p;
    return p.then(() => ({ value, done: true }));
  },
  [asyncIteratorSymbol]() { return this; },
};
Object.defineProperty(streamIteratorPrototype, Symbol.toStringTag, { value: "ReadableStream AsyncIterator", configurable: true });
for (const k of ["next", "return"]) Object.defineProperty(streamIteratorPrototype, k, { enumerable: false });

function newStreamIterator(reader, preventCancel) {
  const it = Object.create(streamIteratorPrototype);
  iterStates.set(it, new StreamIteratorState(reader, preventCancel));
  return it;
}

// fromIterable is the spec's ReadableStreamFromIterable.
function fromIterable(iterable) {
  const { iterator, next, sync } = openAsyncIterator(iterable);
  let s;
  function pull() {
    let r;
    try {
      r = next.call(iterator);
    } catch (e) {
      return Promise.reject(e);
    }
    if (sync) {
      if (r === null || typeof r !== "object") return Promise.reject(new TypeError("The iterator's next() must return an object"));
      const done = r.done;
      return Promise.resolve(r.value).then((v) => {
        if (done) s.controller.close();
        else s.controller.enqueue(v);
      });
    }
    return Promise.resolve(r).then((res) => {
      if (res === null || typeof res !== "object") throw new TypeError("The async iterator's next() must return a promise of an object");
      if (res.done) s.controller.close();
      else s.controller.enqueue(res.value);
    });
  }
  function cancel(reason) {
    let ret;
    try {
      ret = iterator.return;
      if (ret === undefined || ret === null) return RESOLVED;
      if (typeof ret !== "function") throw new TypeError("The iterator's return must be a function");
      const r = ret.call(iterator, reason);
      return Promise.resolve(r).then((res) => {
        if (res === null || typeof res !== "object") throw new TypeError("The iterator's return() must return an object");
      });
    } catch (e) {
      return Promise.reject(e);
    }
  }
  s = createReadable(returnsUndefined, pull, cancel, 0);
  return s;
}

// openAsyncIterator is GetIterator(obj, async): an async iterator, or a
// sync one whose values are awaited.
function openAsyncIterator(obj) {
  if (obj === null || obj === undefined) throw new TypeError("ReadableStream.from needs an iterable or async iterable");
  let method = obj[asyncIteratorSymbol];
  let sync = false;
  if (method === undefined || method === null) {
    method = obj[Symbol.iterator];
    sync = true;
  }
  if (typeof method !== "function") throw new TypeError("ReadableStream.from needs an iterable or async iterable");
  const iterator = method.call(obj);
  if (iterator === null || typeof iterator !== "object") throw new TypeError("The iterator must be an object");
  return { iterator, next: iterator.next, sync };
}
