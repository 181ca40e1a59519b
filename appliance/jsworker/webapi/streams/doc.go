// Package streams is the WHATWG Streams standard for dwk's JavaScript
// runtime, and the stream classes built on it: ReadableStream (default
// and byte streams, default and BYOB readers, tee, pipeTo, pipeThrough,
// async iteration, ReadableStream.from, and Cloudflare's BYOB
// readAtLeast), WritableStream, TransformStream, the two queuing
// strategies, TextEncoderStream and TextDecoderStream, CompressionStream
// and DecompressionStream ("gzip", "deflate", "deflate-raw"), and
// Cloudflare's IdentityTransformStream and FixedLengthStream.
//
// The streams follow the spec's algorithms (the reference
// implementation's structure, over internal records that the public
// classes wrap), so that ordering, backpressure and error propagation are
// what libraries expect. The hot paths avoid the spec's promise per step
// where only timing could tell (see Differences): a read of a queued
// chunk makes one
// promise (none through internal.chunkReader), a pipe moves chunks
// without a promise per chunk, and the reader's closed and the writer's
// ready and closed promises are made only when asked for. Byte work is Go:
// concatenating a body, UTF-8, and compression (compress/flate, gzip,
// zlib; a decompressor runs on a goroutine of its own that the loop hands
// chunks to, ended by the stream's end, its cancel, or the collection of
// its handle).
//
// # For other extensions
//
// The fetch layer reads and makes bodies through these functions on
// internal:
//
//   - isReadableStream(x) reports whether x is a ReadableStream.
//   - isStreamDisturbed(stream) reports whether it was ever read or
//     canceled (a body's bodyUsed).
//   - streamLength(stream) is the body length in bytes the stream is
//     known to carry (a FixedLengthStream's readable side, or what
//     pullStream was given), else undefined.
//   - readAllBytes(stream) locks the stream, reads it to the end and
//     returns a promise of a new Uint8Array with every chunk's bytes
//     (concatenated in Go). Chunks may be Uint8Arrays, other views,
//     ArrayBuffers or strings (as UTF-8); anything else rejects with the
//     TypeError "This ReadableStream did not return bytes.". A locked
//     stream rejects with a TypeError.
//   - readAllText(stream) is readAllBytes decoded as UTF-8 (replacement
//     characters for invalid bytes, a leading BOM dropped), as a promise
//     of a string.
//   - chunkReader(stream) locks the stream and returns { next, cancel,
//     release }. next() returns the next chunk (a Uint8Array or a
//     string) or null at the end, synchronously when one is queued, else
//     a promise of it; it throws (or the promise rejects) with the
//     stream's error or a TypeError for a chunk that is not bytes (the
//     stream is then canceled). Call next again only after the previous
//     call's promise settled. cancel(reason) cancels the stream and
//     releases it; release() releases the lock.
//   - pullStream(pull, cancel, length) makes a byte stream (BYOB readers
//     work on it) that a Go producer feeds. pull() is called only when a
//     reader waits for bytes, never twice at once, and returns a
//     Uint8Array (its buffer then belongs to the stream), null at the
//     end, or a promise of one of them: a Go body maps onto it with one
//     promise (one iso.Async) per chunk. A rejection or throw errors the
//     stream. cancel(reason), optional, is called once if the stream is
//     canceled before its end. length, optional, is streamLength's value.
//
// They read internal.utf8Encode when the encoding extension defines it
// (for TextEncoderStream and string chunks), and TextDecoderStream uses
// the global TextDecoder when there is one (every encoding it knows);
// without them they fall back on UTF-8 natives of their own. The events
// extension's signals are looked up when used: pipeTo's signal must be
// an AbortSignal (internal.isAbortSignal) and its abort runs as an abort
// algorithm (internal.onAbort); a WritableStreamDefaultController's
// signal (internal.newAbortSignal, made when first asked for) is
// undefined without the events extension. With the clone extension,
// structuredClone of a stream is a DataCloneError.
//
// # Differences
//
// Where only timing within a turn of the event loop tells: a source's
// pull that returns undefined (rather than a promise) counts as done at
// once, not a microtask later, so the next pull a queue needs may come
// before reactions to the chunk just read; a TransformStream's transform
// runs, and a write waiting for the readable side completes, without the
// spec's backpressure promise (a microtask sooner); pipeTo reads the
// next chunk as soon as the destination's backpressure ends rather than
// after its ready promise's reaction. The pulls, writes and their order
// are the spec's.
//
// ArrayBuffers are never transferred (detached): a chunk enqueued on a
// byte stream, and the view given to a BYOB read, keep their buffers, and
// a BYOB read resolves with a new view over the reader's own buffer.
// Code that reuses a buffer after enqueueing it sees its changes reach
// the reader. As in workerd, the text and compression streams are
// subclasses of TransformStream, CompressionStream, DecompressionStream
// and TextEncoderStream have byte-stream readable sides, compression
// streams
// accept string chunks (as UTF-8); a DecompressionStream fails on
// corrupt input with "Decompression failed.", on bytes after the end of
// the compressed data, and on a close before it ended (workerd's strict
// compression checks); it does not read concatenated gzip members.
// IdentityTransformStream and FixedLengthStream are, as in workerd,
// subclasses of TransformStream whose writes settle when the bytes are
// read; their writes accept strings (as UTF-8) and reject other
// non-bytes without erroring the stream; a FixedLengthStream errors both
// sides on a write past its length or a close before it. Bodies read
// through readAllBytes, readAllText and chunkReader may have string
// chunks (as UTF-8), other views and ArrayBuffers, where the Fetch
// standard and Cloudflare take only Uint8Arrays.
package streams
