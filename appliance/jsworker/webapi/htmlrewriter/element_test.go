package htmlrewriter_test

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/dwk/fleet/appliance/jsworker/jsrt/jsrttest"
)

// elementCase runs handler (the body of element(el)) on the elements sel
// matches in html, beside lol-html's test handler for inner-remove-me
// elements, whose insertions must disappear with removed content.
type elementCase struct {
	name, html, sel, handler, want string
}

func runElementCases(t *testing.T, cases []elementCase) {
	t.Helper()
	iso := newIsolate(t)
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			html, _ := json.Marshal(tc.html)
			sel, _ := json.Marshal(tc.sel)
			got, err := jsrttest.Eval(iso, fmt.Sprintf(`
const rw = new HTMLRewriter()
  .on(%s, { element(el) { %s } })
  .on("inner-remove-me", { element(el) {
    el.before("[before: should be removed]");
    el.after("[after: should be removed]");
    el.append("[append: should be removed]");
  } });
return await internal.rewriteHTML(rw, %s);`, sel, tc.handler, html))
			if err != nil {
				t.Fatalf("eval: %v", err)
			}
			var out string
			if err := json.Unmarshal([]byte(got), &out); err != nil {
				t.Fatalf("result %s: %v", got, err)
			}
			if out != tc.want {
				t.Errorf("got  %s\nwant %s", out, tc.want)
			}
		})
	}
}

// TestElementMutations follows lol-html's element tests.
func TestElementMutations(t *testing.T) {
	const attrs = `<a a1='foo " baré " baz' / a2="foo ' bar ' baz" a3=foo/bar a4></a>`
	runElementCases(t, []elementCase{
		{"before", "<div><span>ĥi</span></div>", "span",
			`el.before("<imgĤ>", { html: true }); el.before("<imgĤ>");`,
			"<div><imgĤ>&lt;imgĤ&gt;<span>ĥi</span></div>"},
		{"prepend", "<div><span>ĥi</span></div>", "span",
			`el.prepend("<imgĤ>", { html: true }); el.prepend("<imgĤ>");`,
			"<div><span>&lt;imgĤ&gt;<imgĤ>ĥi</span></div>"},
		{"append", "<div><span>ĥi</span></div>", "span",
			`el.append("<imgĤ>", { html: true }); el.append("<imgĤ>", { html: false });`,
			"<div><span>ĥi<imgĤ>&lt;imgĤ&gt;</span></div>"},
		{"after", "<div><span>ĥi</span></div>", "span",
			`el.after("<imgĤ>", { html: true }); el.after("<imgĤ>");`,
			"<div><span>ĥi</span>&lt;imgĤ&gt;<imgĤ></div>"},
		{"setInnerContent as text", "<div><span>Hi<inner-remove-me>RemoveŴ</inner-remove-me></span></div>", "span",
			`el.prepend("<prepended>", { html: true }); el.append("<appended>", { html: true });
			 el.setInnerContent("<imgŵ>", { html: true }); el.setInnerContent("<imgŵ>");`,
			"<div><span>&lt;imgŵ&gt;</span></div>"},
		{"setInnerContent as html", "<div><span>Hi<inner-remove-me>RemoveŴ</inner-remove-me></span></div>", "span",
			`el.prepend("<prepended>", { html: true }); el.append("<appended>", { html: true });
			 el.setInnerContent("<imgŵ>"); el.setInnerContent("<imgŵ>", { html: true });`,
			"<div><span><imgŵ></span></div>"},
		{"replace as text", "<div><span>Hi<inner-remove-me>Remove㘗</inner-remove-me></span></div>", "span",
			`el.prepend("<prepended>", { html: true }); el.append("<appended>", { html: true });
			 el.replace("<img㘘>", { html: true }); el.replace("<img㘘>");
			 if (!el.removed) throw new Error("not removed");`,
			"<div>&lt;img㘘&gt;</div>"},
		{"replace as html", "<div><span>Hi<inner-remove-me>Remove㘗</inner-remove-me></span></div>", "span",
			`el.prepend("<prepended>", { html: true }); el.append("<appended>", { html: true });
			 el.replace("<img㘘>"); el.replace("<img㘘>", { html: true });`,
			"<div><img㘘></div>"},
		{"remove", "<div><span㗵>Hi<inner-remove-me>Remove</inner-remove-me></span㗵></div>", "span㗵",
			`el.prepend("<prepended>", { html: true }); el.append("<appended>", { html: true }); el.remove();
			 if (!el.removed) throw new Error("not removed");`,
			"<div></div>"},
		{"remove with an unfinished end tag", "<div><span㚴>Heello</span㚴  ", "span㚴", `el.remove();`, "<div>"},
		{"removeAndKeepContent", "<div><spanЫ>Hi</spanЫ></div>", "spanЫ",
			`el.prepend("<prepended>", { html: true }); el.append("<appended>", { html: true }); el.removeAndKeepContent();
			 if (!el.removed) throw new Error("not removed");`,
			"<div><prepended>Hi<appended></div>"},
		{"void element", "<img><span>Hi</span></img>", "img",
			`el.after("<!--after-->", { html: true }); el.append("<!--append-->", { html: true });
			 el.prepend("<!--prepend-->", { html: true }); el.setInnerContent("<!--set_inner_content-->", { html: true });
			 el.tagName = "img-foo";
			 if (el.canHaveContent) throw new Error("img has content");`,
			"<img-foo><!--after--><span>Hi</span></img>"},
		{"self-closing foreign element", "<svg><foo/>Hi</foo></svg>", "foo",
			`el.after("->", { html: true }); el.after("er-", { html: true }); el.after("t", { html: true });
			 el.after("af", { html: true }); el.after("<!--", { html: true }); el.tagName = "bar";
			 if (!el.selfClosing || el.canHaveContent) throw new Error("foo/ has content");`,
			"<svg><bar/><!--after-->Hi</foo></svg>"},
		{"self-closing HTML element has content", "<div/>x</div>", "div",
			`if (!el.selfClosing || !el.canHaveContent) throw new Error("div/ has no content"); el.append("!");`,
			"<div/>x!</div>"},
		{"attributes as written", attrs, "a",
			`const got = [el.getAttribute("a1"), el.getAttribute("A3"), el.getAttribute("a4"), el.getAttribute("a5"), el.hasAttribute("a2"), el.hasAttribute("a5")];
			 const want = ['foo " baré " baz', "foo/bar", "", null, true, false];
			 if (JSON.stringify(got) !== JSON.stringify(want)) throw new Error(JSON.stringify(got));
			 if (JSON.stringify([...el.attributes]) !== JSON.stringify([["a1", 'foo " baré " baz'], ["a2", "foo ' bar ' baz"], ["a3", "foo/bar"], ["a4", ""]])) throw new Error(JSON.stringify([...el.attributes]));`,
			attrs},
		{"character references stay", `<a href="?a=1&amp;b=2" title='&lt;'>x</a>`, "a",
			`if (el.getAttribute("href") !== "?a=1&amp;b=2" || el.getAttribute("title") !== "&lt;") throw new Error("decoded");`,
			`<a href="?a=1&amp;b=2" title='&lt;'>x</a>`},
		{"rename", attrs, "a", `el.tagName = "div"; if (el.tagName !== "div") throw new Error(el.tagName);`,
			`<div a1='foo " baré " baz' a2="foo ' bar ' baz" a3=foo/bar a4></div>`},
		{"tagName is lower case", "<DiV>x</DiV>", "div", `if (el.tagName !== "div") throw new Error(el.tagName); el.tagName = "SeCtion"; if (el.tagName !== "section") throw new Error(el.tagName);`,
			"<SeCtion>x</SeCtion>"},
		{"set a quoted attribute", attrs, "a", `el.setAttribute("a2", "foo ' bar ' baz42");`,
			`<a a1='foo " baré " baz' a2="foo ' bar ' baz42" a3=foo/bar a4></a>`},
		{"set an unquoted attribute", attrs, "a", `el.setAttribute("a3", "foo/bar42");`,
			`<a a1='foo " baré " baz' a2="foo ' bar ' baz" a3="foo/bar42" a4></a>`},
		{"set a valueless attribute", attrs, "a", `el.setAttribute("A4", 42);`,
			`<a a1='foo " baré " baz' a2="foo ' bar ' baz" a3=foo/bar a4="42"></a>`},
		{"add an attribute", attrs, "a", `el.setAttribute("a5", "42'\"42");`,
			`<a a1='foo " baré " baz' a2="foo ' bar ' baz" a3=foo/bar a4 a5="42'&quot;42"></a>`},
		{"remove a missing attribute", attrs, "a", `el.removeAttribute("a5");`, attrs},
		{"remove every attribute", attrs, "a", `for (const n of ["a1", "a2", "a3", "a4"]) el.removeAttribute(n);`, "<a></a>"},
		{"self-closing after a valueless attribute", "<img a1=42 a2 />", "img", `el.setAttribute("a1", "foo");`, `<img a1="foo" a2 />`},
		{"self-closing without attributes", "<img a1 />", "img", `el.removeAttribute("a1");`, "<img/>"},
		{"value ending in a slash", "<img path=//>", "img",
			`if (el.getAttribute("path") !== "//" || el.selfClosing) throw new Error("misread"); el.setAttribute("slash", "/");`,
			`<img path=// slash="/">`},
		{"before and prepend", attrs, "a",
			`el.before("<span>"); el.before("<div>Hey</div>", { html: true }); el.before("<foo>", { html: true });
			 el.prepend("</foo>", { html: true }); el.prepend("<!-- 42 -->", { html: true }); el.prepend("<foo & bar>");`,
			"&lt;span&gt;<div>Hey</div><foo>" + attrs[:len(attrs)-4] + "&lt;foo &amp; bar&gt;<!-- 42 --></foo></a>"},
		{"after and append", attrs, "a",
			`el.append("<span>"); el.append("<div>Hey</div>", { html: true }); el.append("<foo>", { html: true });
			 el.after("</foo>", { html: true }); el.after("<!-- 42 -->", { html: true }); el.after("<foo & bar>");`,
			attrs[:len(attrs)-4] + "&lt;span&gt;<div>Hey</div><foo></a>&lt;foo &amp; bar&gt;<!-- 42 --></foo>"},
		{"removed, then before and after", attrs, "a",
			`if (el.removed) throw new Error("removed early"); el.remove(); el.before("<before>", { html: true }); el.after("<after>", { html: true });`,
			"<before><after>"},
		{"replaced with text", attrs, "a",
			`el.before("<before>", { html: true }); el.after("<after>", { html: true });
			 el.replace("<div></div>", { html: true }); el.replace("<!--42-->", { html: true }); el.replace("<foo & bar>");`,
			"<before>&lt;foo &amp; bar&gt;<after>"},
		{"content is a string", "<p>x</p>", "p", `el.append(42); el.append(null); el.prepend({ toString() { return "<o>"; } });`, "<p>&lt;o&gt;x42null</p>"},
		{"removed content drops nested handlers' output", "<div><p>a<b>b</b></p>c</div>", "p, b",
			`if (el.tagName === "p") el.remove(); else { if (!el.removed) throw new Error("nested start not removed"); el.before("X"); el.append("Y"); }`,
			"<div>c</div>"},
	})
}

// TestElementForeignContent follows lol-html's tests of namespaces and
// raw text in SVG and MathML.
func TestElementForeignContent(t *testing.T) {
	runElementCases(t, []elementCase{
		{"style in math is not raw text",
			"<math><style><img></style></math>\n<textarea><!--</textarea><img>--></textarea>\n<div><style><img></style></div>",
			"img", `el.tagName = "TROUBLE";`,
			"<math><style><TROUBLE></style></math>\n<textarea><!--</textarea><TROUBLE>--></textarea>\n<div><style><img></style></div>"},
		{"p leaves svg", "<svg><p><style><!--</style><img>--></style>", "img", `el.tagName = "BINGO";`,
			"<svg><p><style><!--</style><BINGO>--></style>"},
		{"noscript is raw text", `<noscript><p alt="</noscript><img>">`, "img", `el.tagName = "we-have-scripts";`,
			`<noscript><p alt="</noscript><we-have-scripts>">`},
		{"end p leaves svg", `<svg></p><style><a id="</style><img>">`, "img,a", `el.tagName = "HIT";`,
			`<svg></p><style><a id="</style><HIT>">`},
		{"br and font leave math", "<math><br><style><a id=\"</style><img>\">\n<math><font kolor/><style><a/></style><body><style><a/></style></math>\n<math><font COLOR/><style><a/></style>",
			"img,a", `el.tagName = "HIT";`,
			"<math><br><style><a id=\"</style><HIT>\">\n<math><font kolor/><style><HIT/></style><body><style><a/></style></math>\n<math><font COLOR/><style><a/></style>"},
		{"mtext holds HTML", `<math><mtext><br/></mtext><style><a id="</style><img>">`, "img,a", `el.tagName = "HIT";`,
			`<math><mtext><br/></mtext><style><HIT id="</style><img>">`},
		{"self-closing script in svg", "<svG><sCript/><img></script></svg>", "img", `el.tagName = "HIT";`,
			"<svG><sCript/><HIT></script></svg>"},
		{"annotation-xml encodings",
			"<math><annotation-xml encoding=\"nope/html\"><style><img></style></annotation-xml></math>\n<math><annotation-xml encoding=\"text/HTML\"><style><img></style></annotation-xml></math>",
			"img", `el.tagName = "XML";`,
			"<math><annotation-xml encoding=\"nope/html\"><style><XML></style></annotation-xml></math>\n<math><annotation-xml encoding=\"text/HTML\"><style><img></style></annotation-xml></math>"},
		{"svg integration points", "<svg><desc>d</desc><title>t</title><foreignObject></foreignObject></svg>",
			"desc,title,foreignobject", `el.setAttribute("hit", "");`,
			`<svg><desc hit="">d</desc><title hit="">t</title><foreignObject hit=""></foreignObject></svg>`},
		{"math integration points", "<math><mi>x</mi><mo>+</mo><mn>1</mn><annotation-xml></annotation-xml></math>",
			"mi,mo,mn,annotation-xml", `el.setAttribute("hit", "");`,
			`<math><mi hit="">x</mi><mo hit="">+</mo><mn hit="">1</mn><annotation-xml hit=""></annotation-xml></math>`},
		{"math p", `<math><p></p><style><!--</style><img src/onerror>--></style></math>`, "a,img", `el.tagName = "A";`,
			`<math><p></p><style><!--</style><A src onerror>--></style></math>`},
		{"namespaces", "<script></script><svg><script></script><foreignObject><script></script></foreignObject></svg><math><script></script></math>",
			"script", `el.setAttribute("ns", el.namespaceURI);`,
			`<script ns="http://www.w3.org/1999/xhtml"></script><svg><script ns="http://www.w3.org/2000/svg"></script>` +
				`<foreignObject><script ns="http://www.w3.org/1999/xhtml"></script></foreignObject></svg>` +
				`<math><script ns="http://www.w3.org/1998/Math/MathML"></script></math>`},
	})
}

// TestEndTags covers onEndTag, end tags that close several elements and
// implied end tags.
func TestEndTags(t *testing.T) {
	runElementCases(t, []elementCase{
		{"onEndTag", "<div>foo</div>", "div",
			`el.onEndTag(function (end) { end.before("Y", { html: true }); });
			 el.onEndTag((end) => { if (end.name !== "div") throw new Error(end.name); end.before("<Z>", { html: true }); end.after("<A>"); });`,
			"<div>foo<Z></div>&lt;A&gt;"},
		{"end tag rename and remove", "<div>foo</DIV><p>bar</p>", "div, p",
			`el.onEndTag((end) => { if (end.name === "div") end.name = "SECTION"; else end.remove(); });`,
			"<div>foo</SECTION><p>bar"},
		{"element rename renames the end tag", "<div>foo</DIV>", "div", `el.tagName = "Section";`, "<Section>foo</Section>"},
		{"element append with onEndTag", "<div>foo</div>", "div",
			`el.append("[a]"); el.after("[b]"); el.onEndTag((end) => { end.before("[c]"); end.after("[d]"); });`,
			"<div>foo[a][c]</div>[d][b]"},
		{"onEndTag of a void element", "<br>", "br",
			`try { el.onEndTag(() => {}); } catch (e) { el.after(e.name + ": " + e.message); }`,
			"<br>TypeError: Parser error: br can't have content"},
		{"onEndTag needs a function", "<p></p>", "p",
			`try { el.onEndTag("no"); } catch (e) { el.after(e.name); }`,
			"<p></p>TypeError"},
		{"an end tag closes unclosed elements", "<div><div class=c>…<unclosed class=c></div> <unclosed class=c></div>", "*",
			`const tag = el.tagName; el.before("*" + tag);
			 el.onEndTag((end) => { end.before("*" + tag + "+"); end.after("/*" + tag); });`,
			"*div<div>*div<div class=c>…*unclosed<unclosed class=c>*unclosed+*div+</div>/*div/*unclosed *unclosed<unclosed class=c>*unclosed+*div+</div>/*div/*unclosed"},
		{"unclosed elements at the end get no end tag handler", "<div><p>x", "*",
			`el.onEndTag(() => { throw new Error("called"); }); el.append("[lost]");`,
			"<div><p>x"},
		{"implied end of a list item", "<ul><li>a<li>b</ul>", "li",
			`el.append("!"); el.onEndTag((end) => { end.after("[" + end.name + "]"); });`,
			"<ul><li>a![li]<li>b!</ul>[ul]"},
		{"implied end of a paragraph", "<p>one<div>two</div><p>three", "p",
			`el.append("."); el.after("|");`,
			"<p>one.|<div>two</div><p>three"},
		{"renamed element with an implied end", "<ul><li>a<li>b</ul>", "li:first-child", `el.tagName = "div";`,
			"<ul><div>a</div><li>b</ul>"},
		{"removed element with an implied end", "<dl><dt>a<dd>b<dt>c</dl>", "dd", `el.remove();`,
			"<dl><dt>a<dt>c</dl>"},
		// Implied ends are one per element; a written end tag that closes
		// several carries the end-tag content of the outermost, as in
		// lol-html.
		{"table cells and rows", "<table><tr><td>1<td>2<tr><td>3</table>", "td, tr",
			`el.setAttribute("n", el.tagName); el.append(el.tagName === "td" ? ";" : "|");`,
			`<table><tr n="tr"><td n="td">1;<td n="td">2;|<tr n="tr"><td n="td">3|</table>`},
		{"options", "<select><option>a<option>b<optgroup><option>c</select>", "option, optgroup",
			`el.append(el.tagName === "option" ? "." : "|");`,
			"<select><option>a.<option>b.<optgroup><option>c|</select>"},
		{"head closed by body", "<html><head><title>t</title><body><p>x</body></html>", "head",
			`el.append("<meta>", { html: true });`,
			"<html><head><title>t</title><meta><body><p>x</body></html>"},
		{"an end tag with no open element is ignored", "<div></p></span>x</div>", "div", `el.append("!");`,
			"<div></p></span>x!</div>"},
	})
}
