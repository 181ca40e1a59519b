// tee: the spec's ReadableStreamDefaultTee and ReadableByteStreamTee.

function tee(s) {
  return s.controller.isByte ? byteTee(s) : defaultTee(s);
}

// teeCancel holds what both tees do when their branches are canceled:
// the source is canceled with both reasons once both branches are.
class TeeCancel {
  constructor(s) {
    this.s = s;
    this.canceled1 = false;
    this.canceled2 = false;
    this.reason1 = undefined;
    this.reason2 = undefined;
    this.d = new Deferred();
    this.settled = false;
  }
  resolve(v) {
    if (this.settled) return;
    this.settled = true;
    this.d.resolve(v);
  }
  cancel(second, reason) {
    if (second) {
      this.canceled2 = true;
      this.reason2 = reason;
    } else {
      this.canceled1 = true;
      this.reason1 = reason;
    }
    if (this.canceled1 && this.canceled2) this.resolve(readableCancel(this.s, [this.reason1, this.reason2]));
    return this.d.promise;
  }
}

function defaultTee(s) {
  const reader = acquireReader(s, false);
  let reading = false;
  let readAgain = false;
  const tc = new TeeCancel(s);
  let branch1, branch2;
  const req = {
    chunk(chunk) {
      // A microtask later, so that an error of the source reaches both
      // branches before a chunk read at the same time does.
      queueMicrotask(() => {
        readAgain = false;
        if (!tc.canceled1) branch1.controller.enqueue(chunk);
        if (!tc.canceled2) branch2.controller.enqueue(chunk);
        reading = false;
        if (readAgain) pull();
      });
    },
    close() {
      reading = false;
      if (!tc.canceled1) branch1.controller.close();
      if (!tc.canceled2) branch2.controller.close();
      if (!tc.canceled1 || !tc.canceled2) tc.resolve(undefined);
    },
    error() { reading = false; },
  };
  function pull() {
    if (reading) {
      readAgain = true;
      return RESOLVED;
    }
    reading = true;
    readerRead(reader, req);
    return RESOLVED;
  }
  branch1 = createReadable(returnsUndefined, pull, (r) => tc.cancel(false, r));
  branch2 = createReadable(returnsUndefined, pull, (r) => tc.cancel(true, r));
  reader.closed.promise().then(undefined, (r) => {
    branch1.controller.error(r);
    branch2.controller.error(r);
    if (!tc.canceled1 || !tc.canceled2) tc.resolve(undefined);
  });
  return [branch1, branch2];
}

function byteTee(s) {
  let reader = acquireReader(s, false);
  let readAgain1 = false;
  let readAgain2 = false;
  let reading = false;
  const tc = new TeeCancel(s);
  let branch1, branch2;

  function forwardReaderError(r) {
    r.closed.promise().then(undefined, (e) => {
      if (r !== reader) return;
      branch1.controller.error(e);
      branch2.controller.error(e);
      if (!tc.canceled1 || !tc.canceled2) tc.resolve(undefined);
    });
  }

  function failBoth(e) {
    branch1.controller.error(e);
    branch2.controller.error(e);
    tc.resolve(readableCancel(s, e));
  }

  function pullAgain() {
    reading = false;
    if (readAgain1) pull1();
    else if (readAgain2) pull2();
  }

  function pullWithDefaultReader() {
    if (reader.byob) {
      releaseReader(reader);
      reader = acquireReader(s, false);
      forwardReaderError(reader);
    }
    readerRead(reader, {
      chunk(chunk) {
        queueMicrotask(() => {
          readAgain1 = false;
          readAgain2 = false;
          let chunk2 = chunk;
          if (!tc.canceled1 && !tc.canceled2) {
            try {
              chunk2 = chunk.slice();
            } catch (e) {
              failBoth(e);
              return;
            }
          }
          if (!tc.canceled1) branch1.controller.enqueue(chunk);
          if (!tc.canceled2) branch2.controller.enqueue(chunk2);
          pullAgain();
        });
      },
      close() {
        reading = false;
        if (!tc.canceled1) branch1.controller.close();
        if (!tc.canceled2) branch2.controller.close();
        if (branch1.controller.pending.length > 0) branch1.controller.respond(0);
        if (branch2.controller.pending.length > 0) branch2.controller.respond(0);
        if (!tc.canceled1 || !tc.canceled2) tc.resolve(undefined);
      },
      error() { reading = false; },
    });
  }

  function pullWithBYOBReader(view, forBranch2) {
    if (!reader.byob) {
      releaseReader(reader);
      reader = acquireReader(s, true);
      forwardReaderError(reader);
    }
    const byobBranch = forBranch2 ? branch2 : branch1;
    const otherBranch = forBranch2 ? branch1 : branch2;
    byobRead(reader, view, 1, {
      chunk(chunk) {
        queueMicrotask(() => {
          readAgain1 = false;
          readAgain2 = false;
          const byobCanceled = forBranch2 ? tc.canceled2 : tc.canceled1;
          const otherCanceled = forBranch2 ? tc.canceled1 : tc.canceled2;
          if (!otherCanceled) {
            let cloned;
            try {
              cloned = new Uint8Array(chunk.buffer.slice(chunk.byteOffset, chunk.byteOffset + chunk.byteLength));
            } catch (e) {
              failBoth(e);
              return;
            }
            if (!byobCanceled) byobBranch.controller.respondWithNewView(chunk);
            otherBranch.controller.enqueue(cloned);
          } else if (!byobCanceled) {
            byobBranch.controller.respondWithNewView(chunk);
          }
          pullAgain();
        });
      },
      close(chunk) {
        reading = false;
        const byobCanceled = forBranch2 ? tc.canceled2 : tc.canceled1;
        const otherCanceled = forBranch2 ? tc.canceled1 : tc.canceled2;
        if (!byobCanceled) byobBranch.controller.close();
        if (!otherCanceled) otherBranch.controller.close();
        if (chunk !== undefined) {
          if (!byobCanceled) byobBranch.controller.respondWithNewView(chunk);
          if (!otherCanceled && otherBranch.controller.pending.length > 0) otherBranch.controller.respond(0);
        }
        if (!byobCanceled || !otherCanceled) tc.resolve(undefined);
      },
      error() { reading = false; },
    });
  }

  function pullBranch(branch, second) {
    if (reading) {
      if (second) readAgain2 = true;
      else readAgain1 = true;
      return RESOLVED;
    }
    reading = true;
    const b = branch.controller.getBYOBRequest();
    if (b === null) pullWithDefaultReader();
    else pullWithBYOBReader(b.view, second);
    return RESOLVED;
  }
  function pull1() { return pullBranch(branch1, false); }
  function pull2() { return pullBranch(branch2, true); }

  branch1 = createByteReadable(returnsUndefined, pull1, (r) => tc.cancel(false, r));
  branch2 = createByteReadable(returnsUndefined, pull2, (r) => tc.cancel(true, r));
  forwardReaderError(reader);
  return [branch1, branch2];
}
