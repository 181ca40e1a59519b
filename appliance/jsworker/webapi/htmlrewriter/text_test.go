package htmlrewriter_test

import "testing"

func TestTextChunks(t *testing.T) {
	runCases(t, newIsolate(t), []evalCase{
		{"chunks of an element's text, then an empty last one",
			`const seen = [];
			 await internal.rewriteHTML(new HTMLRewriter().on("p", { text(t) { seen.push([t.text, t.lastInTextNode]); } }),
			   "<p>Hello <b>world</b>!</p>x<p>y</p>");
			 return seen;`,
			`[["Hello ",false],["",true],["world",false],["",true],["!",false],["",true],["y",false],["",true]]`},
		{"text as written",
			`const seen = [];
			 await internal.rewriteHTML(new HTMLRewriter().on("p", { text(t) { seen.push(t.text); } }), "<p>a &amp; b &lt; c<br>d</p>");
			 return seen.join("|");`,
			`"a \u0026amp; b \u0026lt; c||d|"`},
		{"document text sees everything, raw text included",
			`const seen = [];
			 await internal.rewriteHTML(new HTMLRewriter().onDocument({ text(t) { if (t.text) seen.push(t.text); } }),
			   "a<script>if (a < b) { x = '</p>'; }</script><style>p > b {}</style><textarea><b>x</b></textarea><title>&amp;</title>z");
			 return seen;`,
			`["a","if (a \u003c b) { x = '\u003c/p\u003e'; }","p \u003e b {}","\u003cb\u003ex\u003c/b\u003e","\u0026amp;","z"]`},
		{"handlers in registration order",
			`const seen = [];
			 const rw = new HTMLRewriter()
			   .onDocument({ text(t) { if (t.text) seen.push("doc1:" + t.text); } })
			   .on("div", { text(t) { if (t.text) seen.push("div:" + t.text); } })
			   .on("p", { text(t) { if (t.text) seen.push("p:" + t.text); } })
			   .onDocument({ text(t) { if (t.text) seen.push("doc2:" + t.text); } });
			 await internal.rewriteHTML(rw, "<div>a<p>b</p></div>c");
			 return seen;`,
			`["doc1:a","div:a","doc2:a","doc1:b","div:b","p:b","doc2:b","doc1:c","doc2:c"]`},
		{"split across input chunks",
			`const seen = [];
			 await internal.rewriteHTML(new HTMLRewriter().on("p", { text(t) { seen.push([t.text, t.lastInTextNode]); } }),
			   "<p>ĥé😀 a < b</p>", { chunkSize: 3 });
			 const text = seen.map((c) => c[0]).join("");
			 const lasts = seen.filter((c) => c[1]).length;
			 return [text, lasts, seen[seen.length - 1], seen.slice(0, -1).every((c) => c[0] !== "" && !c[1])];`,
			`["ĥé😀 a \u003c b",1,["",true],true]`},
		{"before, after, replace and remove",
			`const rw = new HTMLRewriter().on("p", { text(t) {
			   if (t.lastInTextNode) { t.after("</foo>", { html: true }); t.after("<foo & bar>"); return; }
			   t.before("<span>"); t.before("<div>Hey</div>", { html: true });
			   if (t.removed) throw new Error("removed early");
			   t.replace("<x>"); t.replace("[" + t.text.toUpperCase() + "]", { html: true });
			   if (!t.removed) throw new Error("not removed");
			 } });
			 return await internal.rewriteHTML(rw, "<p>a & b</p><p>c</p>");`,
			`"\u003cp\u003e\u0026lt;span\u0026gt;\u003cdiv\u003eHey\u003c/div\u003e[A \u0026 B]\u0026lt;foo \u0026amp; bar\u0026gt;\u003c/foo\u003e\u003c/p\u003e\u003cp\u003e\u0026lt;span\u0026gt;\u003cdiv\u003eHey\u003c/div\u003e[C]\u0026lt;foo \u0026amp; bar\u0026gt;\u003c/foo\u003e\u003c/p\u003e"`},
		{"remove",
			`return await internal.rewriteHTML(new HTMLRewriter().on("p", { text(t) { t.remove(); } }), "<p>a<b>b</b></p>c");`,
			`"\u003cp\u003e\u003cb\u003e\u003c/b\u003e\u003c/p\u003ec"`},
	})
}

func TestComments(t *testing.T) {
	runCases(t, newIsolate(t), []evalCase{
		{"document and element comments",
			`const doc = [], inP = [];
			 await internal.rewriteHTML(new HTMLRewriter()
			   .onDocument({ comments(c) { doc.push(c.text); } })
			   .on("p", { comments(c) { inP.push(c.text); } }),
			   "<!-- a --><p><!--b--><i><!--c--></i></p><!----><!--><!--->x<!--d--!><?xml v?><!bogus></ 3></>");
			 return [doc, inP];`,
			`[[" a ","b","c","","","","d","?xml v?","bogus"," 3"],["b","c"]]`},
		{"mutations",
			`const rw = new HTMLRewriter().onDocument({ comments(c) {
			   switch (c.text) {
			   case "1": c.text = " one "; break;
			   case "2": c.remove(); if (!c.removed) throw new Error("not removed"); break;
			   case "3": c.replace("<three>"); break;
			   case "4": c.before("<b>", { html: true }); c.after("<a>", { html: true }); break;
			   case "5": try { c.text = "x-->y"; } catch (e) { c.after(e.name + ": " + e.message); } break;
			   }
			 } });
			 return await internal.rewriteHTML(rw, "<!--1--><!--2--><!--3--><!--4--><!--5-->");`,
			`"\u003c!-- one --\u003e\u0026lt;three\u0026gt;\u003cb\u003e\u003c!--4--\u003e\u003ca\u003e\u003c!--5--\u003eTypeError: Parser error: Comment text shouldn't contain a comment-closing sequence."`},
	})
}

func TestDoctype(t *testing.T) {
	runCases(t, newIsolate(t), []evalCase{
		{"names and identifiers",
			`const seen = [];
			 const rw = new HTMLRewriter().onDocument({ doctype(d) { seen.push([d.name, d.publicId, d.systemId]); } });
			 const docs = ["<!DOCTYPE html>", "<!doctype HTML>", "<!DOCTYPE>",
			   '<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Strict//EN" "http://www.w3.org/TR/xhtml1/DTD/xhtml1-strict.dtd">',
			   "<!DOCTYPE html SYSTEM 'about:legacy-compat'>"];
			 const outs = [];
			 for (const d of docs) outs.push(await internal.rewriteHTML(rw, d + "<p>x"));
			 return [seen, outs.every((o, i) => o === docs[i] + "<p>x")];`,
			`[[["html",null,null],["html",null,null],[null,null,null],["html","-//W3C//DTD XHTML 1.0 Strict//EN","http://www.w3.org/TR/xhtml1/DTD/xhtml1-strict.dtd"],["html",null,"about:legacy-compat"]],true]`},
	})
}

func TestDocumentEnd(t *testing.T) {
	runCases(t, newIsolate(t), []evalCase{
		{"append, the last registered first",
			`const rw = new HTMLRewriter()
			   .onDocument({ end(end) { end.append("<1>"); end.append("<2>", { html: true }); } })
			   .onDocument({ async end(end) { await null; end.append("[3]"); } });
			 return await internal.rewriteHTML(rw, "<p>x</p>");`,
			`"\u003cp\u003ex\u003c/p\u003e[3]\u0026lt;1\u0026gt;\u003c2\u003e"`},
		{"inside removed content",
			`const rw = new HTMLRewriter()
			   .on("div", { element(el) { el.remove(); } })
			   .onDocument({ end(end) { end.append("!"); } });
			 return await internal.rewriteHTML(rw, "a<div>b");`,
			`"a!"`},
		{"empty document",
			`return await internal.rewriteHTML(new HTMLRewriter().onDocument({ end(e) { e.append("x"); } }), "");`,
			`"x"`},
	})
}
