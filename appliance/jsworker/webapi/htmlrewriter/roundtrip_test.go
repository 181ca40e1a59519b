package htmlrewriter_test

import (
	"encoding/json"
	"fmt"
	"os"
	"testing"

	"github.com/dwk/fleet/appliance/jsworker/jsrt/jsrttest"
)

// readers are handlers that look at everything and change nothing.
const readers = `new HTMLRewriter()
  .on("*", {
    element(el) { seen += el.tagName.length + [...el.attributes].length + (el.getAttribute("href") || "").length + el.namespaceURI.length; },
    text(t) { seen += t.text.length; },
    comments(c) { seen += c.text.length; },
  })
  .on("a[href]", { element(el) { if (el.canHaveContent) el.onEndTag((end) => { seen += end.name.length; }); } })
  .onDocument({ doctype(d) { seen += String(d.name).length; }, text(t) { seen += t.text.length; }, comments(c) { seen++; } })`

// writers are handlers that change a bit of everything.
const writers = `new HTMLRewriter()
  .on("a[href]", { element(el) { el.setAttribute("href", "/r?u=" + el.getAttribute("href")); el.prepend("→"); } })
  .on("script", { element(el) { el.remove(); } })
  .on("title", { text(t) { t.replace(t.text.toUpperCase(), { html: true }); } })
  .on("li", { element(el) { el.append(" ·"); el.onEndTag((end) => { end.after("<!--li-->", { html: true }); }); } })
  .on("body", { element(el) { el.append("<script src=/tracker.js></script>", { html: true }); } })
  .on("head", { element(el) { el.prepend("<meta name=injected>", { html: true }); } })
  .on("textarea", { element(el) { el.setInnerContent("<cleared>"); } })
  .onDocument({ comments(c) { c.text = c.text.replace(/-->|--!>|^>|^->/g, ""); }, end(e) { e.append("<!-- end -->", { html: true }); } })`

// TestRoundTrip runs the messy page through handlers that change nothing,
// whole and in pieces: it comes out byte for byte as it went in.
func TestRoundTrip(t *testing.T) {
	page, err := os.ReadFile("testdata/messy.html")
	if err != nil {
		t.Fatal(err)
	}
	doc, _ := json.Marshal(string(page))
	iso := newIsolate(t)
	for _, size := range []int{0, 1, 2, 3, 7, 64, 1000} {
		t.Run(fmt.Sprint(size), func(t *testing.T) {
			got := jsrttest.MustEval(t, iso, fmt.Sprintf(`
let seen = 0;
const out = await internal.rewriteHTML(%s, %s, { chunkSize: %d });
return [out === %s, seen > 1000, out.length];`, readers, doc, size, doc))
			want := fmt.Sprintf("[true,true,%d]", len([]rune(string(page))))
			if got != want {
				t.Errorf("got %s, want %s", got, want)
			}
		})
	}
}

// TestRewriteInPieces rewrites the messy page whole and in pieces of
// every size: the output is the same.
func TestRewriteInPieces(t *testing.T) {
	page, err := os.ReadFile("testdata/messy.html")
	if err != nil {
		t.Fatal(err)
	}
	doc, _ := json.Marshal(string(page))
	iso := newIsolate(t)
	whole := jsrttest.MustEval(t, iso, fmt.Sprintf(`return await internal.rewriteHTML(%s, %s);`, writers, doc))
	var out string
	if err := json.Unmarshal([]byte(whole), &out); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		`<a href="/r?u=/one" rel="me WebMention">→one</A>`,
		"<title>TOM &AMP; JERRY&#39;S <B>BLOG</B> &MDASH; ÜNÏCÖDÉ ✓</title>",
		"<HEAD><meta name=injected>",
		"<li>one ·<!--li--><li>two<ul><li>nested ·</ul><!--li--> ·<!--li--><li>three ·</ul><!--li-->",
		"<!-- 3--> </> <!--? pi ?--> <!--bogus comment-->",
		"<textarea name=t rows=3>&lt;cleared&gt;</textarea>",
		"<!-- a comment with -- dashes and <tags> inside -->\n<!----><!----><!----><!-- x -->",
		"<script src=/tracker.js></script></body>",
		"<!-- trailing comment -->\n<!-- end -->",
	} {
		if !contains(out, want) {
			t.Errorf("the output lacks %q", want)
		}
	}
	if contains(out, "<script>") || contains(out, "alert") {
		t.Errorf("a script survived")
	}
	if t.Failed() {
		t.Log(out)
	}
	for _, size := range []int{1, 2, 3, 5, 64, 1000} {
		t.Run(fmt.Sprint(size), func(t *testing.T) {
			got := jsrttest.MustEval(t, iso, fmt.Sprintf(`return await internal.rewriteHTML(%s, %s, { chunkSize: %d });`, writers, doc, size))
			if got != whole {
				t.Errorf("in pieces of %d:\n%s\nwhole:\n%s", size, got, whole)
			}
		})
	}
}

func contains(s, sub string) bool {
	for i := 0; i+len(sub) <= len(s); i++ {
		if s[i:i+len(sub)] == sub {
			return true
		}
	}
	return false
}
