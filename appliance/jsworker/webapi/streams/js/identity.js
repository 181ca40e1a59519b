// Cloudflare's IdentityTransformStream and FixedLengthStream: byte pipes
// whose writes settle when reads have taken their bytes (a rendezvous,
// not a queue), with a byte-stream readable side.

// identityPipe makes the pair; expected, when not undefined, is the
// exact number of bytes that must go through.
function identityPipe(hwm, expected) {
  const ts = new TSI();
  let cur; // the write being read: { u8, off, d }
  let waiting; // a pull waiting for a write (Deferred)
  let written = 0;

  function deliver() {
    const rc = ts.readable.controller;
    const b = rc.getBYOBRequest();
    const rest = cur.u8.byteLength - cur.off;
    if (b !== null) {
      const n = Math.min(b.view.byteLength, rest);
      b.view.set(cur.u8.subarray(cur.off, cur.off + n));
      cur.off += n;
      rc.respond(n);
    } else {
      rc.enqueue(cur.off === 0 ? cur.u8 : cur.u8.subarray(cur.off));
      cur.off += rest;
    }
    if (cur.off === cur.u8.byteLength) {
      const d = cur.d;
      cur = undefined;
      d.resolve(undefined);
    }
  }
  function fail(e) {
    if (cur !== undefined) {
      const d = cur.d;
      cur = undefined;
      d.reject(e);
    }
  }
  function write(u8) {
    if (u8.byteLength === 0) return undefined;
    if (expected !== undefined) {
      if (written + u8.byteLength > expected) {
        const e = new TypeError("Attempt to write too many bytes through a FixedLengthStream.");
        ts.readable.controller.error(e);
        throw e;
      }
      written += u8.byteLength;
    }
    const d = new Deferred();
    cur = { u8, off: 0, d };
    if (waiting !== undefined) {
      const w = waiting;
      waiting = undefined;
      deliver();
      w.resolve(undefined);
    }
    return d.promise;
  }
  function close() {
    const rc = ts.readable.controller;
    if (expected !== undefined && written < expected) {
      const e = new TypeError("FixedLengthStream did not see all expected bytes before close().");
      rc.error(e);
      throw e;
    }
    if (ts.readable.state !== "readable") return;
    rc.close();
    if (rc.pending.length > 0) rc.respond(0);
  }
  function pull() {
    if (cur === undefined) {
      waiting = new Deferred();
      return waiting.promise;
    }
    deliver();
    return undefined;
  }

  const size = (chunk) => chunk.byteLength;
  ts.writable = newWS();
  const wc = setUpWritable(ts.writable, returnsUndefined, write, close, (reason) => {
    fail(reason);
    ts.readable.controller.error(reason);
  }, hwm, size);
  wc.prepare = (chunk) => (chunk === undefined ? new Uint8Array(0) : copyU8(chunk, true, "This TransformStream"));
  // An abort does not wait for a write that waits for a reader.
  wc.onAbort = fail;
  ts.readable = newRS();
  ts.readable.length = expected;
  setUpByte(ts.readable, pull, (reason) => {
    fail(reason);
    ts.writable.controller.errorIfNeeded(reason);
  }, 0, undefined).start(returnsUndefined);
  return ts;
}

function identityHWM(strategy, cap) {
  const d = dict(strategy, "The queuing strategy");
  let hwm = member(d, "highWaterMark");
  hwm = hwm === undefined ? 1 : Number(hwm);
  if (Number.isNaN(hwm) || hwm < 0) throw new RangeError("The queuing strategy's highWaterMark must be a non-negative number");
  return cap === undefined ? hwm : Math.min(hwm, cap);
}

class IdentityTransformStream extends TransformStream {
  constructor(strategy = undefined) {
    if (strategy === INTERNAL) {
      super(INTERNAL, arguments[1]);
      return;
    }
    super(INTERNAL, identityPipe(identityHWM(strategy), undefined));
  }
}
webidl(IdentityTransformStream, "IdentityTransformStream");

class FixedLengthStream extends IdentityTransformStream {
  constructor(expectedLength, strategy = undefined) {
    let n = typeof expectedLength === "bigint" ? Number(expectedLength) : Number(expectedLength);
    if (!Number.isFinite(n) || n < 0 || n > Number.MAX_SAFE_INTEGER) {
      throw new TypeError("FixedLengthStream requires an integer expected length less than 2^53.");
    }
    n = Math.trunc(n);
    super(INTERNAL, identityPipe(identityHWM(strategy, n), n));
  }
}
webidl(FixedLengthStream, "FixedLengthStream");
