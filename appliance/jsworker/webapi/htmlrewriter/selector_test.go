package htmlrewriter_test

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/dwk/fleet/appliance/jsworker/jsrt/jsrttest"
)

// selectorDoc has one element of each shape the selector cases need;
// every element has an id, which the cases list.
const selectorDoc = `<!DOCTYPE html>
<div id=d1 class="a b">
  <p id=p1 class="x">one <a id=a1 href="https://example.com/" rel="me WebMention">l</a></p>
  <p id=p2 lang="en-US" data-x="Hello">two</p>
  <ul id=u1><li id=l1>1<li id=l2 class=b>2<li id=l3>3</ul>
  <section id=s1><span id=sp1></span><em id=em1></em><span id=sp2></span></section>
  <svg id=g1><circle id=c1 /><foreignObject id=f1><p id=p3>in</p></foreignObject></svg>
</div>
<input id=i1 type=TEXT disabled>`

func TestSelectors(t *testing.T) {
	iso := newIsolate(t)
	cases := []struct{ sel, want string }{
		{"*", "d1 p1 a1 p2 u1 l1 l2 l3 s1 sp1 em1 sp2 g1 c1 f1 p3 i1"},
		{"p", "p1 p2 p3"},
		{"P", "p1 p2 p3"},
		{"nav", ""},
		{".b", "d1 l2"},
		{".a.b", "d1"},
		{".c", ""},
		{"#p2", "p2"},
		{"p#p2", "p2"},
		{"div#p2", ""},
		{"[lang]", "p2"},
		{"[nolang]", ""},
		{`[lang="en-US"]`, "p2"},
		{`[lang="en-us"]`, "p2"}, // lang compares case-insensitively
		{`[lang="en-us" s]`, ""},
		{`[data-x="Hello"]`, "p2"},
		{`[data-x="hello"]`, ""},
		{`[data-x="hello" i]`, "p2"},
		{`[data-x='Hello']`, "p2"},
		{`[data-x=Hello]`, "p2"},
		{"[rel~=webmention]", "a1"}, // rel compares case-insensitively
		{"[rel~=me]", "a1"},
		{"[rel~=web]", ""},
		{`[rel~=""]`, ""},
		{`[href^="https:"]`, "a1"},
		{`[href^="http:"]`, ""},
		{`[href$="/"]`, "a1"},
		{`[href$=".org/"]`, ""},
		{`[href*="example"]`, "a1"},
		{`[href*="sample"]`, ""},
		{`[href*=""]`, ""},
		{"[lang|=en]", "p2"},
		{"[lang|=e]", ""},
		{"div p", "p1 p2 p3"},
		{"div > p", "p1 p2"},
		{"body p", ""},
		{"div a", "a1"},
		{"div > a", ""},
		{"p > a", "a1"},
		{"div ul li", "l1 l2 l3"},
		{"div > ul > li", "l1 l2 l3"},
		{"div > li", ""},
		{"li:nth-child(2)", "l2"},
		{"li:first-child", "l1"},
		{"li:nth-child(odd)", "l1 l3"},
		{"li:nth-child(even)", "l2"},
		{"li:nth-child(2n+1)", "l1 l3"},
		{"li:nth-child( -n + 2 )", "l1 l2"},
		{"li:nth-child(n+3)", "l3"},
		{"li:nth-child(0)", ""},
		{"span:nth-of-type(2)", "sp2"},
		{"span:first-of-type", "sp1"},
		{"em:first-of-type", "em1"},
		{"section > :nth-child(2)", "em1"},
		{"section > :first-child", "sp1"},
		{"p:not(.x)", "p2 p3"},
		{"li:not(#l1, #l3)", "l2"},
		{"li:not(.b)", "l1 l3"},
		{":not(div):not(p):not(li):not(ul):not(span):not(em):not(section)", "a1 g1 c1 f1 i1"},
		{"ul > li.b", "l2"},
		{"a, #p2", "a1 p2"},
		{"#p2, a", "a1 p2"},
		{"input[type=text]", "i1"}, // type compares case-insensitively
		{"input[disabled]", "i1"},
		{"svg circle", "c1"},
		{"circle", "c1"},
		{"foreignobject > p", "p3"},
		{"svg > p", ""},
		{"svg p", "p3"},
		{"  p  >  a  ", "a1"},
		{"p/* comment */>a", "a1"},
		{`#\70 2`, "p2"},
	}
	for _, tc := range cases {
		t.Run(tc.sel, func(t *testing.T) {
			sel, _ := json.Marshal(tc.sel)
			doc, _ := json.Marshal(selectorDoc)
			got := jsrttest.MustEval(t, iso, fmt.Sprintf(`
const hits = [];
await internal.rewriteHTML(new HTMLRewriter().on(%s, { element(el) { hits.push(el.getAttribute("id")); } }), %s);
return hits.join(" ");`, sel, doc))
			want, _ := json.Marshal(tc.want)
			if got != string(want) {
				t.Errorf("%s matched %s, want %s", tc.sel, got, want)
			}
		})
	}
}

func TestUnsupportedSelectors(t *testing.T) {
	iso := newIsolate(t)
	cases := []struct{ sel, want string }{
		{"a + b", "Parser error: Unsupported combinator in selector: `+` (sibling combinators) (in the selector \"a + b\")."},
		{"a ~ b", "Parser error: Unsupported combinator in selector: `~` (sibling combinators) (in the selector \"a ~ b\")."},
		{"li:last-child", "Parser error: Unsupported pseudo-class or pseudo-element in selector: \":last-child\" (in the selector \"li:last-child\")."},
		{"p::before", "Parser error: Unsupported pseudo-class or pseudo-element in selector: pseudo-element \"::before\" (in the selector \"p::before\")."},
		{"a:hover", "Parser error: Unsupported pseudo-class or pseudo-element in selector: \":hover\" (in the selector \"a:hover\")."},
		{"li:nth-last-child(1)", "Parser error: Unsupported pseudo-class or pseudo-element in selector: \":nth-last-child()\" (in the selector \"li:nth-last-child(1)\")."},
		{"a:not(b c)", "Parser error: Unsupported pseudo-class or pseudo-element in selector: :not() takes compound selectors only, without combinators (in the selector \"a:not(b c)\")."},
		{"div:has(p)", "Parser error: Unsupported syntax in selector: \":has()\" (in the selector \"div:has(p)\")."},
		{"svg|a", "Parser error: Selectors with explicit namespaces are not supported: \"svg|\" (in the selector \"svg|a\")."},
		{"[xlink|href]", "Parser error: Selectors with explicit namespaces are not supported: attribute selectors with a namespace (in the selector \"[xlink|href]\")."},
		{"", "Parser error: The selector is empty (in the selector \"\")."},
		{"a,", "Parser error: Unexpected end of selector: nothing after the last comma (in the selector \"a,\")."},
		{"div >", "Parser error: Dangling combinator in selector: nothing after \">\" (in the selector \"div >\")."},
		{"> div", "Parser error: Unexpected token in selector: \"> div\" (in the selector \"> div\")."},
		{"[=x]", "Parser error: Missing attribute name in attribute selector (in the selector \"[=x]\")."},
		{"a.", "Parser error: Invalid or unescaped class name in selector: a class selector needs an identifier after . (in the selector \"a.\")."},
		{"a[x", "Parser error: Unexpected end of selector: an attribute selector without its ] (in the selector \"a[x\")."},
		{"a[x=]", "Parser error: Unexpected token in the attribute selector: the value must be an identifier or a quoted string (in the selector \"a[x=]\")."},
		{"a[x=y z]", "Parser error: Unexpected token in the attribute selector: unknown flag \"z\" (i or s) (in the selector \"a[x=y z]\")."},
		{"li:nth-child(foo)", "Parser error: Unexpected token in selector: \"foo\" is not of the form an+b, odd or even (in the selector \"li:nth-child(foo)\")."},
		{"a!", "Parser error: Unexpected token in selector: \"!\" (in the selector \"a!\")."},
	}
	for _, tc := range cases {
		t.Run(tc.sel, func(t *testing.T) {
			sel, _ := json.Marshal(tc.sel)
			got := jsrttest.MustEval(t, iso, fmt.Sprintf(`
try { new HTMLRewriter().on(%s, {}); return "no error"; } catch (e) { return [e.name, e.message]; }`, sel))
			want, _ := json.Marshal([]string{"TypeError", tc.want})
			if got != string(want) {
				t.Errorf("got  %s\nwant %s", got, want)
			}
		})
	}
}
