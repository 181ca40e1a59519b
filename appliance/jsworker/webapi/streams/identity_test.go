package streams

import "testing"

func TestIdentityTransformStream(t *testing.T) {
	runCases(t, newIsolate(t), []jsCase{
		{"a write settles when a read has taken its bytes", `
			const its = new IdentityTransformStream();
			const w = its.writable.getWriter();
			let written = false;
			const p = w.write(new Uint8Array([1, 2, 3])).then(() => { written = true; });
			await tick();
			const before = written;
			const r = its.readable.getReader();
			const a = await r.read();
			await p;
			w.close();
			return [before, Array.from(a.value), written, (await r.read()).done, its instanceof TransformStream];`,
			`[false,[1,2,3],true,true,true]`},
		{"a BYOB read takes part of a write", `
			const its = new IdentityTransformStream();
			const w = its.writable.getWriter();
			let written = false;
			w.write(new Uint8Array([1, 2, 3, 4, 5])).then(() => { written = true; });
			const r = its.readable.getReader({ mode: "byob" });
			const a = await r.read(new Uint8Array(2));
			await tick();
			const half = written;
			const b = await r.read(new Uint8Array(8));
			await tick();
			return [Array.from(a.value), half, Array.from(b.value), written];`,
			`[[1,2],false,[3,4,5],true]`},
		{"writes copy their bytes; strings are UTF-8; empty writes are nothing", `
			const its = new IdentityTransformStream();
			const w = its.writable.getWriter();
			const buf = new Uint8Array([7]);
			w.write(buf);
			buf[0] = 8;
			w.write(new Uint8Array(0));
			w.write("é");
			w.close();
			return await collect(its.readable);`,
			`[[7],[195,169]]`},
		{"a write of something else rejects, and the stream goes on", `
			const its = new IdentityTransformStream();
			const w = its.writable.getWriter();
			const bad = await errorOf(w.write(42));
			w.write(new Uint8Array([1]));
			w.close();
			return [bad, await collect(its.readable)];`,
			`["TypeError: This TransformStream is used as a byte stream, but received a chunk that is not an ArrayBuffer or ArrayBufferView or a string",[[1]]]`},
		{"desiredSize counts bytes", `
			const its = new IdentityTransformStream({ highWaterMark: 10 });
			const w = its.writable.getWriter();
			await w.ready;
			const a = w.desiredSize;
			w.write(new Uint8Array(4));
			return [a, w.desiredSize];`,
			`[10,6]`},
		{"abort does not wait for a reader", `
			const its = new IdentityTransformStream();
			const w = its.writable.getWriter();
			const p = w.write(new Uint8Array([1]));
			await tick();
			return [await errorOf(w.abort("stop")), await errorOf(p), await errorOf(its.readable.getReader().read())];`,
			`["resolved","stop","stop"]`},
		{"cancel rejects the write in progress", `
			const its = new IdentityTransformStream();
			const w = its.writable.getWriter();
			const p = w.write(new Uint8Array([1]));
			await tick();
			await its.readable.cancel("no more");
			return [await errorOf(p), await errorOf(w.write(new Uint8Array([2])))];`,
			`["no more","no more"]`},
	})
}

func TestFixedLengthStream(t *testing.T) {
	runCases(t, newIsolate(t), []jsCase{
		{"exactly the expected bytes", `
			const fls = new FixedLengthStream(3);
			const w = fls.writable.getWriter();
			w.write(new Uint8Array([1, 2]));
			w.write(new Uint8Array([3]));
			w.close();
			return [await collect(fls.readable), internals.streamLength(fls.readable), fls instanceof IdentityTransformStream];`,
			`[[[1,2],[3]],3,true]`},
		{"too many bytes", `
			const fls = new FixedLengthStream(2);
			const w = fls.writable.getWriter();
			const read = fls.readable.getReader().read();
			const p = w.write(new Uint8Array(3));
			return [await errorOf(p), await errorOf(read)];`,
			`["TypeError: Attempt to write too many bytes through a FixedLengthStream.","TypeError: Attempt to write too many bytes through a FixedLengthStream."]`},
		{"too few bytes", `
			const fls = new FixedLengthStream(5);
			const w = fls.writable.getWriter();
			const r = fls.readable.getReader();
			w.write(new Uint8Array(2));
			await r.read();
			return [await errorOf(w.close()), await errorOf(r.read())];`,
			`["TypeError: FixedLengthStream did not see all expected bytes before close().","TypeError: FixedLengthStream did not see all expected bytes before close()."]`},
		{"zero bytes", `
			const fls = new FixedLengthStream(0);
			fls.writable.getWriter().close();
			return await collect(fls.readable);`,
			`[]`},
		{"the length is checked and caps the high-water mark", `
			const out = [];
			for (const n of [-1, Infinity, "x", 2 ** 53]) {
			  try { new FixedLengthStream(n); out.push("ok"); } catch (e) { out.push(e.name); }
			}
			const w = new FixedLengthStream(4, { highWaterMark: 100 }).writable.getWriter();
			await w.ready;
			out.push(w.desiredSize, new FixedLengthStream(10n) instanceof FixedLengthStream);
			return out;`,
			`["TypeError","TypeError","TypeError","TypeError",4,true]`},
	})
}
