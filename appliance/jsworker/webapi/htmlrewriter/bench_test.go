package htmlrewriter_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/dwk/fleet/appliance/jsworker/jsrt"
	"github.com/dwk/fleet/appliance/jsworker/jsrt/jsrttest"
	"github.com/dwk/fleet/appliance/jsworker/webapi/encoding"
	"github.com/dwk/fleet/appliance/jsworker/webapi/events"
	"github.com/dwk/fleet/appliance/jsworker/webapi/fetch"
	"github.com/dwk/fleet/appliance/jsworker/webapi/htmlrewriter"
	"github.com/dwk/fleet/appliance/jsworker/webapi/streams"
	"github.com/dwk/fleet/appliance/jsworker/webapi/url"
)

// bigPage is about 1 MiB of a blog-like page: paragraphs, links, images,
// inline scripts and styles. It returns the page and its number of links.
func bigPage() (string, int) {
	var b strings.Builder
	b.WriteString(`<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Archive</title>` +
		`<link rel="stylesheet" href="/site.css"><link rel="webmention" href="https://webmention.io/x/webmention">` +
		`<style>body { font: 16px/1.5 sans-serif } a > b { color: red }</style></head><body><main>`)
	links := 0
	for i := 0; b.Len() < 1<<20; i++ {
		fmt.Fprintf(&b, `<article class="h-entry post" id="post-%d"><h2 class="p-name"><a href="/posts/%d" class="u-url">Post number %d</a></h2>`+
			`<p class="e-content">Some text with <em>emphasis</em> &amp; an entity, and a <a href="https://example.com/%d?ref=archive&amp;n=%d" rel="nofollow">link</a> `+
			`to elsewhere. Ünïcödé text too ✓.</p><img src="/img/%d.jpg" alt="picture %d" loading=lazy><br>`+
			`<ul class="tags"><li><a href="/tags/go">go</a><li><a href="/tags/html">html</a></ul>`+
			`<script>window.stats && stats.push({ id: %d, seen: a < b });</script><!-- end of post %d --></article>`+"\n",
			i, i, i, i, i, i, i, i, i)
		links += 4
	}
	b.WriteString("</main></body></html>")
	return b.String(), links
}

// BenchmarkRewriteLinks collects every a[href] of the page with
// internal.rewriteHTML, the page fed in 16 KiB chunks.
func BenchmarkRewriteLinks(b *testing.B) {
	page, links := bigPage()
	doc, _ := json.Marshal(page)
	iso := jsrttest.New(b, htmlrewriter.Extension, exposeInternal, jsrt.Extension{Name: "page", JS: "global.page = " + string(doc) + ";"})
	body := `const hrefs = [];
const rw = new HTMLRewriter().on("a[href]", { element(el) { hrefs.push(el.getAttribute("href")); } });
const out = await internal.rewriteHTML(rw, page, { chunkSize: 16384 });
return [hrefs.length, out.length === page.length];`
	want := fmt.Sprintf("[%d,true]", links)
	b.SetBytes(int64(len(page)))
	b.ResetTimer()
	defer htmlrewriter.ReportCPU(b, htmlrewriter.CPUTime())
	for range b.N {
		if got := jsrttest.MustEval(b, iso, body); got != want {
			b.Fatalf("got %s, want %s", got, want)
		}
	}
}

// BenchmarkTransformLinks is BenchmarkRewriteLinks through transform()
// and a Response's body stream.
func BenchmarkTransformLinks(b *testing.B) {
	page, links := bigPage()
	doc, _ := json.Marshal(page)
	iso := jsrttest.New(b, events.Extension, encoding.Extension, url.Extension, streams.Extension, fetch.Extension, htmlrewriter.Extension,
		jsrt.Extension{Name: "page", JS: "global.page = new TextEncoder().encode(" + string(doc) + ");"})
	body := `const hrefs = [];
const input = new ReadableStream({ start(c) { for (let i = 0; i < page.length; i += 16384) c.enqueue(page.subarray(i, i + 16384)); c.close(); } });
const rw = new HTMLRewriter().on("a[href]", { element(el) { hrefs.push(el.getAttribute("href")); } });
const out = await rw.transform(new Response(input)).arrayBuffer();
return [hrefs.length, out.byteLength === page.length];`
	want := fmt.Sprintf("[%d,true]", links)
	b.SetBytes(int64(len(page)))
	b.ResetTimer()
	defer htmlrewriter.ReportCPU(b, htmlrewriter.CPUTime())
	for range b.N {
		if got := jsrttest.MustEval(b, iso, body); got != want {
			b.Fatalf("got %s, want %s", got, want)
		}
	}
}

// BenchmarkTransformUntouched streams the page through a rewriter whose
// selector matches nothing: the cost of tokenizing, matching and copying.
func BenchmarkTransformUntouched(b *testing.B) {
	page, _ := bigPage()
	doc, _ := json.Marshal(page)
	iso := jsrttest.New(b, events.Extension, encoding.Extension, url.Extension, streams.Extension, fetch.Extension, htmlrewriter.Extension,
		jsrt.Extension{Name: "page", JS: "global.page = new TextEncoder().encode(" + string(doc) + ");"})
	body := `const input = new ReadableStream({ start(c) { for (let i = 0; i < page.length; i += 16384) c.enqueue(page.subarray(i, i + 16384)); c.close(); } });
const rw = new HTMLRewriter().on("blink", { element(el) { el.remove(); } });
const out = new Uint8Array(await rw.transform(new Response(input)).arrayBuffer());
return out.length === page.length && out[1000] === page[1000];`
	b.SetBytes(int64(len(page)))
	b.ResetTimer()
	defer htmlrewriter.ReportCPU(b, htmlrewriter.CPUTime())
	for range b.N {
		if got := jsrttest.MustEval(b, iso, body); got != "true" {
			b.Fatalf("got %s", got)
		}
	}
}
