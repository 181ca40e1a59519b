package htmlrewriter_test

import "testing"

func TestHandlers(t *testing.T) {
	runCases(t, newIsolate(t), []evalCase{
		{"async handlers are awaited in order",
			`const log = [];
			 const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
			 const rw = new HTMLRewriter()
			   .on("a", { async element(el) { log.push("a1 " + el.getAttribute("id")); await sleep(5); el.setAttribute("x", "1"); log.push("a1 done"); } })
			   .on("a", { element(el) { log.push("a2 " + el.getAttribute("x")); } })
			   .on("a", { async text(t) { await sleep(1); if (t.text) { log.push("text " + t.text); t.replace(t.text.toUpperCase()); } } })
			   .onDocument({ async end(end) { await sleep(1); log.push("end"); end.append("!"); } });
			 const out = await internal.rewriteHTML(rw, '<a id=1>one</a><a id=2>two</a>');
			 return [out, log];`,
			`["\u003ca id=1 x=\"1\"\u003eONE\u003c/a\u003e\u003ca id=2 x=\"1\"\u003eTWO\u003c/a\u003e!",` +
				`["a1 1","a1 done","a2 1","text one","a1 2","a1 done","a2 1","text two","end"]]`},
		{"async onEndTag",
			`const rw = new HTMLRewriter().on("p", { element(el) {
			   el.onEndTag(async (end) => { await new Promise((r) => setTimeout(r, 1)); end.before("!"); });
			 } });
			 return await internal.rewriteHTML(rw, "<p>a</p><p>b</p>");`,
			`"\u003cp\u003ea!\u003c/p\u003e\u003cp\u003eb!\u003c/p\u003e"`},
		{"this is the handlers object",
			`const handlers = { n: 7, element(el) { el.setAttribute("n", this.n); }, text(t) { if (t.lastInTextNode) t.after(String(this.n)); } };
			 const rw = new HTMLRewriter().on("p", handlers).onDocument({ m: 8, end(e) { e.append(String(this.m)); } });
			 return await internal.rewriteHTML(rw, "<p>a</p>");`,
			`"\u003cp n=\"7\"\u003ea7\u003c/p\u003e8"`},
		{"handler functions are read when registered",
			`const handlers = { element(el) { el.setAttribute("v", 1); } };
			 const rw = new HTMLRewriter().on("p", handlers);
			 handlers.element = (el) => { el.setAttribute("v", 2); };
			 return await internal.rewriteHTML(rw, "<p>a</p>");`,
			`"\u003cp v=\"1\"\u003ea\u003c/p\u003e"`},
		{"tokens are valid only during their handler",
			`let kept, keptAsync, attrs;
			 const rw = new HTMLRewriter()
			   .on("p", { element(el) { kept = el; attrs = el.attributes; } })
			   .on("i", { async element(el) { await null; el.setAttribute("still", "valid"); keptAsync = el; } });
			 const out = await internal.rewriteHTML(rw, "<p>a</p><i>b</i>");
			 const errs = [];
			 for (const f of [() => kept.tagName, () => kept.setAttribute("a", "b"), () => keptAsync.remove()]) {
			   try { f(); errs.push("no error"); } catch (e) { errs.push(e.name + ": " + e.message); }
			 }
			 return [out, errs[0] === errs[1] && errs[1] === errs[2], errs[0], [...attrs]];`,
			`["\u003cp\u003ea\u003c/p\u003e\u003ci still=\"valid\"\u003eb\u003c/i\u003e",true,` +
				`"TypeError: This content token is no longer valid. Content tokens are only valid during the execution of the relevant content handler.",[]]`},
		{"a throwing handler fails the rewrite",
			`const rw = new HTMLRewriter().on("b", { element() { throw new RangeError("boom"); } });
			 try { await internal.rewriteHTML(rw, "<a>x</a><b>y</b>"); return "no error"; } catch (e) { return [e.name, e.message]; }`,
			`["RangeError","boom"]`},
		{"a rejecting handler fails the rewrite",
			`const rw = new HTMLRewriter().onDocument({ async text(t) { if (t.text === "y") throw new Error("async boom"); } });
			 try { await internal.rewriteHTML(rw, "<a>x</a><b>y</b>"); return "no error"; } catch (e) { return e.message; }`,
			`"async boom"`},
		{"a rewriter runs again",
			`const rw = new HTMLRewriter().on("p", { element(el) { el.append("!"); } });
			 return [await internal.rewriteHTML(rw, "<p>a</p>"), await internal.rewriteHTML(rw, "<p>b</p>")];`,
			`["\u003cp\u003ea!\u003c/p\u003e","\u003cp\u003eb!\u003c/p\u003e"]`},
		{"chunks given as an array",
			`const seen = [];
			 const rw = new HTMLRewriter().on("p", { element(el) { el.setAttribute("k", el.getAttribute("class")); }, text(t) { seen.push(t.text); } });
			 return [await internal.rewriteHTML(rw, ["<p cla", "ss=x>a", "b</p>"]), seen];`,
			`["\u003cp class=x k=\"x\"\u003eab\u003c/p\u003e",["a","b",""]]`},
		{"on and onDocument return the rewriter",
			`const rw = new HTMLRewriter(); return [rw.on("p", {}) === rw, rw.onDocument({}) === rw, Object.prototype.toString.call(rw)];`,
			`[true,true,"[object HTMLRewriter]"]`},
		{"handlers must be objects of functions",
			`const errs = [];
			 for (const f of [() => new HTMLRewriter().on("p", null), () => new HTMLRewriter().on("p", { element: 1 }),
			                  () => new HTMLRewriter().onDocument({ end: "x" }), () => new HTMLRewriter().onDocument(5)]) {
			   try { f(); errs.push("no error"); } catch (e) { errs.push(e.name + ": " + e.message); }
			 }
			 return errs;`,
			`["TypeError: Failed to execute 'on' on 'HTMLRewriter': the handlers must be an object.",` +
				`"TypeError: Failed to execute 'on' on 'HTMLRewriter': the element handler must be a function.",` +
				`"TypeError: Failed to execute 'onDocument' on 'HTMLRewriter': the end handler must be a function.",` +
				`"TypeError: Failed to execute 'onDocument' on 'HTMLRewriter': the handlers must be an object."]`},
		{"invalid names",
			`const errs = [];
			 const rw = new HTMLRewriter().on("p", { element(el) {
			   for (const f of [() => { el.tagName = ""; }, () => { el.tagName = "1p"; }, () => { el.tagName = "a b"; },
			                    () => el.setAttribute("", "x"), () => el.setAttribute("a=b", "x"), () => el.setAttribute("a/", "x")]) {
			     try { f(); errs.push("no error"); } catch (e) { errs.push(e.message); }
			   }
			 } });
			 const out = await internal.rewriteHTML(rw, "<p>x</p>");
			 return [out, errs];`,
			"[\"\\u003cp\\u003ex\\u003c/p\\u003e\",[\"Parser error: Tag name can't be empty.\"," +
				"\"Parser error: The first character of the tag name should be an ASCII alphabetical character.\"," +
				"\"Parser error: ` ` character is forbidden in the tag name\"," +
				"\"Parser error: Attribute name can't be empty.\"," +
				"\"Parser error: `=` character is forbidden in the attribute name\"," +
				"\"Parser error: `/` character is forbidden in the attribute name\"]]"},
		{"content must be text, not streams",
			`const rw = new HTMLRewriter().on("p", { element(el) {
			   try { el.append(new Response("x")); } catch (e) { el.after(e.message); }
			   try { el.append("x", "html"); } catch (e) { el.before(e.message); }
			 } });
			 globalThis.Response = class Response {};
			 try { return await internal.rewriteHTML(rw, "<p></p>"); } finally { delete globalThis.Response; }`,
			`"The content options must be an object such as { html: true }.\u003cp\u003e\u003c/p\u003eReplacing HTML content using a ReadableStream or Response object is not implemented. You must provide a string."`},
		{"the same element for several selectors",
			`const rw = new HTMLRewriter()
			   .on("p", { element(el) { el.setAttribute("a", "1"); } })
			   .on(".c", { element(el) { el.setAttribute("b", el.getAttribute("a")); el.before("[" + el.tagName + "]"); } })
			   .on("p.c", { element(el) { el.tagName = "div"; } });
			 return await internal.rewriteHTML(rw, "<p class=c>x</p>");`,
			`"[p]\u003cdiv class=c a=\"1\" b=\"1\"\u003ex\u003c/div\u003e"`},
	})
}
