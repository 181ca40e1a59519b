package streams

import "testing"

func TestTransformStream(t *testing.T) {
	runCases(t, newIsolate(t), []jsCase{
		{"start, transform and flush", `
			const log = [];
			const ts = new TransformStream({
			  start(c) { log.push("start"); c.enqueue("first"); },
			  transform(chunk, c) { log.push("transform " + chunk); c.enqueue(chunk.toUpperCase()); c.enqueue(chunk); },
			  flush(c) { log.push("flush"); c.enqueue("last"); },
			});
			const w = ts.writable.getWriter();
			w.write("a");
			w.close();
			return [await collect(ts.readable), log];`,
			`[["first","A","a","last"],["start","transform a","flush"]]`},
		{"with no transformer chunks pass through", `
			const ts = new TransformStream();
			const w = ts.writable.getWriter();
			w.write(1); w.write(2); w.close();
			return await collect(ts.readable);`,
			`[1,2]`},
		{"a write waits for the readable side to want more", `
			const ts = new TransformStream();
			const w = ts.writable.getWriter();
			let done = 0;
			w.write(1).then(() => done++);
			w.write(2).then(() => done++);
			await tick();
			const before = done;
			const r = ts.readable.getReader();
			await r.read();
			await tick();
			const after1 = done;
			await r.read();
			await tick();
			return [before, after1, done];`,
			`[0,1,2]`},
		{"a transform that throws errors both sides", `
			const ts = new TransformStream({ transform() { throw new TypeError("bad chunk"); } });
			const w = ts.writable.getWriter();
			const read = ts.readable.getReader().read();
			const p = w.write(1);
			return [await errorOf(p), await errorOf(read), await errorOf(w.closed)];`,
			`["TypeError: bad chunk","TypeError: bad chunk","TypeError: bad chunk"]`},
		{"terminate closes the readable side and errors the writable side", `
			const ts = new TransformStream({ transform(chunk, c) { c.enqueue(chunk); c.terminate(); } });
			const w = ts.writable.getWriter();
			w.write("only");
			return [await collect(ts.readable), await errorOf(w.write("more"))];`,
			`[["only"],"TypeError: The TransformStream was terminated"]`},
		{"canceling the readable side runs cancel and errors the writable side", `
			let reason;
			const ts = new TransformStream({ cancel(r) { reason = r; } });
			await ts.readable.cancel("stop reading");
			return [reason, await errorOf(ts.writable.getWriter().write(1))];`,
			`["stop reading","stop reading"]`},
		{"aborting the writable side runs cancel and errors the readable side", `
			let reason;
			const ts = new TransformStream({ cancel(r) { reason = r; } });
			await ts.writable.abort("stop writing");
			return [reason, await errorOf(ts.readable.getReader().read())];`,
			`["stop writing","stop writing"]`},
		{"a flush that fails errors the readable side", `
			const ts = new TransformStream({ flush() { throw new Error("flush"); } });
			const w = ts.writable.getWriter();
			return [await errorOf(w.close()), await errorOf(ts.readable.getReader().read())];`,
			`["Error: flush","Error: flush"]`},
		{"an async transform is awaited", `
			const ts = new TransformStream({ async transform(chunk, c) { await tick(); c.enqueue(chunk * 2); } });
			const w = ts.writable.getWriter();
			w.write(1); w.write(2); w.close();
			return await collect(ts.readable);`,
			`[2,4]`},
		{"desiredSize of the controller", `
			let ctl;
			const ts = new TransformStream({ start(c) { ctl = c; } }, undefined, { highWaterMark: 2 });
			const a = ctl.desiredSize;
			ctl.enqueue(1);
			return [a, ctl.desiredSize];`,
			`[2,1]`},
		{"readableType and writableType are not allowed", `
			const out = [];
			for (const t of [{ readableType: "bytes" }, { writableType: "bytes" }]) {
			  try { new TransformStream(t); out.push("ok"); } catch (e) { out.push(e.name); }
			}
			return out;`,
			`["RangeError","RangeError"]`},
	})
}
