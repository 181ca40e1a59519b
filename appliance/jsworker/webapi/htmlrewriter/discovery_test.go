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

// discover is how webmention and microsub apps scan a page: endpoints
// from link and a elements with rel values, metadata from meta[property],
// the title's text.
const discover = `
async function discover(res) {
  const found = { webmention: [], microsub: [], meta: {}, title: "" };
  const rewriter = new HTMLRewriter()
    .on('link[rel~="webmention"]', { element(el) { found.webmention.push(["link", el.getAttribute("href")]); } })
    .on('a[rel~="webmention"]', { element(el) { found.webmention.push(["a", el.getAttribute("href")]); } })
    .on("link[rel~=microsub][href]", { element(el) { found.microsub.push(el.getAttribute("href")); } })
    .on("meta[property]", { element(el) { found.meta[el.getAttribute("property")] = el.getAttribute("content"); } })
    .on("head > title", { text(t) { found.title += t.text; } });
  await rewriter.transform(res).arrayBuffer();
  return found;
}`

func TestDiscovery(t *testing.T) {
	iso := jsrttest.New(t, events.Extension, encoding.Extension, url.Extension, streams.Extension, fetch.Extension, htmlrewriter.Extension)
	runCases(t, iso, []evalCase{
		{"endpoints and metadata",
			discover + `
			 const page = '<!doctype html><html><head><title>Post &amp; notes</title>' +
			   '<link rel="stylesheet" href="/s.css"><link rel="WebMention" href="https://example.com/wm">' +
			   '<link rel="webmentions" href="/not"><link rel=microsub href=/microsub><link rel=microsub>' +
			   '<meta property="og:title" content="A post"><meta property=og:image content=/i.png><meta name=description content=d>' +
			   '</head><body><a href="/x" rel="nofollow">x</a><a rel="me webmention" href="">self</a>' +
			   '<a href="/webmention-2" rel=webmention>second</a><p><a rel=webmention>no href</a></body></html>';
			 return await discover(new Response(page, { headers: { "content-type": "text/html" } }));`,
			`{"meta":{"og:image":"/i.png","og:title":"A post"},"microsub":["/microsub"],"title":"Post \u0026amp; notes",` +
				`"webmention":[["link","https://example.com/wm"],["a",""],["a","/webmention-2"],["a",null]]}`},
		{"a page in small chunks",
			discover + `
			 const page = new TextEncoder().encode('<html><head><link href="https://wm.example/ü" rel="webmention">' +
			   '<meta property="og:title" content="Ünïcode">'.repeat(3) + '</head><body>' + '<p><a href="/a">a</a></p>'.repeat(50) +
			   '<a href=/last rel="webmention">last</a></body></html>');
			 const body = new ReadableStream({ start(c) { for (let i = 0; i < page.length; i += 5) c.enqueue(page.slice(i, i + 5)); c.close(); } });
			 const found = await discover(new Response(body));
			 return [found.webmention, found.meta];`,
			`[[["link","https://wm.example/ü"],["a","/last"]],{"og:title":"Ünïcode"}]`},
	})
}
