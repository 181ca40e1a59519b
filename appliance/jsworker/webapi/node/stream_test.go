package node_test

import "testing"

const importStream = `const stream = __dwk_import("node:stream"); const { Readable, Writable, Duplex, Transform, PassThrough, pipeline, finished } = stream;`

// collect is a Writable that gathers what it is given.
const collect = `function collector(objectMode = true) { const out = []; const w = new Writable({ objectMode, write(c, e, cb) { out.push(objectMode ? c : c.toString()); cb(); } }); w.out = out; return w; }
	const run = (...streams) => new Promise((res, rej) => pipeline(...streams, (err, v) => err ? rej(err) : res(v)));
	const next = it => it.next().then(r => r.done ? "done" : r.value);`

func TestStreamPipeline(t *testing.T) {
	iso := newIsolate(t)
	runCases(t, iso, []evalCase{
		{"Readable.from to Transform to Writable", importStream + collect + `const w = collector();
			await run(Readable.from(["a", "b", "c"]), new Transform({ objectMode: true, transform(c, e, cb) { cb(null, c.toUpperCase()); } }), w);
			return w.out`, `["A","B","C"]`},
		{"byte streams through a PassThrough", importStream + collect + `const w = collector(false);
			await run(Readable.from([Buffer.from("ab"), Buffer.from("cd")], { objectMode: false }), new PassThrough(), w);
			return w.out.join("")`, `"abcd"`},
		{"transform with flush and several pushes", importStream + collect + `const w = collector();
			await run(Readable.from([1, 2]), new Transform({ objectMode: true, transform(c, e, cb) { this.push(c); this.push(c * 10); cb(); }, flush(cb) { cb(null, "end"); } }), w);
			return w.out`, `[1,10,2,20,"end"]`},
		{"async function stages", importStream + collect + `const w = collector();
			const double = source => ({ [Symbol.asyncIterator]() { const it = source[Symbol.asyncIterator](); return { next: async () => { const r = await it.next(); return r.done ? r : { value: r.value * 2, done: false }; } }; } });
			await run(Readable.from([1, 2, 3]), double, w); return w.out`, `[2,4,6]`},
		{"last stage a function returning a promise", importStream + collect + `
			const v = await run(Readable.from(["x", "y"]), async source => { let s = ""; const it = source[Symbol.asyncIterator](); for (;;) { const r = await it.next(); if (r.done) return s; s += r.value; } });
			return v`, `"xy"`},
		{"an error destroys every stream", importStream + collect + `const src = new Readable({ read() {} }); const mid = new PassThrough(); const w = collector(false);
			const p = run(src, mid, w); src.push("a"); src.destroy(new Error("source failed"));
			try { await p; } catch (err) { return [err.message, src.destroyed, mid.destroyed, w.destroyed]; }`, `["source failed",true,true,true]`},
		{"a failing transform", importStream + collect + `try { await run(Readable.from([1]), new Transform({ objectMode: true, transform(c, e, cb) { cb(new Error("transform failed")); } }), collector()); }
			catch (err) { return err.message; }`, `"transform failed"`},
		{"a failing writable", importStream + `const run = (...s) => new Promise((res, rej) => pipeline(...s, e => e ? rej(e) : res()));
			try { await run(Readable.from(["a"]), new Writable({ write(c, e, cb) { cb(new Error("write failed")); } })); } catch (err) { return err.message; }`, `"write failed"`},
		{"stream/promises pipeline", importStream + collect + `const { pipeline: p } = __dwk_import("node:stream/promises"); const w = collector(); await p(Readable.from([1]), w); return w.out`, `[1]`},
		{"promisified pipeline", importStream + collect + `const p = __dwk_import("node:util").promisify(pipeline); const w = collector(); await p(Readable.from([1, 2]), w); return w.out`, `[1,2]`},
		{"pipeline into a Web WritableStream", importStream + `const out = []; const ws = new WritableStream({ write(c) { out.push(c); } });
			await __dwk_import("node:stream/promises").pipeline(Readable.from(["a", "b"]), ws); return out`, `["a","b"]`},
		{"many chunks through slow and fast stages keep their order", importStream + collect + `const w = collector(); let k = 0;
			const src = new Readable({ objectMode: true, highWaterMark: 1, read() { const n = k++; if (n % 7 === 0) setTimeout(() => this.push(n < 500 ? n : null), 0); else this.push(n < 500 ? n : null); } });
			const slow = new Transform({ objectMode: true, highWaterMark: 1, transform(c, e, cb) { if (c % 3 === 0) setTimeout(() => cb(null, c), 0); else cb(null, c); } });
			const fast = new PassThrough({ objectMode: true, highWaterMark: 2 });
			await run(src, slow, fast, w);
			return [w.out.length, w.out.every((v, i) => v === i)]`, `[500,true]`},
		{"backpressure", importStream + `let pending = 0, max = 0; const w = new Writable({ highWaterMark: 2, objectMode: true, write(c, e, cb) { pending++; max = Math.max(max, pending); setTimeout(() => { pending--; cb(); }, 1); } });
			let reads = 0; const r = new Readable({ objectMode: true, highWaterMark: 2, read() { reads++; this.push(reads <= 20 ? reads : null); } });
			await new Promise((res, rej) => pipeline(r, w, e => e ? rej(e) : res())); return [max, reads]`, `[1,21]`},
	})
}

func TestReadable(t *testing.T) {
	iso := newIsolate(t)
	runCases(t, iso, []evalCase{
		{"async iteration", importStream + collect + `const r = new Readable({ read() {} }); r.push("hello "); r.push("world"); r.push(null);
			let s = ""; const it = r[Symbol.asyncIterator](); for (;;) { const v = await next(it); if (v === "done") break; s += v; } return [s, r.destroyed]`, `["hello world",true]`},
		{"breaking out of iteration destroys", importStream + collect + `const r = Readable.from([1, 2, 3]); const it = r[Symbol.asyncIterator](); const first = await next(it); await it.return(); await new Promise(res => setTimeout(res, 1)); return [first, r.destroyed]`, `[1,true]`},
		{"iteration rejects on error", importStream + collect + `const r = new Readable({ read() { this.destroy(new Error("read failed")); } }); try { await next(r[Symbol.asyncIterator]()); } catch (err) { return err.message; }`, `"read failed"`},
		{"paused mode with readable and read(n)", importStream + `const r = new Readable({ read() {} }); r.push("abcdef"); r.push(null);
			const got = []; await new Promise(res => { r.on("readable", () => { let c; while ((c = r.read(4)) !== null) got.push(c.toString()); }); r.on("end", res); }); return got`, `["abcd","ef"]`},
		{"setEncoding splits no characters", importStream + `const r = new Readable({ read() {} }); r.setEncoding("utf8"); const euro = Buffer.from("€"); r.push(euro.subarray(0, 1)); r.push(euro.subarray(1)); r.push(null);
			const got = []; r.on("data", d => got.push(d)); await new Promise(res => r.on("end", res)); return got`, `["€"]`},
		{"pause and resume", importStream + `const r = Readable.from([1, 2, 3]); const got = []; r.on("data", d => { got.push(d); if (d === 1) { r.pause(); setTimeout(() => r.resume(), 2); } });
			await new Promise(res => r.on("end", res)); return [got, r.isPaused()]`, `[[1,2,3],false]`},
		{"unshift", importStream + `const r = new Readable({ read() {} }); r.push("cd"); r.unshift("ab"); r.push(null); let s = ""; r.on("data", d => s += d); await new Promise(res => r.on("end", res)); return s`, `"abcd"`},
		{"events in order", importStream + `const r = new Readable({ read() { this.push(null); } }); const ev = []; for (const e of ["end", "close"]) r.on(e, () => ev.push(e)); r.resume(); await new Promise(res => r.on("close", res)); return ev`, `["end","close"]`},
		{"push after EOF", importStream + `const r = new Readable({ read() {} }); r.push(null); const err = new Promise(res => r.on("error", res)); r.push("x"); return (await err).code`, `"ERR_STREAM_PUSH_AFTER_EOF"`},
		{"pipe", importStream + collect + `const w = collector(false); Readable.from(["a", "b"], { objectMode: false }).pipe(w); await new Promise(res => w.on("finish", res)); return w.out`, `["a","b"]`},
		{"toArray, map and filter", importStream + `return await Readable.from([1, 2, 3, 4]).map(x => x * 2).filter(x => x > 2).toArray()`, `[4,6,8]`},
		{"from a string", importStream + `const chunks = await Readable.from("whole").toArray(); return chunks`, `["whole"]`},
		{"from a generator", importStream + `function* g() { yield "a"; yield "b"; } return await Readable.from(g()).toArray()`, `["a","b"]`},
		{"readable properties", importStream + `const r = new Readable({ read() {}, highWaterMark: 5 }); return [r.readable, r.readableHighWaterMark, r.readableFlowing, r.readableObjectMode, r.destroyed, r._readableState.objectMode]`, `[true,5,null,false,false,false]`},
		{"old-style subclass", importStream + `const util = __dwk_import("node:util"); function Counter() { Readable.call(this, { objectMode: true }); this.n = 0; } util.inherits(Counter, Readable);
			Counter.prototype._read = function () { this.push(this.n < 3 ? this.n++ : null); }; return await new Counter().toArray()`, `[0,1,2]`},
		{"class subclass", importStream + `class R extends Readable { constructor() { super({ objectMode: true }); this.left = 2; } _read() { this.push(this.left-- > 0 ? "x" : null); } } return await new R().toArray()`, `["x","x"]`},
		{"Readable() without new", importStream + `return Readable() instanceof Readable`, `true`},
		{"toWeb", importStream + `const rs = Readable.toWeb(Readable.from([Buffer.from("ab"), Buffer.from("c")], { objectMode: false })); const reader = rs.getReader(); let s = "";
			for (;;) { const { value, done } = await reader.read(); if (done) break; s += Buffer.from(value).toString(); } return s`, `"abc"`},
		{"fromWeb", importStream + `const rs = new ReadableStream({ start(c) { c.enqueue(new TextEncoder().encode("we")); c.enqueue(new TextEncoder().encode("b")); c.close(); } });
			const chunks = await Readable.fromWeb(rs).toArray(); return Buffer.concat(chunks).toString()`, `"web"`},
		{"stream/consumers", `const c = __dwk_import("node:stream/consumers"); const { Readable } = __dwk_import("node:stream");
			return [await c.text(Readable.from(["a", "b"])), await c.json(Readable.from(['{"x":', '1}'])), (await c.buffer(Readable.from([Buffer.from("hi")]))).toString(), (await c.arrayBuffer(new ReadableStream({ start(ctl) { ctl.enqueue(new Uint8Array(2)); ctl.close(); } }))).byteLength]`,
			`["ab",{"x":1},"hi",2]`},
	})
}

func TestWritableAndDuplex(t *testing.T) {
	iso := newIsolate(t)
	runCases(t, iso, []evalCase{
		{"write returns false at the high water mark and drains", importStream + `const chunks = []; const w = new Writable({ highWaterMark: 3, write(c, e, cb) { chunks.push(c.toString()); setTimeout(cb, 1); } });
			const r1 = w.write("ab"), r2 = w.write("cd"); await new Promise(r => w.once("drain", r)); w.end("e"); await new Promise(r => w.on("finish", r)); return [r1, r2, chunks, w.writableFinished]`,
			`[true,false,["ab","cd","e"],true]`},
		{"writev takes buffered writes together", importStream + `const calls = []; const w = new Writable({ write(c, e, cb) { calls.push([c.toString()]); setTimeout(cb, 1); }, writev(chunks, cb) { calls.push(chunks.map(c => c.chunk.toString())); cb(); } });
			w.write("a"); w.write("b"); w.write("c"); w.end(); await new Promise(r => w.on("finish", r)); return calls`, `[["a"],["b","c"]]`},
		{"cork and uncork", importStream + `const calls = []; const w = new Writable({ writev(chunks, cb) { calls.push(chunks.length); cb(); } }); w.cork(); w.write("a"); w.write("b"); w.uncork(); w.end(); await new Promise(r => w.on("finish", r)); return calls`, `[2]`},
		{"final runs before finish", importStream + `const ev = []; const w = new Writable({ write(c, e, cb) { cb(); }, final(cb) { ev.push("final"); setTimeout(cb, 1); } }); w.on("finish", () => ev.push("finish")); w.end("x"); await new Promise(r => w.on("close", r)); return ev`, `["final","finish"]`},
		{"end callback", importStream + `const w = new Writable({ write(c, e, cb) { cb(); } }); return await new Promise(r => w.end("x", () => r("ended")))`, `"ended"`},
		{"write after end", importStream + `const w = new Writable({ write(c, e, cb) { cb(); } }); w.on("error", () => {}); w.end(); return await new Promise(r => w.write("x", err => r(err.code)))`, `"ERR_STREAM_WRITE_AFTER_END"`},
		{"decodeStrings false keeps strings", importStream + `let got; const w = new Writable({ decodeStrings: false, write(c, e, cb) { got = [typeof c, e]; cb(); } }); w.write("x"); return got`, `["string","utf8"]`},
		{"destroy with an error", importStream + `const w = new Writable({ write(c, e, cb) {} }); const ev = []; w.on("error", e => ev.push("error " + e.message)); w.on("close", () => ev.push("close")); w.destroy(new Error("x")); await new Promise(r => w.on("close", r)); return [ev, w.destroyed, w.errored.message]`,
			`[["error x","close"],true,"x"]`},
		{"finished", importStream + `const w = new Writable({ write(c, e, cb) { cb(); } }); const done = new Promise(r => finished(w, err => r(err === undefined ? "ok" : err))); w.end("x"); return await done`, `"ok"`},
		{"finished on premature close", importStream + `const r = new Readable({ read() {} }); const done = new Promise(res => finished(r, err => res(err.code))); r.destroy(); return await done`, `"ERR_STREAM_PREMATURE_CLOSE"`},
		{"finished promise", importStream + `const promises = __dwk_import("node:stream/promises"); const r = Readable.from([1]); r.resume(); await promises.finished(r); return r.readableEnded`, `true`},
		{"duplex is readable and writable", importStream + `const got = []; const d = new Duplex({ read() {}, write(c, e, cb) { got.push(c.toString()); this.push(c.toString().toUpperCase()); cb(); }, final(cb) { this.push(null); cb(); } });
			d.end("hi"); const out = await d.toArray(); return [got, out.map(String), d instanceof Writable, d instanceof Readable, new PassThrough() instanceof Writable]`, `[["hi"],["HI"],true,true,true]`},
		{"allowHalfOpen false ends the writable side", importStream + `const d = new Duplex({ allowHalfOpen: false, read() { this.push(null); }, write(c, e, cb) { cb(); } }); d.resume(); await new Promise(r => d.on("finish", r)); return d.writableEnded`, `true`},
		{"Writable.toWeb", importStream + `const got = []; const w = new Writable({ write(c, e, cb) { got.push(c.toString()); cb(); } }); const ws = Writable.toWeb(w); const writer = ws.getWriter();
			await writer.write(new TextEncoder().encode("a")); await writer.close(); return got`, `["a"]`},
		{"Writable.fromWeb", importStream + `const got = []; const w = Writable.fromWeb(new WritableStream({ write(c) { got.push(Buffer.from(c).toString()); } }));
			w.write("x"); w.end("y"); await new Promise(r => w.on("finish", r)); return got`, `["x","y"]`},
		{"module shape", importStream + `return [stream.Stream === stream, typeof stream.promises.pipeline, stream.getDefaultHighWaterMark(false), stream.getDefaultHighWaterMark(true), __dwk_import("node:_stream_readable") === Readable, typeof __dwk_import("node:stream/web").ReadableStream]`,
			`[true,"function",65536,16,true,"function"]`},
	})
	runErrorCases(t, iso, []errorCase{
		{"write null", importStream + `new Writable({ write(c, e, cb) { cb(); } }).write(null)`, "TypeError", "May not write null values to stream"},
		{"write a number", importStream + `new Writable({ write(c, e, cb) { cb(); } }).write(1)`, "TypeError", `The "chunk" argument must be of type string or an instance of Buffer or Uint8Array`},
		{"no _read", importStream + `const r = new Readable(); await new Promise((res, rej) => { r.on("error", rej); r.read(); })`, "Error", "The _read() method is not implemented"},
		{"pipeline of one stream", importStream + `pipeline(new PassThrough(), () => {})`, "TypeError", `The "streams" argument must be specified`},
	})
}
