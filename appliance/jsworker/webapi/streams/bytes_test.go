package streams

import "testing"

func TestByteStreams(t *testing.T) {
	runCases(t, newIsolate(t), []jsCase{
		{"a default reader reads the chunks as enqueued", `
			const rs = new ReadableStream({ type: "bytes", start(c) { c.enqueue(new Uint8Array([1, 2])); c.enqueue(new Uint16Array([0x0403])); c.close(); } });
			return await collect(rs);`,
			`[[1,2],[3,4]]`},
		{"BYOB reads split and join chunks", `
			const rs = new ReadableStream({ type: "bytes", start(c) { c.enqueue(new Uint8Array([1, 2, 3, 4, 5])); c.enqueue(new Uint8Array([6])); c.close(); } });
			const r = rs.getReader({ mode: "byob" });
			const a = await r.read(new Uint8Array(2));
			const b = await r.read(new Uint8Array(10));
			const c = await r.read(new Uint8Array(10));
			return [Array.from(a.value), Array.from(b.value), c.done, c.value.byteLength, c.value.buffer.byteLength];`,
			`[[1,2],[3,4,5,6],true,0,10]`},
		{"a BYOB read resolves with a view over the reader's buffer", `
			const rs = new ReadableStream({ type: "bytes", start(c) { c.enqueue(new Uint8Array([9, 8])); } });
			const buf = new ArrayBuffer(8);
			const { value } = await rs.getReader({ mode: "byob" }).read(new Uint8Array(buf, 2, 4));
			return [value.byteOffset, value.byteLength, value.buffer === buf, Array.from(new Uint8Array(buf))];`,
			`[2,2,true,[0,0,9,8,0,0,0,0]]`},
		{"the source fills the BYOB request", `
			let n = 0;
			const rs = new ReadableStream({ type: "bytes", pull(c) {
			  const v = c.byobRequest.view;
			  v[0] = ++n; v[1] = n;
			  c.byobRequest.respond(2);
			  if (n === 2) c.close();
			} });
			const r = rs.getReader({ mode: "byob" });
			const a = await r.read(new Uint8Array(4));
			const b = await r.read(new Uint8Array(4));
			const c = await r.read(new Uint8Array(4));
			return [Array.from(a.value), Array.from(b.value), c.done];`,
			`[[1,1],[2,2],true]`},
		{"min waits for enough bytes", `
			let n = 0;
			const rs = new ReadableStream({ type: "bytes", pull(c) { c.enqueue(new Uint8Array([++n])); if (n === 5) c.close(); } });
			const r = rs.getReader({ mode: "byob" });
			const a = await r.read(new Uint8Array(4), { min: 3 });
			const b = await r.readAtLeast(2, new Uint8Array(4));
			return [Array.from(a.value), Array.from(b.value)];`,
			`[[1,2,3],[4,5]]`},
		{"respondWithNewView", `
			const rs = new ReadableStream({ type: "bytes", pull(c) {
			  const v = c.byobRequest.view;
			  const w = new Uint8Array(v.buffer, v.byteOffset, 1);
			  w[0] = 42;
			  c.byobRequest.respondWithNewView(w);
			} });
			const { value } = await rs.getReader({ mode: "byob" }).read(new Uint8Array(3));
			return Array.from(value);`,
			`[42]`},
		{"a default reader gets autoAllocateChunkSize buffers through byobRequest", `
			const rs = new ReadableStream({ type: "bytes", autoAllocateChunkSize: 16, pull(c) {
			  const v = c.byobRequest.view;
			  v.set([7, 7, 7]);
			  c.byobRequest.respond(3);
			  c.close();
			} });
			const r = rs.getReader();
			const a = await r.read();
			return [Array.from(a.value), a.value.buffer.byteLength, (await r.read()).done];`,
			`[[7,7,7],16,true]`},
		{"typed-array BYOB reads fill whole elements", `
			const rs = new ReadableStream({ type: "bytes", start(c) { c.enqueue(new Uint8Array([1, 0, 2])); c.enqueue(new Uint8Array([0])); c.close(); } });
			const r = rs.getReader({ mode: "byob" });
			const a = await r.read(new Uint16Array(4));
			return [a.value.constructor.name, Array.from(a.value)];`,
			`["Uint16Array",[1,2]]`},
		{"closing between the bytes of an element is an error", `
			let ctl;
			const rs = new ReadableStream({ type: "bytes", start(c) { ctl = c; } });
			const r = rs.getReader({ mode: "byob" });
			const p = r.read(new Uint16Array(2));
			ctl.byobRequest.view[0] = 1;
			ctl.byobRequest.respond(1);
			let thrown;
			try { ctl.close(); } catch (e) { thrown = describe(e); }
			return [thrown, await errorOf(p)];`,
			`["TypeError: Insufficient bytes to fill elements in the given buffer","TypeError: Insufficient bytes to fill elements in the given buffer"]`},
		{"a BYOB read pending at close gets done after respond(0)", `
			let ctl;
			const rs = new ReadableStream({ type: "bytes", start(c) { ctl = c; } });
			const p = rs.getReader({ mode: "byob" }).read(new Uint8Array(4));
			ctl.close();
			ctl.byobRequest.respond(0);
			const res = await p;
			return [res.done, res.value.byteLength];`,
			`[true,0]`},
		{"errors of byte controllers", `
			let ctl;
			new ReadableStream({ type: "bytes", start(c) { ctl = c; } });
			const out = [];
			for (const f of [() => ctl.enqueue("text"), () => ctl.enqueue(new Uint8Array(0)), () => { ctl.close(); ctl.close(); }]) {
			  try { f(); out.push("ok"); } catch (e) { out.push(describe(e)); }
			}
			return out;`,
			`["TypeError: A byte stream's chunk must be an ArrayBufferView","TypeError: chunk must have non-zero byteLength","TypeError: The stream (in closed state) is not in the readable state and cannot be closed"]`},
		{"BYOB reads need a view, and a byte stream", `
			const out = [];
			try { new ReadableStream().getReader({ mode: "byob" }); } catch (e) { out.push(describe(e)); }
			const r = new ReadableStream({ type: "bytes" }).getReader({ mode: "byob" });
			out.push(await errorOf(r.read(new Uint8Array(0))));
			out.push(await errorOf(r.read([1, 2])));
			out.push(await errorOf(r.read(new Uint8Array(2), { min: 3 })));
			return out;`,
			`["TypeError: Cannot get a BYOB reader for a stream that is not a byte stream (type: \"bytes\")","TypeError: view must have non-zero byteLength","TypeError: read() needs an ArrayBufferView to read into","RangeError: options.min must be less than or equal to view's length"]`},
		{"canceling a byte stream settles pending BYOB reads as done", `
			let reason;
			const rs = new ReadableStream({ type: "bytes", cancel(r) { reason = r; } });
			const r = rs.getReader({ mode: "byob" });
			const p = r.read(new Uint8Array(2));
			await r.cancel("bye");
			const res = await p;
			return [res.done, res.value, reason];`,
			`[true,null,"bye"]`},
		{"releasing a BYOB reader with a request the source filled keeps the bytes", `
			let ctl;
			const rs = new ReadableStream({ type: "bytes", start(c) { ctl = c; } });
			const r = rs.getReader({ mode: "byob" });
			const p = r.read(new Uint8Array(4));
			r.releaseLock();
			ctl.byobRequest.view.set([5, 6]);
			ctl.byobRequest.respond(2);
			return [await errorOf(p), Array.from((await rs.getReader().read()).value)];`,
			`["TypeError: Reader was released",[5,6]]`},
		{"tee gives each branch its own copy", `
			const rs = new ReadableStream({ type: "bytes", start(c) { c.enqueue(new Uint8Array([1, 2])); c.close(); } });
			const [a, b] = rs.tee();
			const ra = a.getReader(), rb = b.getReader();
			const x = (await ra.read()).value, y = (await rb.read()).value;
			x[0] = 99;
			return [Array.from(x), Array.from(y), x.buffer === y.buffer, (await ra.read()).done, (await rb.read()).done];`,
			`[[99,2],[1,2],false,true,true]`},
		{"tee of a byte stream serves BYOB reads on a branch", `
			const rs = new ReadableStream({ type: "bytes", start(c) { c.enqueue(new Uint8Array([1, 2, 3])); c.close(); } });
			const [a, b] = rs.tee();
			const ra = a.getReader({ mode: "byob" });
			const x = await ra.read(new Uint8Array(2));
			return [Array.from(x.value), await collect(b)];`,
			`[[1,2],[[1,2],[3]]]`},
	})
}
