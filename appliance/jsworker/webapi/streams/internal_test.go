package streams

import "testing"

// TestBodyHelpers covers what the fetch layer uses on internal.
func TestBodyHelpers(t *testing.T) {
	runCases(t, newIsolate(t), []jsCase{
		{"a Go body read whole", `
			const b = goBody(["hel", "lo ", "wörld"]);
			const s = internals.pullStream(b.pull, b.cancel);
			const bytes = await internals.readAllBytes(s);
			return [new TextDecoder().decode(bytes), bytes.length, b.pulls(), s.locked, internals.isStreamDisturbed(s)];`,
			`["hello wörld",12,4,false,true]`},
		{"a Go body pulls only when read", `
			const b = goBody(["a", "b"]);
			const s = internals.pullStream(b.pull, b.cancel);
			await tick();
			const before = b.pulls();
			const r = s.getReader();
			const first = await r.read();
			await tick();
			return [before, Array.from(first.value), b.pulls()];`,
			`[0,[97],1]`},
		{"a Go body as text", `
			const b = goBody(["\uFEFFh", "\u00e9"]);
			return await internals.readAllText(internals.pullStream(b.pull, b.cancel));`,
			`"hé"`},
		{"a Go body through a BYOB reader", `
			const b = goBody(["abcdef"]);
			const r = internals.pullStream(b.pull, b.cancel).getReader({ mode: "byob" });
			const x = await r.read(new Uint8Array(4));
			const y = await r.read(new Uint8Array(4));
			const z = await r.read(new Uint8Array(4));
			return [Array.from(x.value), Array.from(y.value), z.done];`,
			`[[97,98,99,100],[101,102],true]`},
		{"canceling a Go body tells Go", `
			const b = goBody(["a", "b", "c"]);
			const s = internals.pullStream(b.pull, b.cancel);
			const r = s.getReader();
			await r.read();
			await r.cancel("client went away");
			return b.canceled();`,
			`"client went away"`},
		{"a failing Go body errors the stream", `
			const b = goBody(["a", "b"], 1);
			return await errorOf(internals.readAllBytes(internals.pullStream(b.pull, b.cancel)));`,
			`"Error: the body failed"`},
		{"pull may answer synchronously; empty chunks are skipped", `
			const chunks = [new Uint8Array([1]), new Uint8Array(0), "é", null];
			const s = internals.pullStream(() => chunks.shift(), undefined, 4);
			return [internals.streamLength(s), await collect(s)];`,
			`[4,[[1],[195,169]]]`},
		{"readAllBytes of a user stream", `
			const rs = ReadableStream.from([new Uint8Array([1, 2]), "é", new Uint16Array([0x0403]), new ArrayBuffer(1)]);
			return Array.from(await internals.readAllBytes(rs));`,
			`[1,2,195,169,3,4,0]`},
		{"readAllBytes rejects a chunk that is not bytes, and cancels the stream", `
			let canceled;
			const rs = new ReadableStream({ start(c) { c.enqueue(new Uint8Array(1)); c.enqueue({}); }, cancel(r) { canceled = describe(r); } });
			return [await errorOf(internals.readAllBytes(rs)), canceled];`,
			`["TypeError: This ReadableStream did not return bytes.","TypeError: This ReadableStream did not return bytes."]`},
		{"readAllBytes of a locked stream", `
			const rs = new ReadableStream();
			rs.getReader();
			return [await errorOf(internals.readAllBytes(rs)), await errorOf(internals.readAllText({}))];`,
			`["TypeError: The body's stream is locked to a reader","TypeError: A body stream must be a ReadableStream"]`},
		{"readAllBytes of an empty stream is a new empty array", `
			const u8 = await internals.readAllBytes(ReadableStream.from([]));
			return [u8 instanceof Uint8Array, u8.length];`,
			`[true,0]`},
		{"readAllBytes keeps nothing shared with the chunks", `
			const chunk = new Uint8Array([5]);
			const u8 = await internals.readAllBytes(ReadableStream.from([chunk]));
			u8[0] = 6;
			return chunk[0];`,
			`5`},
		{"a chunk reader answers queued chunks at once", `
			const rs = new ReadableStream({ start(c) { c.enqueue("a"); c.enqueue(new Uint8Array([1])); c.close(); } });
			const cr = internals.chunkReader(rs);
			const a = cr.next(), b = cr.next(), end = cr.next();
			return [a, Array.from(b), end];`,
			`["a",[1],null]`},
		{"a chunk reader's promise for a chunk still to come", `
			const b = goBody(["x"]);
			const cr = internals.chunkReader(internals.pullStream(b.pull, b.cancel));
			const p = cr.next();
			const isPromise = p instanceof Promise;
			const first = await p;
			return [isPromise, Array.from(first), await cr.next()];`,
			`[true,[120],null]`},
		{"a chunk reader throws the stream's error", `
			const rs = new ReadableStream({ start(c) { c.error(new Error("broken body")); } });
			try { internals.chunkReader(rs).next(); } catch (e) { return describe(e); }`,
			`"Error: broken body"`},
		{"a chunk reader cancels and releases", `
			let reason;
			const rs = new ReadableStream({ cancel(r) { reason = r; } });
			const cr = internals.chunkReader(rs);
			const locked = rs.locked;
			await cr.cancel("done here");
			return [locked, reason, rs.locked];`,
			`[true,"done here",false]`},
		{"isReadableStream", `
			return [internals.isReadableStream(new ReadableStream()), internals.isReadableStream({ getReader() {} }), internals.isReadableStream(null)];`,
			`[true,false,false]`},
	})
}
