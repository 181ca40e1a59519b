package events_test

import (
	"testing"

	"github.com/dwk/fleet/appliance/jsworker/jsrt/jsrttest"
	"github.com/dwk/fleet/appliance/jsworker/webapi/events"
)

func TestAbort(t *testing.T) {
	iso := jsrttest.New(t, events.Extension, exposeInternal)
	runCases(t, iso, []evalCase{
		{"default reason", `const c = new AbortController(); const s = c.signal; const before = s.aborted; c.abort();
			return [before, s.aborted, s.reason instanceof DOMException, s.reason.name, s.reason.message, s.reason.code]`,
			`[false,true,true,"AbortError","The operation was aborted",20]`},
		{"given reason", `const c = new AbortController(); c.abort("why"); c.abort("again"); return c.signal.reason`, `"why"`},
		{"same signal", `const c = new AbortController(); return c.signal === c.signal`, `true`},
		{"event once", `const c = new AbortController(); const seen = [];
			c.signal.addEventListener("abort", function (e) { seen.push([e.type, e.isTrusted, this === c.signal, this.reason]) });
			c.signal.onabort = e => seen.push("onabort");
			c.abort(1); c.abort(2); return seen`, `[["abort",true,true,1],"onabort"]`},
		{"onabort survives the abort", `const c = new AbortController(); const f = () => {}; c.signal.onabort = f; c.abort(); return c.signal.onabort === f`, `true`},
		{"throwIfAborted", `const c = new AbortController(); c.signal.throwIfAborted(); c.abort(new RangeError("r"));
			try { c.signal.throwIfAborted(); return "no error" } catch (e) { return [e.name, e.message] }`, `["RangeError","r"]`},
		{"AbortSignal.abort", `const a = AbortSignal.abort(); const b = AbortSignal.abort(7); return [a.aborted, a.reason.name, b.reason]`, `[true,"AbortError",7]`},
		{"illegal constructor", `try { new AbortSignal(); return "no error" } catch (e) { return e.name }`, `"TypeError"`},
		{"signal is an EventTarget", `return [AbortSignal.abort() instanceof EventTarget, Object.prototype.toString.call(new AbortController().signal)]`, `[true,"[object AbortSignal]"]`},
		{"algorithms run before listeners", `const c = new AbortController(); const seen = [];
			c.signal.addEventListener("abort", () => seen.push("listener"));
			internal.onAbort(c.signal, r => seen.push("algorithm " + r));
			const undo = internal.onAbort(c.signal, () => seen.push("taken back")); undo();
			c.abort("x"); internal.onAbort(c.signal, () => seen.push("too late")); return seen`, `["algorithm x","listener"]`},
		{"internal signals", `const s = internal.newAbortSignal(); const before = s.aborted; internal.abortSignal(s); return [before, s.aborted, s.reason.name, internal.isAbortSignal(s), internal.isAbortSignal({ aborted: true })]`,
			`[false,true,"AbortError",true,false]`},
		{"any follows the first", `const a = new AbortController(), b = new AbortController(); const s = AbortSignal.any([a.signal, b.signal]);
			const seen = []; s.onabort = () => seen.push(s.reason); b.abort("b"); a.abort("a"); return [s.aborted, s.reason, seen]`, `[true,"b",["b"]]`},
		{"any of an aborted signal", `const s = AbortSignal.any([new AbortController().signal, AbortSignal.abort("early")]); return [s.aborted, s.reason]`, `[true,"early"]`},
		{"any of none", `const s = AbortSignal.any([]); return s.aborted`, `false`},
		{"any of any", `const a = new AbortController(); const inner = AbortSignal.any([a.signal]); const outer = AbortSignal.any([inner]);
			const seen = []; inner.onabort = () => seen.push("inner"); outer.onabort = () => seen.push("outer");
			a.abort("r"); return [seen, outer.reason]`, `[["inner","outer"],"r"]`},
		{"any checks its elements", `try { AbortSignal.any([{}]); return "no error" } catch (e) { return e.name }`, `"TypeError"`},
		{"any needs an iterable", `try { AbortSignal.any(5); return "no error" } catch (e) { return e.name }`, `"TypeError"`},
		{"timeout", `const s = AbortSignal.timeout(5); const before = s.aborted;
			const e = await new Promise(r => s.addEventListener("abort", r));
			return [before, s.aborted, e.type, s.reason instanceof DOMException, s.reason.name, s.reason.message, s.reason.code]`,
			`[false,true,"abort",true,"TimeoutError","The operation was aborted due to timeout",23]`},
		{"timeout of zero", `const s = AbortSignal.timeout(0); await new Promise(r => s.onabort = r); return s.reason.name`, `"TimeoutError"`},
		{"timeout rejects a bad delay", `const out = []; for (const d of [-1, NaN, Infinity, "x"]) { try { AbortSignal.timeout(d); out.push("ok") } catch (e) { out.push(e.name) } } return out`,
			`["TypeError","TypeError","TypeError","TypeError"]`},
		{"timeout with any", `const s = AbortSignal.any([new AbortController().signal, AbortSignal.timeout(1)]);
			await new Promise(r => s.onabort = r); return s.reason.name`, `"TimeoutError"`},
		{"listener throwing during abort", `const c = new AbortController(); const seen = [];
			c.signal.addEventListener("abort", () => { throw new Error("listener failed") });
			c.signal.addEventListener("abort", () => seen.push("second"));
			c.abort(); return seen`, `["second"]`},
	})
}
