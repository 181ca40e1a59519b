package streams

import (
	"fmt"
	"testing"
)

// compressionSetup defines, for each case, the input (text repeated
// enough to compress well, with non-ASCII) and chunked(u8, n), which
// splits bytes into chunks of n.
const compressionSetup = `
const input = new TextEncoder().encode("streams, ströme, 流 ".repeat(500));
function chunked(u8, n) { const out = []; for (let i = 0; i < u8.length; i += n) out.push(u8.subarray(i, i + n)); return out; }
async function bytesOf(stream) {
  const parts = await collect(stream);
  return new Uint8Array(parts.flat());
}
function same(a, b) { if (a.length !== b.length) return false; for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false; return true; }
`

func TestCompressionRoundTrips(t *testing.T) {
	var cases []jsCase
	for _, format := range []string{"gzip", "deflate", "deflate-raw"} {
		cases = append(cases,
			jsCase{format + ": JavaScript compresses, Go decompresses", fmt.Sprintf(compressionSetup+`
				const z = await bytesOf(ReadableStream.from(chunked(input, 1000)).pipeThrough(new CompressionStream(%q)));
				return [z.length < input.length / 10, same(goDecompress(%[1]q, z), input)];`, format),
				`[true,true]`},
			jsCase{format + ": Go compresses, JavaScript decompresses in small chunks", fmt.Sprintf(compressionSetup+`
				const z = goCompress(%q, input);
				const out = await bytesOf(ReadableStream.from(chunked(z, 7)).pipeThrough(new DecompressionStream(%[1]q)));
				return same(out, input);`, format),
				`true`},
			jsCase{format + ": a round trip through both streams", fmt.Sprintf(compressionSetup+`
				const out = await bytesOf(ReadableStream.from(chunked(input, 333)).pipeThrough(new CompressionStream(%q)).pipeThrough(new DecompressionStream(%[1]q)));
				return same(out, input);`, format),
				`true`},
			jsCase{format + ": an empty stream", fmt.Sprintf(compressionSetup+`
				const z = await bytesOf(ReadableStream.from([]).pipeThrough(new CompressionStream(%q)));
				return [goDecompress(%[1]q, z).length, (await bytesOf(ReadableStream.from([z]).pipeThrough(new DecompressionStream(%[1]q)))).length];`, format),
				`[0,0]`},
		)
	}
	runCases(t, newIsolate(t), cases)
}

func TestCompressionErrors(t *testing.T) {
	runCases(t, newIsolate(t), []jsCase{
		{"corrupt input", compressionSetup + `
			return await errorOf(bytesOf(ReadableStream.from([new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11])]).pipeThrough(new DecompressionStream("gzip"))));`,
			`"TypeError: Decompression failed."`},
		{"a truncated stream", compressionSetup + `
			const z = goCompress("gzip", input);
			return await errorOf(bytesOf(ReadableStream.from([z.subarray(0, z.length - 5)]).pipeThrough(new DecompressionStream("gzip"))));`,
			`"TypeError: Called close() on a decompression stream with incomplete data"`},
		{"nothing at all", compressionSetup + `
			return await errorOf(bytesOf(ReadableStream.from([]).pipeThrough(new DecompressionStream("deflate"))));`,
			`"TypeError: Called close() on a decompression stream with incomplete data"`},
		{"trailing bytes in the same chunk", compressionSetup + `
			const z = goCompress("deflate", input);
			const more = new Uint8Array(z.length + 2); more.set(z);
			return await errorOf(bytesOf(ReadableStream.from([more]).pipeThrough(new DecompressionStream("deflate"))));`,
			`"TypeError: Trailing bytes after end of compressed data"`},
		{"trailing bytes in a later chunk", compressionSetup + `
			const z = goCompress("gzip", input);
			return await errorOf(bytesOf(ReadableStream.from([z, new Uint8Array([0])]).pipeThrough(new DecompressionStream("gzip"))));`,
			`"TypeError: Trailing bytes after end of compressed data"`},
		{"the write rejects and both sides error", compressionSetup + `
			const ds = new DecompressionStream("deflate-raw");
			const w = ds.writable.getWriter();
			const read = ds.readable.getReader().read();
			return [await errorOf(w.write(new Uint8Array([0xFF, 0xFF]))), await errorOf(read)];`,
			`["TypeError: Decompression failed.","TypeError: Decompression failed."]`},
		{"formats", `
			const out = [];
			for (const f of ["gzip", "deflate", "deflate-raw", "br", "GZIP", undefined]) {
			  try { new CompressionStream(f); out.push("ok"); } catch (e) { out.push(e.name); }
			}
			try { new DecompressionStream("zstd"); } catch (e) { out.push(e.message); }
			return out;`,
			`["ok","ok","ok","TypeError","TypeError","TypeError","The compression format must be either 'deflate', 'deflate-raw' or 'gzip'."]`},
		{"chunk types: strings are UTF-8, others are errors", compressionSetup + `
			const z = await bytesOf(ReadableStream.from(["hé", new Uint16Array([0x4241])]).pipeThrough(new CompressionStream("gzip")));
			const text = new TextDecoder().decode(goDecompress("gzip", z));
			const bad = await errorOf(bytesOf(ReadableStream.from([42]).pipeThrough(new CompressionStream("gzip"))));
			return [text, bad];`,
			`["héAB","TypeError: CompressionStream's chunks must be ArrayBuffers, ArrayBufferViews or strings"]`},
		{"the readable side takes BYOB reads", compressionSetup + `
			const cs = new CompressionStream("gzip");
			const w = cs.writable.getWriter();
			w.write(input); w.close();
			const { value } = await cs.readable.getReader({ mode: "byob" }).read(new Uint8Array(2));
			return Array.from(value);`,
			`[31,139]`},
		{"canceling ends the decompressor", compressionSetup + `
			const z = goCompress("gzip", input);
			const ds = new DecompressionStream("gzip");
			const w = ds.writable.getWriter();
			w.write(z.subarray(0, 20)).catch(() => {});
			await ds.readable.cancel("enough");
			return await errorOf(w.write(z.subarray(20)));`,
			`"enough"`},
	})
}
