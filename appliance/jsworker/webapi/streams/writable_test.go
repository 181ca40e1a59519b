package streams

import "testing"

func TestWritableStream(t *testing.T) {
	runCases(t, newIsolate(t), []jsCase{
		{"writes reach the sink in order, then close", `
			const log = [];
			const ws = new WritableStream({
			  start() { log.push("start"); },
			  write(c, ctl) { log.push("write " + c); return new Promise((r) => setTimeout(r, 1)); },
			  close() { log.push("close"); },
			});
			const w = ws.getWriter();
			w.write("a");
			w.write("b");
			await w.close();
			await w.closed;
			return log;`,
			`["start","write a","write b","close"]`},
		{"desiredSize and ready follow the queue", `
			const gates = [];
			const ws = new WritableStream({ write() { return new Promise((r) => gates.push(r)); } }, { highWaterMark: 2 });
			const w = ws.getWriter();
			const sizes = [w.desiredSize];
			w.write(1); sizes.push(w.desiredSize);
			w.write(2); sizes.push(w.desiredSize);
			let ready = false;
			w.ready.then(() => { ready = true; });
			await tick();
			const readyWhileFull = ready;
			gates.shift()();
			await tick();
			return [sizes, readyWhileFull, ready, w.desiredSize];`,
			`[[2,1,0],false,true,1]`},
		{"a count strategy's size function", `
			const ws = new WritableStream({}, { highWaterMark: 10, size(c) { return c.length; } });
			const w = ws.getWriter();
			w.write("abcd");
			return w.desiredSize;`,
			`6`},
		{"abort: the reason reaches the sink, queued writes fail", `
			let reason;
			const gates = [];
			const ws = new WritableStream({ write() { return new Promise((r) => gates.push(r)); }, abort(r) { reason = r; } });
			const w = ws.getWriter();
			await tick();
			const first = w.write(1);
			const second = w.write(2);
			const aborted = w.abort("stop");
			gates.shift()();
			return [await errorOf(first), await errorOf(second), await errorOf(aborted), reason, await errorOf(w.closed)];`,
			`["resolved","stop","resolved","stop","stop"]`},
		{"the controller's signal aborts with the reason", `
			let signal;
			const ws = new WritableStream({ start(c) { signal = c.signal; } });
			const seen = [];
			signal.addEventListener("abort", () => seen.push(signal.reason));
			await ws.abort(new RangeError("why"));
			return [signal.aborted, seen.map(describe), signal instanceof AbortSignal];`,
			`[true,["RangeError: why"],true]`},
		{"a signal asked for after the abort is aborted", `
			let ctl;
			const ws = new WritableStream({ start(c) { ctl = c; } });
			await ws.abort("late");
			return [ctl.signal.aborted, ctl.signal.reason];`,
			`[true,"late"]`},
		{"a sink write that fails errors the stream", `
			const ws = new WritableStream({ write() { throw new Error("disk full"); } });
			const w = ws.getWriter();
			const a = w.write(1);
			return [await errorOf(a), await errorOf(w.write(2)), await errorOf(w.closed), w.desiredSize];`,
			`["Error: disk full","Error: disk full","Error: disk full",null]`},
		{"controller.error errors the stream", `
			let ctl;
			const ws = new WritableStream({ start(c) { ctl = c; } });
			const w = ws.getWriter();
			await tick();
			ctl.error(new Error("gone"));
			return [await errorOf(w.write(1)), await errorOf(w.ready)];`,
			`["Error: gone","Error: gone"]`},
		{"close twice, write after close", `
			const ws = new WritableStream();
			const w = ws.getWriter();
			const c1 = w.close();
			return [await errorOf(w.close()), await errorOf(w.write(1)), await errorOf(c1)];`,
			`["TypeError: Cannot close an already-closing stream","TypeError: The stream is closing or closed and cannot be written to","resolved"]`},
		{"one writer at a time, released writers fail", `
			const ws = new WritableStream();
			const w = ws.getWriter();
			let second;
			try { ws.getWriter(); } catch (e) { second = describe(e); }
			w.releaseLock();
			return [second, ws.locked, await errorOf(w.write(1)), await errorOf(w.closed), await errorOf(ws.close())];`,
			`["TypeError: This stream has already been locked for exclusive writing by another writer",false,"TypeError: Cannot write to a stream using a released writer","TypeError: Writer was released and can no longer be used to monitor the stream's closedness","resolved"]`},
		{"abort and close of a locked stream reject", `
			const ws = new WritableStream();
			ws.getWriter();
			return [await errorOf(ws.abort()), await errorOf(ws.close())];`,
			`["TypeError: Cannot abort a stream that already has a writer","TypeError: Cannot close a stream that already has a writer"]`},
		{"a close that fails rejects close and closed", `
			const ws = new WritableStream({ close() { throw new Error("flush failed"); } });
			const w = ws.getWriter();
			return [await errorOf(w.close()), await errorOf(w.closed)];`,
			`["Error: flush failed","Error: flush failed"]`},
		{"constructor arguments are checked", `
			const out = [];
			for (const f of [() => new WritableStream({ type: "bytes" }), () => new WritableStream({ write: "x" }), () => new WritableStream({}, { highWaterMark: NaN })]) {
			  try { f(); out.push("ok"); } catch (e) { out.push(e.name); }
			}
			return out;`,
			`["RangeError","TypeError","RangeError"]`},
		{"a writer can be constructed directly", `
			const got = [];
			const ws = new WritableStream({ write(c) { got.push(c); } });
			const w = new WritableStreamDefaultWriter(ws);
			await w.write("x");
			return [got, ws.locked];`,
			`[["x"],true]`},
	})
}
