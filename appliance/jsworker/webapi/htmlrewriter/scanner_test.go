package htmlrewriter

import (
	"bytes"
	"fmt"
	"os"
	"strings"
	"testing"
)

// messy is a page with most of what real pages get wrong or do oddly,
// plus bytes that are not UTF-8.
func messy(t testing.TB) []byte {
	t.Helper()
	b, err := os.ReadFile("testdata/messy.html")
	if err != nil {
		t.Fatal(err)
	}
	return append(b, "<p>latin-1: caf\xe9 \xff\xfe</p>\n<plaintext><b>rest is text</b></p>"...)
}

// scanAll feeds doc to a scanner for regs in chunks of size bytes (all
// at once for 0) and returns the bytes the feeds consumed, in order, and
// a description of the entries that does not depend on the chunking.
func scanAll(t testing.TB, regs []registration, doc []byte, size int) (consumed []byte, events []string) {
	t.Helper()
	s := newScanner(compile(regs))
	var text strings.Builder
	record := func(es []entry, window []byte) {
		attrs := func(e *entry) (out []string) {
			s.eachAttr(e, func(name, value, raw string) {
				if raw == "" {
					raw = name + `="` + value + `"`
				}
				out = append(out, name, value, raw)
			})
			return out
		}
		prev := 0
		for _, e := range es {
			if e.start < prev || e.end < e.start || e.end > len(window) {
				t.Fatalf("entry %+v out of order or outside the window of %d bytes (after %d)", e, len(window), prev)
			}
			prev = e.end
			switch e.kind {
			case entryStart:
				events = append(events, fmt.Sprintf("start %s %q %v %v %q", e.name, attrs(&e), e.selfClosing, e.canHave, window[e.start:e.end]))
			case entryEnd:
				events = append(events, fmt.Sprintf("end %s %d %q", e.name, e.pops, window[e.start:e.end]))
			case entryText:
				if e.text != string(window[e.start:e.end]) && !bytes.HasPrefix(window[e.start:e.end], []byte("<![CDATA[")) {
					t.Fatalf("text %q is not its raw bytes %q", e.text, window[e.start:e.end])
				}
				text.WriteString(e.text)
				if e.last {
					events = append(events, fmt.Sprintf("text %q %v", text.String(), e.regs))
					text.Reset()
				}
			case entryComment:
				events = append(events, fmt.Sprintf("comment %q %v", e.text, e.regs))
			case entryDoctype:
				events = append(events, fmt.Sprintf("doctype %q %q %q", e.doctype.name, e.doctype.publicID, e.doctype.systemID))
			}
		}
	}
	rest := doc
	for size > 0 && len(rest) > 0 {
		n := min(size, len(rest))
		c, es, err := s.feed(rest[:n], false)
		if err != nil {
			t.Fatal(err)
		}
		if c != len(s.window) {
			t.Fatalf("consumed %d of a window of %d", c, len(s.window))
		}
		record(es, s.window)
		consumed = append(consumed, s.window...)
		rest = rest[n:]
	}
	_, es, err := s.feed(rest, true)
	if err != nil {
		t.Fatal(err)
	}
	record(es, s.window)
	consumed = append(consumed, s.window...)
	if _, _, err := s.feed(nil, true); err != errEnded {
		t.Errorf("a feed after the end: got %v, want %v", err, errEnded)
	}
	return consumed, events
}

func mustSelector(t testing.TB, s string) selector {
	t.Helper()
	sel, err := parseSelector(s)
	if err != nil {
		t.Fatal(err)
	}
	return sel
}

// TestChunking feeds the messy page in pieces of every size: the bytes
// all go through once, in order, and the scanner reports the same tags,
// text, comments and doctype as when it gets the page whole.
func TestChunking(t *testing.T) {
	doc := messy(t)
	regs := []registration{
		{sel: mustSelector(t, "*"), kinds: hasElement | hasText | hasComments},
		{sel: mustSelector(t, "a[href], link[rel~=webmention]"), kinds: hasElement},
		{kinds: hasText | hasComments | hasDoctype},
	}
	_, want := scanAll(t, regs, doc, 0)
	if len(want) < 100 {
		t.Fatalf("the whole page gave only %d events:\n%s", len(want), strings.Join(want, "\n"))
	}
	for _, size := range []int{1, 2, 3, 4, 5, 7, 11, 16, 64, 100, 1000, len(doc) - 1, len(doc)} {
		t.Run(fmt.Sprint(size), func(t *testing.T) {
			consumed, got := scanAll(t, regs, doc, size)
			if !bytes.Equal(consumed, doc) {
				t.Fatalf("the feeds consumed\n%q\nwant\n%q", consumed, doc)
			}
			for i := 0; i < len(got) || i < len(want); i++ {
				var g, w string
				if i < len(got) {
					g = got[i]
				}
				if i < len(want) {
					w = want[i]
				}
				if g != w {
					t.Fatalf("event %d:\ngot  %s\nwant %s", i, g, w)
				}
			}
		})
	}
}

// TestTokenizing checks what the scanner makes of the messy page's
// trickier parts.
func TestTokenizing(t *testing.T) {
	regs := []registration{
		{sel: mustSelector(t, "*"), kinds: hasElement},
		{kinds: hasText | hasComments | hasDoctype},
	}
	_, events := scanAll(t, regs, messy(t), 0)
	all := strings.Join(events, "\n")
	for _, want := range []string{
		`doctype "html" "-//W3C//DTD XHTML 1.0 Transitional//EN" "http://www.w3.org/TR/xhtml1/DTD/xhtml1-transitional.dtd"`,
		`comment "?xml version=\"1.0\" encoding=\"UTF-8\"?" [1]`,
		`comment "[if lt IE 9]><script src=\"html5shiv.js\"></script><![endif]" [1]`,
		`start html ["lang" "en-GB" "lang=en-GB"] false true "<HTML lang=en-GB>"`,
		`start link ["rel" "stylesheet" "rel=\"stylesheet\"" "href" "/css/site.css?v=1&x=2" "href=/css/site.css?v=1&x=2"] false false`,
		`start link ["rel" "webmention" "rel=webmention" "href" "https://webmention.io/example/webmention" "href=\"https://webmention.io/example/webmention\""] true false`,
		`text "Tom &amp; Jerry&#39;s <b>blog</b> &mdash; ünïcödé ✓" [1]`,
		"text \"\\n  var s = \\\"<script>alert(1)</scr\\\" + \\\"ipt>\\\";",
		`text "<img src=\"pixel.gif\" alt=\"" [1]`,
		`comment " a comment with -- dashes and <tags> inside " [1]`,
		`comment " x " [1]`,
		`start input ["type" "checkbox" "type=checkbox" "checked" "" "checked" "disabled" "" "disabled" "value" "a &quot;quoted&quot; value" "value=\"a &quot;quoted&quot; value\""] false false`,
		`start input ["value" "it" "value='it'" "'s'" "" "'s'"] false false`,
		`start br [] true false "<br/>"`,
		`start img ["src" "x.png" "src=\"x.png\"" "alt" "" "alt=\"\""] true false`,
		`text "<b>not bold</b> &amp; " [1]`,
		`start circle ["cx" "5" "cx=5" "cy" "5" "cy=5" "r" "4" "r=4"] true false`,
		`start p [] false true "<p>"`,
		`text " raw <data> " [1]`,
		`start a ["href" "/slash/" "href=/slash/"] false true`,
		`start a ["b" "" "b"] false true "<a/b>"`,
		`start div ["a" "1" "a=1" "a" "2" "a=2" "a" "3" "A=3"] false true`,
		`text "Entities: &copy; &#169; &#xA9; &unknown; &amp &lt3 &" [1]`,
		`text "<p>not parsed</p>" [1]`,
		`text "<b>literal</b>" [1]`,
		`comment " 3" [1]`,
		`comment "? pi ?" [1]`,
		`comment "bogus comment" [1]`,
		`comment " trailing comment " [1]`,
		"text \"latin-1: caf\\xe9 \\xff\\xfe\" [1]",
		`text "<b>rest is text</b></p>" [1]`,
	} {
		if !strings.Contains(all, want) {
			t.Errorf("no event like %s", want)
		}
	}
	for _, unwanted := range []string{
		`start div ["class" "tmpl" "class=\"tmpl\""]`, // a template script is still a script
		`start script [] false true "<script>"` + "\n" + `start script`,
	} {
		if strings.Contains(all, unwanted) {
			t.Errorf("an event like %s", unwanted)
		}
	}
	if t.Failed() {
		t.Log(all)
	}
}

// TestLongTokens feeds tokens of a megabyte in small chunks: they come
// through whole, and the bytes tokenized stay within a small multiple of
// the input.
func TestLongTokens(t *testing.T) {
	big := strings.Repeat("x", 1<<20)
	for _, tc := range []struct{ name, doc string }{
		{"attribute", `<p><img src="data:image/png;base64,` + big + `" alt=x></p>`},
		{"comment", "<p><!--" + big + "--></p>"},
		{"escaped script", "<script><!--\n" + big + "\n--></script><p>"},
		{"text", "<p>" + big + "</p>"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			regs := []registration{{sel: mustSelector(t, "p, img"), kinds: hasElement | hasText}, {kinds: hasComments}}
			s := newScanner(compile(regs))
			var consumed []byte
			starts := 0
			for rest := []byte(tc.doc); ; {
				n := min(1024, len(rest))
				_, es, err := s.feed(rest[:n], n == len(rest))
				if err != nil {
					t.Fatal(err)
				}
				for _, e := range es {
					if e.kind == entryStart {
						starts++
					}
				}
				consumed = append(consumed, s.window...)
				rest = rest[n:]
				if len(rest) == 0 {
					break
				}
			}
			if string(consumed) != tc.doc {
				t.Fatalf("the feeds consumed %d bytes, not the %d of the document", len(consumed), len(tc.doc))
			}
			if starts == 0 {
				t.Errorf("no start tag reported")
			}
			if s.scanned > 4*len(tc.doc) {
				t.Errorf("tokenized %d bytes for a document of %d", s.scanned, len(tc.doc))
			}
		})
	}
}
