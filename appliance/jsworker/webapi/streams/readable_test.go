package streams

import "testing"

func TestReadableStream(t *testing.T) {
	runCases(t, newIsolate(t), []jsCase{
		{"chunks in order, then done", `
			const rs = new ReadableStream({ start(c) { c.enqueue("a"); c.enqueue(1); c.close(); } });
			const r = rs.getReader();
			return [await r.read(), await r.read(), await r.read(), await r.read()];`,
			`[{"done":false,"value":"a"},{"done":false,"value":1},{"done":true,"value":null},{"done":true,"value":null}]`},
		{"pull fills the queue to the high-water mark", `
			let pulls = 0;
			const rs = new ReadableStream({ pull(c) { pulls++; c.enqueue(pulls); } }, { highWaterMark: 3 });
			await tick();
			const before = pulls;
			const r = rs.getReader();
			const first = (await r.read()).value;
			await tick();
			return [before, first, pulls];`,
			`[3,1,4]`},
		{"desiredSize follows the strategy's sizes", `
			let ctl;
			new ReadableStream({ start(c) { ctl = c; } }, new ByteLengthQueuingStrategy({ highWaterMark: 10 }));
			const sizes = [ctl.desiredSize];
			ctl.enqueue(new Uint8Array(4)); sizes.push(ctl.desiredSize);
			ctl.enqueue(new Uint8Array(8)); sizes.push(ctl.desiredSize);
			ctl.close(); sizes.push(ctl.desiredSize);
			return sizes;`,
			`[10,6,-2,-2]`},
		{"no pull while the queue is full", `
			let pulls = 0;
			new ReadableStream({ start(c) { c.enqueue(1); }, pull() { pulls++; } });
			await tick();
			return pulls;`,
			`0`},
		{"with no high-water mark only a read makes the source pull", `
			let pulls = 0;
			const rs = new ReadableStream({ pull(c) { pulls++; c.enqueue("x"); } }, { highWaterMark: 0 });
			await tick();
			const before = pulls;
			const p = rs.getReader().read();
			await tick();
			return [before, await p, pulls];`,
			`[0,{"done":false,"value":"x"},1]`},
		{"cancel's reason reaches the source and ends reads", `
			let reason;
			const rs = new ReadableStream({ start(c) { c.enqueue(1); }, cancel(r) { reason = r; return new Promise((res) => setTimeout(res, 1)); } });
			const r = rs.getReader();
			const pending = r.read();
			const c = await r.cancel("enough");
			return [await pending, c === undefined, reason, await r.read(), await r.closed];`,
			`[{"done":false,"value":1},true,"enough",{"done":true,"value":null},null]`},
		{"a cancel that rejects rejects cancel()", `
			const rs = new ReadableStream({ cancel() { throw new Error("no"); } });
			return await errorOf(rs.cancel());`,
			`"Error: no"`},
		{"controller.error fails reads and closed", `
			let ctl;
			const rs = new ReadableStream({ start(c) { ctl = c; c.enqueue(1); } });
			const r = rs.getReader();
			ctl.error(new TypeError("broken"));
			return [await errorOf(r.read()), await errorOf(r.closed), ctl.desiredSize];`,
			`["TypeError: broken","TypeError: broken",null]`},
		{"a pending read fails when the stream errors", `
			let ctl;
			const rs = new ReadableStream({ start(c) { ctl = c; } });
			const p = rs.getReader().read();
			ctl.error(new RangeError("late"));
			return await errorOf(p);`,
			`"RangeError: late"`},
		{"start that throws throws from the constructor", `
			try { new ReadableStream({ start() { throw new SyntaxError("in start"); } }); return "no throw"; } catch (e) { return describe(e); }`,
			`"SyntaxError: in start"`},
		{"start that rejects errors the stream", `
			const rs = new ReadableStream({ start() { return Promise.reject(new Error("async start")); } });
			return await errorOf(rs.getReader().read());`,
			`"Error: async start"`},
		{"pull that throws errors the stream", `
			const rs = new ReadableStream({ pull() { throw new Error("pull failed"); } });
			return await errorOf(rs.getReader().read());`,
			`"Error: pull failed"`},
		{"enqueue after close is a TypeError", `
			let ctl;
			new ReadableStream({ start(c) { ctl = c; } });
			ctl.close();
			try { ctl.enqueue(1); } catch (e) { return describe(e); }`,
			`"TypeError: The stream is not in a state that permits enqueue"`},
		{"one reader at a time", `
			const rs = new ReadableStream();
			const r = rs.getReader();
			const locked = rs.locked;
			let second;
			try { rs.getReader(); } catch (e) { second = describe(e); }
			r.releaseLock();
			return [locked, second, rs.locked, await errorOf(rs.cancel())];`,
			`[true,"TypeError: This stream has already been locked for exclusive reading by another reader",false,"resolved"]`},
		{"cancel of a locked stream rejects", `
			const rs = new ReadableStream();
			rs.getReader();
			return await errorOf(rs.cancel());`,
			`"TypeError: Cannot cancel a stream that already has a reader"`},
		{"releaseLock fails pending reads and closed", `
			const rs = new ReadableStream();
			const r = rs.getReader();
			const p = r.read();
			r.releaseLock();
			return [await errorOf(p), await errorOf(r.closed), await errorOf(r.read())];`,
			`["TypeError: Reader was released","TypeError: Reader was released and can no longer be used to monitor the stream's closedness","TypeError: Cannot read from a stream using a released reader"]`},
		{"constructor arguments are checked", `
			const out = [];
			for (const f of [
			  () => new ReadableStream({ type: "text" }),
			  () => new ReadableStream({ pull: 1 }),
			  () => new ReadableStream({}, { highWaterMark: -1 }),
			  () => new ReadableStream({ type: "bytes" }, { size() { return 1; } }),
			  () => new ReadableStream({ type: "bytes", autoAllocateChunkSize: 0 }),
			  () => new ReadableStream(5),
			  () => new ReadableStream().getReader({ mode: "fast" }),
			]) { try { f(); out.push("ok"); } catch (e) { out.push(e.name); } }
			return out;`,
			`["TypeError","TypeError","RangeError","RangeError","TypeError","TypeError","TypeError"]`},
		{"a size function that throws errors the stream", `
			let ctl;
			const rs = new ReadableStream({ start(c) { ctl = c; } }, { size() { throw new Error("size"); } });
			let thrown;
			try { ctl.enqueue(1); } catch (e) { thrown = describe(e); }
			return [thrown, await errorOf(rs.getReader().closed)];`,
			`["Error: size","Error: size"]`},
		{"Web IDL shapes", `
			const rs = new ReadableStream();
			return [String(rs), Object.keys(globalThis).includes("ReadableStream"), typeof ReadableStreamDefaultController,
			  Object.getOwnPropertyDescriptor(ReadableStream.prototype, "getReader").enumerable,
			  ReadableStream.prototype[Symbol.asyncIterator || Symbol.for("Symbol.asyncIterator")] === ReadableStream.prototype.values];`,
			`["[object ReadableStream]",false,"function",true,true]`},
		{"controllers cannot be constructed", `
			const out = [];
			for (const C of [ReadableStreamDefaultController, ReadableByteStreamController, ReadableStreamBYOBRequest, WritableStreamDefaultController, TransformStreamDefaultController]) {
			  try { new C(); out.push("ok"); } catch (e) { out.push(e.message); }
			}
			return out;`,
			`["Illegal constructor","Illegal constructor","Illegal constructor","Illegal constructor","Illegal constructor"]`},
		{"streams are not cloneable", `
			return [new ReadableStream(), new WritableStream(), new TransformStream(), new CompressionStream("gzip")].map((s) => {
			  try { structuredClone(s); return "cloned"; } catch (e) { return e.name; }
			});`,
			`["DataCloneError","DataCloneError","DataCloneError","DataCloneError"]`},
		{"an app that replaces Promise does not change the streams", `
			const P = globalThis.Promise;
			globalThis.Promise = function Fake() { throw new Error("fake Promise"); };
			try {
			  const rs = new ReadableStream({ pull(c) { c.enqueue(1); c.close(); } });
			  const r = rs.getReader();
			  return [await r.read(), await r.read()];
			} finally {
			  globalThis.Promise = P;
			}`,
			`[{"done":false,"value":1},{"done":true,"value":null}]`},
		{"a reader can be constructed directly", `
			const rs = new ReadableStream({ start(c) { c.enqueue("x"); c.close(); } });
			const r = new ReadableStreamDefaultReader(rs);
			return [await r.read(), rs.locked];`,
			`[{"done":false,"value":"x"},true]`},
	})
}

func TestReadableStreamFrom(t *testing.T) {
	runCases(t, newIsolate(t), []jsCase{
		{"an array", `return await collect(ReadableStream.from(["a", "b"]));`, `["a","b"]`},
		{"a sync iterable's promises are awaited", `
			return await collect(ReadableStream.from([Promise.resolve(1), 2]));`,
			`[1,2]`},
		{"a string iterates its characters", `return await collect(ReadableStream.from("hé"));`, `["h","é"]`},
		{"an async iterable written by hand", `
			let n = 0;
			const it = { [Symbol.asyncIterator || Symbol.for("Symbol.asyncIterator")]() { return this; },
			  next() { n++; return Promise.resolve(n <= 3 ? { value: n, done: false } : { value: undefined, done: true }); } };
			return await collect(ReadableStream.from(it));`,
			`[1,2,3]`},
		{"cancel calls the iterator's return", `
			let returned;
			const it = { [Symbol.iterator]() { return this; }, next() { return { value: 1, done: false }; },
			  return(v) { returned = v; return { done: true }; } };
			const rs = ReadableStream.from(it);
			const r = rs.getReader();
			await r.read();
			await r.cancel("stop");
			return returned;`,
			`"stop"`},
		{"an iterator that throws errors the stream", `
			const it = { [Symbol.iterator]() { return this; }, next() { throw new Error("next failed"); } };
			return await errorOf(collect(ReadableStream.from(it)));`,
			`"Error: next failed"`},
		{"not iterable", `
			try { ReadableStream.from(5); } catch (e) { return describe(e); }`,
			`"TypeError: ReadableStream.from needs an iterable or async iterable"`},
		{"pulls lazily", `
			let n = 0;
			const it = { [Symbol.iterator]() { return this; }, next() { n++; return { value: n, done: false }; } };
			const rs = ReadableStream.from(it);
			await tick();
			const before = n;
			await rs.getReader().read();
			return [before, n];`,
			`[0,1]`},
	})
}

func TestAsyncIteration(t *testing.T) {
	runCases(t, newIsolate(t), []jsCase{
		{"next reads every chunk, then done", `
			const rs = ReadableStream.from([1, 2]);
			const it = rs[Symbol.asyncIterator || Symbol.for("Symbol.asyncIterator")]();
			return [await it.next(), await it.next(), await it.next(), await it.next(), rs.locked];`,
			`[{"done":false,"value":1},{"done":false,"value":2},{"done":true,"value":null},{"done":true,"value":null},false]`},
		{"break (return) cancels the stream", `
			let reason = "not canceled";
			const rs = new ReadableStream({ pull(c) { c.enqueue("x"); }, cancel(r) { reason = r; } });
			const it = rs.values();
			const first = await it.next();
			const ret = await it.return();
			return [first.value, ret, reason, rs.locked, await it.next()];`,
			`["x",{"done":true,"value":null},null,false,{"done":true,"value":null}]`},
		{"preventCancel leaves the stream to be read on", `
			let canceled = false;
			const rs = new ReadableStream({ start(c) { c.enqueue(1); c.enqueue(2); c.close(); }, cancel() { canceled = true; } });
			const it = rs.values({ preventCancel: true });
			await it.next();
			await it.return("v");
			return [canceled, rs.locked, await collect(rs)];`,
			`[false,false,[2]]`},
		{"an errored stream rejects next", `
			const rs = new ReadableStream({ start(c) { c.error(new Error("bad")); } });
			const it = rs.values();
			return [await errorOf(it.next()), await it.next(), rs.locked];`,
			`["Error: bad",{"done":true,"value":null},false]`},
		{"next calls made at once are answered in order", `
			let n = 0;
			const rs = new ReadableStream({ pull(c) { return new Promise((r) => setTimeout(() => { c.enqueue(++n); r(); }, 1)); } }, { highWaterMark: 0 });
			const it = rs.values();
			const all = await Promise.all([it.next(), it.next(), it.next()]);
			return all.map((x) => x.value);`,
			`[1,2,3]`},
		{"values of a locked stream throws", `
			const rs = new ReadableStream();
			rs.getReader();
			try { rs.values(); } catch (e) { return describe(e); }`,
			`"TypeError: This stream has already been locked for exclusive reading by another reader"`},
		{"the iterator is its own async iterator", `
			const it = new ReadableStream().values();
			return it[Symbol.asyncIterator || Symbol.for("Symbol.asyncIterator")]() === it;`,
			`true`},
	})
}
