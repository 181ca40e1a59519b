package htmlrewriter_test

import (
	"testing"

	"github.com/dwk/fleet/appliance/jsworker/jsrt/jsrttest"
	"github.com/dwk/fleet/appliance/jsworker/webapi/encoding"
	"github.com/dwk/fleet/appliance/jsworker/webapi/events"
	"github.com/dwk/fleet/appliance/jsworker/webapi/fetch"
	"github.com/dwk/fleet/appliance/jsworker/webapi/htmlrewriter"
	"github.com/dwk/fleet/appliance/jsworker/webapi/streams"
	"github.com/dwk/fleet/appliance/jsworker/webapi/url"
)

func TestTransform(t *testing.T) {
	iso := jsrttest.New(t, events.Extension, encoding.Extension, url.Extension, streams.Extension, fetch.Extension, htmlrewriter.Extension, exposeInternal)
	runCases(t, iso, []evalCase{
		{"a string body",
			`const res = new Response('<a href="/x">x</a>', { status: 201, statusText: "Made", headers: { "content-type": "text/html", "content-length": "18", "x-a": "b" } });
			 const out = new HTMLRewriter().on("a", { element(el) { el.setAttribute("href", "/y"); } }).transform(res);
			 return [out instanceof Response, out.status, out.statusText, out.headers.get("x-a"), out.headers.get("content-type"),
			         out.headers.has("content-length"), res.body.locked, await out.text()];`,
			`[true,201,"Made","b","text/html",false,true,"\u003ca href=\"/y\"\u003ex\u003c/a\u003e"]`},
		{"a null body gives the response back",
			`const res = new Response(null, { status: 204 });
			 return new HTMLRewriter().on("a", {}).transform(res) === res;`,
			`true`},
		{"the output streams as the input comes",
			`let source;
			 const input = new ReadableStream({ start(c) { source = c; } });
			 const enc = new TextEncoder();
			 const out = new HTMLRewriter().on("p", { element(el) { el.setAttribute("seen", ""); } })
			   .transform(new Response(input, { headers: { "content-type": "text/html; charset=utf-8" } }));
			 const reader = out.body.getReader();
			 const dec = new TextDecoder();
			 source.enqueue(enc.encode("<p>one</p><p>tw"));
			 const first = dec.decode((await reader.read()).value);
			 source.enqueue(enc.encode("o</p>"));
			 source.close();
			 let rest = "";
			 for (;;) { const r = await reader.read(); if (r.done) break; rest += dec.decode(r.value); }
			 return [first, rest];`,
			`["\u003cp seen=\"\"\u003eone\u003c/p\u003e\u003cp seen=\"\"\u003etw","o\u003c/p\u003e"]`},
		{"one byte at a time",
			`const html = "<!doctype html><title>ĥé😀</title><p class=a>x &amp; y<!-- c --><br/>z</p>";
			 const bytes = new TextEncoder().encode(html);
			 const input = new ReadableStream({ start(c) { for (const b of bytes) c.enqueue(new Uint8Array([b])); c.close(); } });
			 const rw = () => new HTMLRewriter()
			   .on("p", { element(el) { el.setAttribute("class", "b"); }, text(t) { t.replace(t.text.toUpperCase(), { html: true }); } })
			   .on("title", { text(t) { if (t.text) t.after("|"); } })
			   .onDocument({ comments(c) { c.text = "C"; } });
			 const streamed = await rw().transform(new Response(input)).text();
			 const whole = await internal.rewriteHTML(rw(), html);
			 return [streamed, whole.replace(/\|/g, "") === streamed.replace(/\|/g, "")];`,
			`["\u003c!doctype html\u003e\u003ctitle\u003eĥ|é|😀|\u003c/title\u003e\u003cp class=\"b\"\u003eX \u0026AMP; Y\u003c!--C--\u003e\u003cbr/\u003eZ\u003c/p\u003e",true]`},
		{"string chunks",
			`const input = new ReadableStream({ start(c) { c.enqueue("<b>a</b>"); c.enqueue("<i>b</i>"); c.close(); } });
			 return await new HTMLRewriter().on("i", { element(el) { el.remove(); } }).transform(new Response(input)).text();`,
			`"\u003cb\u003ea\u003c/b\u003e"`},
		{"a handler error errors the body and cancels the input",
			`let canceled;
			 const input = new ReadableStream({
			   pull(c) { c.enqueue(new TextEncoder().encode("<a>x</a><b>y</b>")); },
			   cancel(reason) { canceled = reason; },
			 });
			 const out = new HTMLRewriter().on("b", { element() { throw new Error("boom"); } }).transform(new Response(input));
			 try { await out.text(); return "no error"; } catch (e) { return [e.message, canceled && canceled.message]; }`,
			`["boom","boom"]`},
		{"canceling the output cancels the input",
			`let canceled;
			 const input = new ReadableStream({ pull(c) { c.enqueue(new TextEncoder().encode("<p>x</p>")); }, cancel(reason) { canceled = reason; } });
			 const reader = new HTMLRewriter().transform(new Response(input)).body.getReader();
			 await reader.read();
			 await reader.cancel("enough");
			 return canceled;`,
			`"enough"`},
		{"a body that is not bytes",
			`const input = new ReadableStream({ start(c) { c.enqueue(42); c.close(); } });
			 try { await new HTMLRewriter().transform(new Response(input)).text(); return "no error"; } catch (e) { return e.name; }`,
			`"TypeError"`},
		{"transform needs a Response",
			`try { new HTMLRewriter().transform("<p>"); return "no error"; } catch (e) { return [e.name, e.message]; }`,
			`["TypeError","Failed to execute 'transform' on 'HTMLRewriter': parameter 1 is not of type 'Response'."]`},
		{"a used body",
			`const res = new Response(new ReadableStream({ start(c) { c.enqueue(new Uint8Array([60])); c.close(); } }));
			 await res.text();
			 try { new HTMLRewriter().transform(res); return "no error"; } catch (e) { return [e.name, e.message]; }`,
			`["TypeError","This ReadableStream is disturbed (has already been read from), and cannot be used as a body."]`},
	})
}
