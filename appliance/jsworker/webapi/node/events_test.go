package node_test

import "testing"

const importEvents = `const EventEmitter = __dwk_import("node:events");`

func TestEventEmitter(t *testing.T) {
	iso := newIsolate(t)
	runCases(t, iso, []evalCase{
		{"module shape", importEvents + `return [EventEmitter.EventEmitter === EventEmitter, EventEmitter.default === EventEmitter, typeof EventEmitter.once, typeof EventEmitter.on, typeof EventEmitter.errorMonitor]`,
			`[true,true,"function","function","symbol"]`},
		{"order: prepend, on, once", importEvents + `const e = new EventEmitter(), out = [];
			e.on("x", v => out.push("on" + v)); e.prependListener("x", v => out.push("pre" + v)); e.once("x", v => out.push("once" + v)); e.prependOnceListener("x", v => out.push("preonce" + v));
			e.emit("x", 1); e.emit("x", 2); return [out, e.listenerCount("x")]`,
			`[["preonce1","pre1","on1","once1","pre2","on2"],2]`},
		{"emit reports listeners", importEvents + `const e = new EventEmitter(); const before = e.emit("x"); e.on("x", () => {}); return [before, e.emit("x")]`, `[false,true]`},
		{"this and arguments", importEvents + `const e = new EventEmitter(); let got; e.on("x", function (a, b) { got = [this === e, a, b]; }); e.emit("x", 1, 2); return got`, `[true,1,2]`},
		{"removing during emit", importEvents + `const e = new EventEmitter(), out = []; const b = () => out.push("b"); e.on("x", () => { out.push("a"); e.off("x", b); }); e.on("x", b); e.emit("x"); e.emit("x"); return out`, `["a","b","a"]`},
		{"off a once listener by its function", importEvents + `const e = new EventEmitter(); const f = () => {}; e.once("x", f); e.off("x", f); return e.listenerCount("x")`, `0`},
		{"listeners and rawListeners", importEvents + `const e = new EventEmitter(); const f = () => {}; e.once("x", f); return [e.listeners("x")[0] === f, e.rawListeners("x")[0] === f, e.rawListeners("x")[0].listener === f]`, `[true,false,true]`},
		{"newListener and removeListener events", importEvents + `const e = new EventEmitter(), out = []; e.on("newListener", (n, l) => out.push("new " + n + " " + l.name)); e.on("removeListener", (n, l) => out.push("rm " + n + " " + l.name));
			function f() {} e.once("x", f); e.emit("x"); return out`, `["new removeListener ","new x f","rm x f"]`},
		{"removeAllListeners", importEvents + `const e = new EventEmitter(); e.on("a", () => {}); e.on("b", () => {}); e.on("b", () => {}); e.removeAllListeners("b"); const n = e.eventNames(); e.removeAllListeners(); return [n, e.eventNames()]`, `[["a"],[]]`},
		{"eventNames with symbols", importEvents + `const e = new EventEmitter(); const s = Symbol("s"); e.on("a", () => {}); e.on(s, () => {}); return e.eventNames().map(String)`, `["a","Symbol(s)"]`},
		{"listenerCount of a listener", importEvents + `const e = new EventEmitter(); const f = () => {}; e.on("x", f); e.on("x", () => {}); return [e.listenerCount("x", f), EventEmitter.listenerCount(e, "x")]`, `[1,2]`},
		{"error with a listener", importEvents + `const e = new EventEmitter(); let got; e.on("error", err => got = err.message); e.emit("error", new Error("boom")); return got`, `"boom"`},
		{"errorMonitor sees errors first", importEvents + `const e = new EventEmitter(), out = []; e.on(EventEmitter.errorMonitor, () => out.push("monitor")); e.on("error", () => out.push("error")); e.emit("error", new Error()); return out`, `["monitor","error"]`},
		{"max listeners", importEvents + `const e = new EventEmitter(); const d = e.getMaxListeners(); e.setMaxListeners(1); return [d, e.getMaxListeners(), EventEmitter.defaultMaxListeners]`, `[10,1,10]`},
		{"leak warning", importEvents + `const e = new EventEmitter(); e.setMaxListeners(1); const w = new Promise(r => process.once("warning", r)); e.on("x", () => {}); e.on("x", () => {}); const warning = await w;
			return [warning.name, warning.count, warning.message.startsWith("Possible EventEmitter memory leak detected. 2 x listeners")]`, `["MaxListenersExceededWarning",2,true]`},
		{"subclass with class", importEvents + `class My extends EventEmitter { constructor() { super(); this.v = 1; } } const m = new My(); let got; m.on("x", () => got = m.v); m.emit("x"); return [got, m instanceof EventEmitter]`, `[1,true]`},
		{"old-style inheritance", importEvents + `const util = __dwk_import("node:util"); function Old() { EventEmitter.call(this); } util.inherits(Old, EventEmitter);
			const o = new Old(); let got; o.on("x", v => got = v); o.emit("x", 5); return [got, Old.super_ === EventEmitter]`, `[5,true]`},
		{"captureRejections", importEvents + `const e = new EventEmitter({ captureRejections: true }); const got = new Promise(r => e.on("error", err => r(err.message))); e.on("x", async () => { throw new Error("async boom"); }); e.emit("x"); return await got`, `"async boom"`},
		{"captureRejections to Symbol.for('nodejs.rejection')", importEvents + `const e = new EventEmitter({ captureRejections: true }); const got = new Promise(r => { e[Symbol.for("nodejs.rejection")] = (err, ev, arg) => r([err.message, ev, arg]); }); e.on("x", async () => { throw new Error("no"); }); e.emit("x", 7); return await got`, `["no","x",7]`},
	})
	runErrorCases(t, iso, []errorCase{
		{"error without a listener throws it", importEvents + `new EventEmitter().emit("error", new TypeError("bad"))`, "TypeError", "bad"},
		{"error that is not an Error", importEvents + `new EventEmitter().emit("error", "text")`, "Error", "Unhandled error. ('text')"},
		{"listener not a function", importEvents + `new EventEmitter().on("x", 1)`, "TypeError", `The "listener" argument must be of type function. Received type number (1)`},
		{"negative max listeners", importEvents + `new EventEmitter().setMaxListeners(-1)`, "RangeError", `The value of "n" is out of range`},
	})
}

func TestEventsHelpers(t *testing.T) {
	iso := newIsolate(t)
	runCases(t, iso, []evalCase{
		{"once resolves with the arguments", importEvents + `const e = new EventEmitter(); setTimeout(() => e.emit("x", 1, 2), 1); return await EventEmitter.once(e, "x")`, `[1,2]`},
		{"once rejects on error", importEvents + `const e = new EventEmitter(); setTimeout(() => e.emit("error", new Error("fail")), 1);
			try { await EventEmitter.once(e, "x"); } catch (err) { return [err.message, e.listenerCount("x"), e.listenerCount("error")]; }`, `["fail",0,0]`},
		{"once with an abort signal", importEvents + `const e = new EventEmitter(); const ac = new AbortController(); setTimeout(() => ac.abort(), 1);
			try { await EventEmitter.once(e, "x", { signal: ac.signal }); } catch (err) { return [err.name, e.listenerCount("x")]; }`, `["AbortError",0]`},
		{"once on an EventTarget", importEvents + `const t = new EventTarget(); setTimeout(() => t.dispatchEvent(new Event("ping")), 1); const [ev] = await EventEmitter.once(t, "ping"); return ev.type`, `"ping"`},
		{"on iterates", importEvents + `const e = new EventEmitter(); const it = EventEmitter.on(e, "x");
			e.emit("x", 1); e.emit("x", 2); setTimeout(() => e.emit("x", 3), 1);
			const got = []; for (let k = 0; k < 3; k++) got.push((await it.next()).value[0]);
			await it.return(); return [got, e.listenerCount("x"), (await it.next()).done]`, `[[1,2,3],0,true]`},
		{"on rejects on error", importEvents + `const e = new EventEmitter(); const it = EventEmitter.on(e, "x"); setTimeout(() => e.emit("error", new Error("bad")), 1);
			try { await it.next(); } catch (err) { return [err.message, e.listenerCount("x")]; }`, `["bad",0]`},
		{"on is async iterable", importEvents + `const it = EventEmitter.on(new EventEmitter(), "x"); return it[Symbol.asyncIterator]() === it`, `true`},
		{"getEventListeners", importEvents + `const e = new EventEmitter(); const f = () => {}; e.on("x", f); return [EventEmitter.getEventListeners(e, "x")[0] === f, EventEmitter.getEventListeners(new EventTarget(), "x").length]`, `[true,0]`},
		{"setMaxListeners on emitters", importEvents + `const a = new EventEmitter(), b = new EventEmitter(); EventEmitter.setMaxListeners(3, a, b); return [a.getMaxListeners(), b.getMaxListeners(), EventEmitter.getMaxListeners(a)]`, `[3,3,3]`},
		{"EventEmitterAsyncResource", importEvents + `const { AsyncLocalStorage } = __dwk_import("node:async_hooks"); const als = new AsyncLocalStorage();
			const e = als.run("made here", () => new EventEmitter.EventEmitterAsyncResource({ name: "r" })); let got; e.on("x", () => got = als.getStore());
			als.run("emitted here", () => e.emit("x")); return [got, typeof e.asyncId]`, `["made here","number"]`},
	})
}
