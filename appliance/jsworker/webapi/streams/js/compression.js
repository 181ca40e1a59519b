// CompressionStream and DecompressionStream: a Go codec per stream, fed
// each chunk as it is written; whatever output it has so far goes to
// the readable side, a byte stream.

function compressionFormat(format) {
  if (typeof format === "symbol") throw new TypeError("The compression format must be a string");
  const f = String(format);
  if (f !== "gzip" && f !== "deflate" && f !== "deflate-raw") {
    throw new TypeError("The compression format must be either 'deflate', 'deflate-raw' or 'gzip'.");
  }
  return f;
}

// codecTransform is the transform stream around codec handle h.
function codecTransform(h, what) {
  return newTransform((chunk, c) => {
    if (typeof chunk !== "string" && asU8(chunk) === undefined) {
      throw new TypeError(`${what}'s chunks must be ArrayBuffers, ArrayBufferViews or strings`);
    }
    const out = natives.codecWrite(h, chunk);
    if (out !== null) tcEnqueue(c, out);
  }, (c) => {
    const out = natives.codecEnd(h);
    if (out !== null) tcEnqueue(c, out);
  }, () => {
    natives.codecClose(h);
  }, true);
}

class CompressionStream extends TransformStream {
  constructor(format) {
    const f = compressionFormat(format);
    super(INTERNAL, codecTransform(natives.newCodec(f, false), "CompressionStream"));
  }
}
webidl(CompressionStream, "CompressionStream");

class DecompressionStream extends TransformStream {
  constructor(format) {
    const f = compressionFormat(format);
    super(INTERNAL, codecTransform(natives.newCodec(f, true), "DecompressionStream"));
  }
}
webidl(DecompressionStream, "DecompressionStream");
