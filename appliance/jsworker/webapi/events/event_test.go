package events_test

import (
	"testing"

	"github.com/dwk/fleet/appliance/jsworker/jsrt/jsrttest"
	"github.com/dwk/fleet/appliance/jsworker/webapi/events"
)

func TestEventConstructors(t *testing.T) {
	iso := jsrttest.New(t, events.Extension)
	runCases(t, iso, []evalCase{
		{"defaults", `const e = new Event("ping");
			return [e.type, e.bubbles, e.cancelable, e.composed, e.defaultPrevented, e.isTrusted, e.target, e.currentTarget, e.eventPhase, typeof e.timeStamp, e.composedPath()]`,
			`["ping",false,false,false,false,false,null,null,0,"number",[]]`},
		{"init", `const e = new Event("x", { bubbles: true, cancelable: 1, composed: "yes" }); return [e.bubbles, e.cancelable, e.composed]`, `[true,true,true]`},
		{"type is a string", `return new Event(42).type`, `"42"`},
		{"type is required", `try { new Event(); return "no error" } catch (e) { return e.name }`, `"TypeError"`},
		{"init must be an object", `try { new Event("x", 5); return "no error" } catch (e) { return e.name }`, `"TypeError"`},
		{"preventDefault needs cancelable", `const a = new Event("a"); a.preventDefault(); const b = new Event("b", { cancelable: true }); b.preventDefault();
			return [a.defaultPrevented, b.defaultPrevented, b.returnValue]`, `[false,true,false]`},
		{"returnValue and cancelBubble", `const e = new Event("a", { cancelable: true }); e.returnValue = false; e.cancelBubble = true; return [e.defaultPrevented, e.cancelBubble]`, `[true,true]`},
		{"phase constants", `return [Event.NONE, Event.CAPTURING_PHASE, Event.AT_TARGET, Event.BUBBLING_PHASE, new Event("x").AT_TARGET]`, `[0,1,2,3,2]`},
		{"initEvent", `const e = new Event("a"); e.initEvent("b", true, true); return [e.type, e.bubbles, e.cancelable]`, `["b",true,true]`},
		{"toStringTag", `return [Object.prototype.toString.call(new Event("a")), Object.prototype.toString.call(new CloseEvent("close"))]`, `["[object Event]","[object CloseEvent]"]`},
		{"CustomEvent", `const e = new CustomEvent("c", { detail: { n: 1 } }); return [e.detail, new CustomEvent("c").detail, e instanceof Event]`, `[{"n":1},null,true]`},
		{"ErrorEvent", `const err = new Error("boom"); const e = new ErrorEvent("error", { message: "boom", filename: "w.js", lineno: 3, colno: 4, error: err });
			return [e.message, e.filename, e.lineno, e.colno, e.error === err, new ErrorEvent("error").message]`, `["boom","w.js",3,4,true,""]`},
		{"MessageEvent", `const e = new MessageEvent("message", { data: { a: [1] }, origin: "https://x", lastEventId: "7" });
			return [e.data, e.origin, e.lastEventId, e.source, e.ports, new MessageEvent("message").data]`, `[{"a":[1]},"https://x","7",null,[],null]`},
		{"CloseEvent", `const e = new CloseEvent("close", { code: 1000, reason: "bye", wasClean: true }); const d = new CloseEvent("close");
			return [e.code, e.reason, e.wasClean, d.code, d.reason, d.wasClean]`, `[1000,"bye",true,0,"",false]`},
		{"PromiseRejectionEvent", `const p = Promise.reject(1); p.catch(() => {}); const e = new PromiseRejectionEvent("unhandledrejection", { promise: p, reason: 1 });
			return [e.promise === p, e.reason]`, `[true,1]`},
		{"PromiseRejectionEvent needs a promise", `try { new PromiseRejectionEvent("unhandledrejection", {}); return "no error" } catch (e) { return e.name }`, `"TypeError"`},
		{"getters need an Event", `try { Object.getOwnPropertyDescriptor(Event.prototype, "type").get.call({}); return "no error" } catch (e) { return e.name }`, `"TypeError"`},
		{"subclass by apps", `class Ping extends Event { constructor() { super("ping", { cancelable: true }); this.n = 1 } }
			const t = new EventTarget(); let seen; t.addEventListener("ping", e => { seen = [e.n, e instanceof Ping]; e.preventDefault() });
			return [t.dispatchEvent(new Ping()), seen]`, `[false,[1,true]]`},
	})
}
