package streams

import "testing"

func TestPipeTo(t *testing.T) {
	runCases(t, newIsolate(t), []jsCase{
		{"every chunk, then close", `
			const got = [];
			let closed = false;
			const p = ReadableStream.from(["a", "b", "c"]).pipeTo(new WritableStream({ write(c) { got.push(c); }, close() { closed = true; } }));
			return [await p, got, closed];`,
			`[null,["a","b","c"],true]`},
		{"preventClose leaves the destination open", `
			const ws = new WritableStream({ write() {} });
			await ReadableStream.from([1]).pipeTo(ws, { preventClose: true });
			const w = ws.getWriter();
			await w.write(2);
			return ws.locked;`,
			`true`},
		{"a source error aborts the destination", `
			let aborted;
			const rs = new ReadableStream({ start(c) { c.enqueue(1); c.error(new Error("source broke")); } });
			const p = rs.pipeTo(new WritableStream({ abort(r) { aborted = describe(r); } }));
			return [await errorOf(p), aborted];`,
			`["Error: source broke","Error: source broke"]`},
		{"preventAbort keeps the destination", `
			let aborted = "no";
			const rs = new ReadableStream({ start(c) { c.error(new Error("x")); } });
			const ws = new WritableStream({ abort() { aborted = "yes"; } });
			const err = await errorOf(rs.pipeTo(ws, { preventAbort: true }));
			return [err, aborted, ws.locked];`,
			`["Error: x","no",false]`},
		{"a destination error cancels the source", `
			let canceled;
			const rs = new ReadableStream({ pull(c) { c.enqueue(1); }, cancel(r) { canceled = describe(r); } });
			const p = rs.pipeTo(new WritableStream({ write() { throw new Error("sink broke"); } }));
			return [await errorOf(p), canceled];`,
			`["Error: sink broke","Error: sink broke"]`},
		{"preventCancel keeps the source", `
			let canceled = "no";
			const rs = new ReadableStream({ pull(c) { c.enqueue(1); }, cancel() { canceled = "yes"; } });
			const err = await errorOf(rs.pipeTo(new WritableStream({ write() { throw new Error("x"); } }), { preventCancel: true }));
			return [err, canceled, rs.locked];`,
			`["Error: x","no",false]`},
		{"a signal's abort cancels the source and aborts the destination", `
			const ac = new AbortController();
			let canceled, aborted;
			const rs = new ReadableStream({ pull(c) { return tick().then(() => c.enqueue(1)); }, cancel(r) { canceled = r.name; } });
			const ws = new WritableStream({ write() { }, abort(r) { aborted = r.name; } });
			const p = rs.pipeTo(ws, { signal: ac.signal });
			await tick();
			ac.abort();
			return [await errorOf(p), canceled, aborted, rs.locked, ws.locked];`,
			`["AbortError: The operation was aborted","AbortError","AbortError",false,false]`},
		{"an aborted signal rejects at once with its reason", `
			const ac = new AbortController();
			ac.abort(new Error("already"));
			let canceled = false;
			const rs = new ReadableStream({ cancel() { canceled = true; } });
			const err = await errorOf(rs.pipeTo(new WritableStream(), { signal: ac.signal, preventCancel: true }));
			return [err, canceled];`,
			`["Error: already",false]`},
		{"the abort waits for the write in flight", `
			const ac = new AbortController();
			const log = [];
			let release;
			const rs = ReadableStream.from([1, 2, 3]);
			const ws = new WritableStream({ write(c) { log.push("write " + c); return new Promise((r) => { release = r; }); }, abort() { log.push("abort"); } });
			const p = rs.pipeTo(ws, { signal: ac.signal });
			await tick();
			ac.abort("stop");
			await tick();
			log.push("released");
			release();
			const err = await errorOf(p);
			return [err, log];`,
			`["stop",["write 1","released","abort"]]`},
		{"backpressure: the source is read only as fast as the sink writes", `
			let pulls = 0;
			const gates = [];
			const rs = new ReadableStream({ pull(c) { pulls++; c.enqueue(pulls); } }, { highWaterMark: 0 });
			const ws = new WritableStream({ write() { return new Promise((r) => gates.push(r)); } }, { highWaterMark: 1 });
			rs.pipeTo(ws);
			for (let i = 0; i < 5; i++) await tick();
			const stalled = pulls;
			gates.shift()();
			for (let i = 0; i < 5; i++) await tick();
			return [stalled, pulls];`,
			`[1,2]`},
		{"a destination closed before the pipe cancels the source", `
			let canceled;
			const ws = new WritableStream();
			await ws.close();
			const rs = new ReadableStream({ cancel(r) { canceled = describe(r); } });
			return [await errorOf(rs.pipeTo(ws)), canceled];`,
			`["TypeError: the destination writable stream closed before all data could be piped to it","TypeError: the destination writable stream closed before all data could be piped to it"]`},
		{"argument errors", `
			const rs = new ReadableStream();
			const out = [await errorOf(rs.pipeTo({})), await errorOf(rs.pipeTo(new WritableStream(), { signal: {} }))];
			rs.getReader();
			out.push(await errorOf(rs.pipeTo(new WritableStream())));
			const ws = new WritableStream();
			ws.getWriter();
			out.push(await errorOf(new ReadableStream().pipeTo(ws)));
			return out;`,
			`["TypeError: pipeTo's destination must be a WritableStream","TypeError: The pipe options' signal must be an AbortSignal","TypeError: ReadableStream.prototype.pipeTo cannot be used on a locked ReadableStream","TypeError: ReadableStream.prototype.pipeTo cannot be used on a locked WritableStream"]`},
		{"a byte stream pipes too", `
			let n = 0;
			const rs = new ReadableStream({ type: "bytes", pull(c) { if (n++ < 3) c.enqueue(new Uint8Array([n])); else c.close(); } });
			const got = [];
			await rs.pipeTo(new WritableStream({ write(c) { got.push(c[0]); } }));
			return got;`,
			`[1,2,3]`},
	})
}

func TestPipeThrough(t *testing.T) {
	runCases(t, newIsolate(t), []jsCase{
		{"a chain of transforms", `
			const up = new TransformStream({ transform(c, ctl) { ctl.enqueue(c.toUpperCase()); } });
			const twice = new TransformStream({ transform(c, ctl) { ctl.enqueue(c + c); } });
			return await collect(ReadableStream.from(["a", "b"]).pipeThrough(up).pipeThrough(twice));`,
			`["AA","BB"]`},
		{"the pair must be streams, unlocked", `
			const out = [];
			for (const f of [
			  () => new ReadableStream().pipeThrough({ readable: new ReadableStream() }),
			  () => new ReadableStream().pipeThrough({ writable: new WritableStream() }),
			  () => { const ts = new TransformStream(); ts.writable.getWriter(); new ReadableStream().pipeThrough(ts); },
			  () => { const rs = new ReadableStream(); rs.getReader(); rs.pipeThrough(new TransformStream()); },
			]) { try { f(); out.push("ok"); } catch (e) { out.push(describe(e)); } }
			return out;`,
			`["TypeError: pipeThrough's transform must have a writable WritableStream","TypeError: pipeThrough's transform must have a readable ReadableStream","TypeError: ReadableStream.prototype.pipeThrough cannot be used on a locked WritableStream","TypeError: ReadableStream.prototype.pipeThrough cannot be used on a locked ReadableStream"]`},
		{"errors travel down the chain", `
			const rs = new ReadableStream({ start(c) { c.error(new Error("upstream")); } });
			return await errorOf(collect(rs.pipeThrough(new TransformStream())));`,
			`"Error: upstream"`},
	})
}

func TestTee(t *testing.T) {
	runCases(t, newIsolate(t), []jsCase{
		{"both branches get every chunk", `
			const [a, b] = ReadableStream.from([1, 2, 3]).tee();
			return [await collect(a), await collect(b)];`,
			`[[1,2,3],[1,2,3]]`},
		{"the source is canceled once both branches are, with both reasons", `
			let reason;
			const rs = new ReadableStream({ cancel(r) { reason = r; } });
			const [a, b] = rs.tee();
			const pa = a.cancel("one");
			await tick();
			const before = reason;
			await b.cancel("two");
			await pa;
			return [before, reason];`,
			`[null,["one","two"]]`},
		{"a canceled branch lets the other read on", `
			const [a, b] = ReadableStream.from([1, 2]).tee();
			a.cancel();
			return await collect(b);`,
			`[1,2]`},
		{"a source error reaches both branches", `
			const rs = new ReadableStream({ start(c) { c.enqueue(1); c.error(new Error("tee broke")); } });
			const [a, b] = rs.tee();
			return [await errorOf(collect(a)), await errorOf(collect(b))];`,
			`["Error: tee broke","Error: tee broke"]`},
		{"the source is locked", `
			const rs = new ReadableStream();
			rs.tee();
			return rs.locked;`,
			`true`},
	})
}
