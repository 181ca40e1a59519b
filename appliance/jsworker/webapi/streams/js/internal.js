// What other extensions (fetch above all) use: see the package doc for
// the contracts.

// bodyChunk turns a chunk read from a body stream into a Uint8Array or a
// string, or throws the TypeError of a body whose stream did not return
// bytes.
function bodyChunk(c) {
  if (typeof c === "string") return c;
  const u8 = asU8(c);
  if (u8 === undefined) throw new TypeError("This ReadableStream did not return bytes.");
  return u8;
}

// ChunkReader reads a stream chunk by chunk without a promise for a
// chunk that is already queued.
class ChunkReader {
  constructor(s) {
    this.r = acquireReader(s, false);
    this.inRead = false;
    this.state = 0; // during a read: 0 pending, 1 chunk, 2 end, 3 error
    this.value = undefined;
    this.d = undefined;
  }
  next() {
    const r = this.r;
    if (r.stream === undefined) throw new TypeError("The chunk reader was released");
    this.state = 0;
    this.inRead = true;
    readerRead(r, this);
    this.inRead = false;
    const v = this.value;
    this.value = undefined;
    switch (this.state) {
      case 1: return v;
      case 2: return null;
      case 3: throw v;
    }
    this.d = new Deferred();
    return this.d.promise;
  }
  chunk(c) {
    let v;
    try {
      v = bodyChunk(c);
    } catch (e) {
      markHandled(readableCancel(this.r.stream, e));
      this.error(e);
      return;
    }
    if (this.inRead) {
      this.state = 1;
      this.value = v;
    } else {
      const d = this.d;
      this.d = undefined;
      d.resolve(v);
    }
  }
  close() {
    if (this.inRead) {
      this.state = 2;
    } else {
      const d = this.d;
      this.d = undefined;
      d.resolve(null);
    }
  }
  error(e) {
    if (this.inRead) {
      this.state = 3;
      this.value = e;
    } else {
      const d = this.d;
      this.d = undefined;
      d.reject(e);
    }
  }
  cancel(reason) {
    const s = this.r.stream;
    if (s === undefined) return RESOLVED;
    const p = readableCancel(s, reason);
    releaseReader(this.r);
    return p;
  }
  release() {
    if (this.r.stream !== undefined) releaseReader(this.r);
  }
}

function chunkReader(stream) {
  const s = streamImpl(stream);
  if (s === undefined) throw new TypeError("A body stream must be a ReadableStream");
  if (isLocked(s)) throw new TypeError("The body's stream is locked to a reader");
  const cr = new ChunkReader(s);
  return {
    next: () => cr.next(),
    cancel: (reason) => cr.cancel(reason),
    release: () => cr.release(),
  };
}

// readAll reads the whole stream and gives the chunks to finish (a Go
// native that concatenates them). It reads with a read request of its
// own: no promise per chunk.
function readAll(stream, finish) {
  const s = streamImpl(stream);
  if (s === undefined) return Promise.reject(new TypeError("A body stream must be a ReadableStream"));
  if (isLocked(s)) return Promise.reject(new TypeError("The body's stream is locked to a reader"));
  const r = acquireReader(s, false);
  const chunks = [];
  const d = new Deferred();
  let inRead = false;
  let waiting = false;
  let ended = false;
  function end(isError, e) {
    if (ended) return;
    ended = true;
    releaseReader(r);
    if (isError) {
      d.reject(e);
      return;
    }
    try {
      d.resolve(finish(chunks));
    } catch (err) {
      d.reject(err);
    }
  }
  const req = {
    chunk(c) {
      waiting = false;
      let v;
      try {
        v = bodyChunk(c);
      } catch (e) {
        markHandled(readableCancel(s, e));
        end(true, e);
        return;
      }
      chunks.push(v);
      if (!inRead) loop();
    },
    close() {
      waiting = false;
      end(false);
    },
    error(e) {
      waiting = false;
      end(true, e);
    },
  };
  function loop() {
    while (!ended) {
      waiting = true;
      inRead = true;
      readerRead(r, req);
      inRead = false;
      if (waiting) return;
    }
  }
  loop();
  return d.promise;
}

// pullStream makes a byte stream that a Go producer feeds: pull() is
// called when a reader wants bytes and returns a Uint8Array, null at the
// end, or a promise of one of them; cancel(reason) is called when the
// stream is canceled. length, when given, is the body's length.
function pullStream(pull, cancel, length) {
  if (typeof pull !== "function") throw new TypeError("pullStream needs a pull function");
  const s = newRS();
  if (typeof length === "number") s.length = length;
  const c = setUpByte(s, pull, cancel ? (r) => cancel(r) : returnsUndefined, 0, undefined);
  c.onPull = (v) => {
    if (v === null) {
      c.close();
      if (c.pending.length > 0) c.respond(0);
      return;
    }
    let u8 = v;
    if (!(v instanceof Uint8Array)) {
      if (typeof v === "string") u8 = utf8Encode(v);
      else if ((u8 = asU8(v)) === undefined) throw new TypeError("pullStream's pull must give a Uint8Array or null");
    }
    if (u8.byteLength === 0) {
      c.pullAgain = true;
      return;
    }
    c.enqueue(u8);
  };
  c.start(returnsUndefined);
  return s.pub;
}

internal.isReadableStream = (x) => streamImpl(x) !== undefined;
internal.isStreamDisturbed = (x) => {
  const s = streamImpl(x);
  return s !== undefined && s.disturbed;
};
internal.streamLength = (x) => {
  const s = streamImpl(x);
  return s === undefined ? undefined : s.length;
};
internal.readAllBytes = (stream) => readAll(stream, natives.concat);
internal.readAllText = (stream) => readAll(stream, natives.concatText);
internal.chunkReader = chunkReader;
internal.pullStream = pullStream;

// Streams are transferable in browsers but not cloneable: with the
// clone extension, structuredClone of one is a DataCloneError.
const streamClasses = [ReadableStream, WritableStream, TransformStream];
if (typeof internal.notCloneable === "function") internal.notCloneable(...streamClasses);

for (const cls of [
  ReadableStream, ReadableStreamDefaultReader, ReadableStreamBYOBReader, ReadableStreamBYOBRequest,
  ReadableStreamDefaultController, ReadableByteStreamController,
  WritableStream, WritableStreamDefaultWriter, WritableStreamDefaultController,
  TransformStream, TransformStreamDefaultController,
  ByteLengthQueuingStrategy, CountQueuingStrategy,
  TextEncoderStream, TextDecoderStream, CompressionStream, DecompressionStream,
  IdentityTransformStream, FixedLengthStream,
]) {
  internal.defineGlobal(cls.name, cls);
}
