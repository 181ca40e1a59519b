package events_test

import (
	"strings"
	"testing"

	"github.com/dwk/fleet/appliance/jsworker/jsrt/jsrttest"
	"github.com/dwk/fleet/appliance/jsworker/webapi/events"
)

func TestEventTarget(t *testing.T) {
	iso := jsrttest.New(t, events.Extension, exposeInternal)
	runCases(t, iso, []evalCase{
		{"order and dispatch state", `const t = new EventTarget(); const seen = [];
			t.addEventListener("x", function (e) { seen.push(["a", this === t, e.target === t, e.currentTarget === t, e.eventPhase, e.composedPath().length]) });
			t.addEventListener("x", e => seen.push(["b"]));
			const e = new Event("x"); const r = t.dispatchEvent(e);
			return [r, seen, e.eventPhase, e.currentTarget, e.target === t, e.composedPath()]`,
			`[true,[["a",true,true,true,2,1],["b"]],0,null,true,[]]`},
		{"capture listeners first", `const t = new EventTarget(); const seen = [];
			t.addEventListener("x", () => seen.push("bubble"));
			t.addEventListener("x", () => seen.push("capture"), { capture: true });
			t.addEventListener("x", () => seen.push("capture2"), true);
			t.dispatchEvent(new Event("x")); return seen`, `["capture","capture2","bubble"]`},
		{"duplicates are ignored", `const t = new EventTarget(); let n = 0; const f = () => n++;
			t.addEventListener("x", f); t.addEventListener("x", f); t.addEventListener("x", f, { once: true });
			t.addEventListener("x", f, true);
			t.dispatchEvent(new Event("x")); return n`, `2`},
		{"once", `const t = new EventTarget(); let n = 0; t.addEventListener("x", () => n++, { once: true });
			t.dispatchEvent(new Event("x")); t.dispatchEvent(new Event("x")); return [n, internal.listenerCount(t, "x")]`, `[1,0]`},
		{"remove matches capture", `const t = new EventTarget(); let n = 0; const f = () => n++;
			t.addEventListener("x", f, true); t.removeEventListener("x", f); t.dispatchEvent(new Event("x"));
			t.removeEventListener("x", f, { capture: true }); t.dispatchEvent(new Event("x")); return n`, `1`},
		{"signal removes", `const t = new EventTarget(); const c = new AbortController(); let n = 0;
			t.addEventListener("x", () => n++, { signal: c.signal }); t.dispatchEvent(new Event("x"));
			c.abort(); t.dispatchEvent(new Event("x"));
			t.addEventListener("x", () => n++, { signal: c.signal }); t.dispatchEvent(new Event("x"));
			return [n, internal.listenerCount(t, "x")]`, `[1,0]`},
		{"signal must be a signal", `try { new EventTarget().addEventListener("x", () => {}, { signal: {} }); return "no error" } catch (e) { return e.name }`, `"TypeError"`},
		{"handleEvent objects", `const t = new EventTarget(); const o = { seen: [], handleEvent(e) { this.seen.push(e.type, this === o) } };
			t.addEventListener("x", o); t.dispatchEvent(new Event("x")); return o.seen`, `["x",true]`},
		{"handleEvent looked up at dispatch", `const t = new EventTarget(); const o = {}; t.addEventListener("x", o);
			let n = 0; o.handleEvent = () => n++; t.dispatchEvent(new Event("x")); return n`, `1`},
		{"null listener is ignored", `const t = new EventTarget(); t.addEventListener("x", null); return internal.listenerCount(t, "x")`, `0`},
		{"listener must be callable or an object", `try { new EventTarget().addEventListener("x", 5); return "no error" } catch (e) { return e.name }`, `"TypeError"`},
		{"cancel", `const t = new EventTarget(); t.addEventListener("x", e => e.preventDefault());
			return [t.dispatchEvent(new Event("x", { cancelable: true })), t.dispatchEvent(new Event("x"))]`, `[false,true]`},
		{"passive cannot cancel", `const t = new EventTarget(); t.addEventListener("x", e => e.preventDefault(), { passive: true });
			return t.dispatchEvent(new Event("x", { cancelable: true }))`, `true`},
		{"stopImmediatePropagation", `const t = new EventTarget(); const seen = [];
			t.addEventListener("x", e => { seen.push(1); e.stopPropagation() });
			t.addEventListener("x", e => { seen.push(2); e.stopImmediatePropagation() });
			t.addEventListener("x", () => seen.push(3));
			const e = new Event("x"); t.dispatchEvent(e); t.dispatchEvent(e); return seen`, `[1,2,1,2]`},
		{"stopped before dispatch", `const t = new EventTarget(); let n = 0; t.addEventListener("x", () => n++);
			const e = new Event("x"); e.stopPropagation(); t.dispatchEvent(e); t.dispatchEvent(e); return n`, `1`},
		{"added during dispatch waits", `const t = new EventTarget(); const seen = [];
			t.addEventListener("x", () => { seen.push("a"); t.addEventListener("x", () => seen.push("late")) });
			t.dispatchEvent(new Event("x")); return seen`, `["a"]`},
		{"removed during dispatch is skipped", `const t = new EventTarget(); const seen = []; const b = () => seen.push("b");
			t.addEventListener("x", () => { seen.push("a"); t.removeEventListener("x", b) }); t.addEventListener("x", b);
			t.dispatchEvent(new Event("x")); return seen`, `["a"]`},
		{"redispatch while dispatching", `const t = new EventTarget(); let err;
			t.addEventListener("x", e => { try { t.dispatchEvent(e) } catch (x) { err = [x.name, x instanceof DOMException] } });
			t.dispatchEvent(new Event("x")); return err`, `["InvalidStateError",true]`},
		{"dispatch needs an Event", `try { new EventTarget().dispatchEvent({ type: "x" }); return "no error" } catch (e) { return e.name }`, `"TypeError"`},
		{"methods need a target", `try { EventTarget.prototype.addEventListener.call({}, "x", () => {}); return "no error" } catch (e) { return e.name }`, `"TypeError"`},
		{"isTrusted", `const t = new EventTarget(); const seen = []; t.addEventListener("x", e => seen.push(e.isTrusted));
			t.dispatchEvent(new Event("x")); internal.dispatchEvent(t, new Event("x")); return seen`, `[false,true]`},
		{"subclass", `class Clock extends EventTarget { tick() { return this.dispatchEvent(new CustomEvent("tick", { detail: 1 })) } }
			const c = new Clock(); let d; c.addEventListener("tick", e => d = e.detail); c.tick(); return [d, c instanceof EventTarget]`, `[1,true]`},
		{"event handler attribute", `class Sock extends EventTarget {} internal.defineEventHandler(Sock.prototype, "message");
			const s = new Sock(); const seen = [];
			s.addEventListener("message", () => seen.push("first"));
			s.onmessage = () => seen.push("handler");
			s.addEventListener("message", () => seen.push("last"));
			s.dispatchEvent(new Event("message"));
			s.onmessage = () => seen.push("replaced");
			s.dispatchEvent(new Event("message"));
			const before = s.onmessage !== null;
			s.onmessage = null;
			s.dispatchEvent(new Event("message"));
			return [seen, before, s.onmessage]`,
			`[["first","handler","last","first","replaced","last","first","last"],true,null]`},
		{"handler returning false cancels", `class T extends EventTarget {} internal.defineEventHandler(T.prototype, "x");
			const t = new T(); t.onx = () => false; return t.dispatchEvent(new Event("x", { cancelable: true }))`, `false`},
		{"global as a target", `internal.initEventTarget(globalThis); let n = 0;
			EventTarget.prototype.addEventListener.call(globalThis, "x", () => n++);
			internal.dispatchEvent(globalThis, new Event("x")); return n`, `1`},
	})
}

func TestListenerExceptionsAreReported(t *testing.T) {
	l := newLogged(t)
	got := jsrttest.MustEval(t, l.iso, `
		const t = new EventTarget(); const seen = [];
		t.addEventListener("x", () => { seen.push(1); throw new RangeError("listener one failed") });
		t.addEventListener("x", { handleEvent: 5 });
		t.addEventListener("x", () => seen.push(3));
		const r = t.dispatchEvent(new Event("x"));
		reportError(new Error("reported by hand"));
		return [r, seen]`)
	if want := `[true,[1,3]]`; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
	log := l.text()
	for _, want := range []string{"Uncaught RangeError: listener one failed", "no handleEvent method", "Uncaught Error: reported by hand", "level=ERROR"} {
		if !strings.Contains(log, want) {
			t.Errorf("log lacks %q:\n%s", want, log)
		}
	}
}

func TestReportedExceptionsFireErrorOnTheGlobal(t *testing.T) {
	l := newLogged(t)
	got := jsrttest.MustEval(t, l.iso, `
		internal.initEventTarget(globalThis);
		const seen = [];
		const onError = e => { seen.push([e.constructor.name, e.message, e.error.message, e.isTrusted]); if (e.error.message === "quiet") e.preventDefault() };
		EventTarget.prototype.addEventListener.call(globalThis, "error", onError);
		reportError(new Error("quiet"));
		reportError(new Error("loud"));
		return seen`)
	if want := `[["ErrorEvent","quiet","quiet",true],["ErrorEvent","loud","loud",true]]`; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
	log := l.text()
	if strings.Contains(log, "quiet") {
		t.Errorf("a canceled error event was still logged:\n%s", log)
	}
	if !strings.Contains(log, "Uncaught Error: loud") {
		t.Errorf("log lacks the uncanceled error:\n%s", log)
	}
}

func TestReportErrorNeedsAnArgument(t *testing.T) {
	iso := jsrttest.New(t, events.Extension)
	if got := jsrttest.MustEval(t, iso, `try { reportError(); return "no error" } catch (e) { return e.name }`); got != `"TypeError"` {
		t.Errorf("got %s, want \"TypeError\"", got)
	}
}
