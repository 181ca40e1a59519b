// HTMLRewriter over a page made here: links moved from /old/ to /new/,
// external links marked, a tracker script dropped, the title replaced.

const PAGE = `<!doctype html>
<html><head><title>Old title</title><script class="tracker">track()</script></head>
<body>
<a href="/old/one">one</a>
<a href="/old/two?x=1">two</a>
<a href="https://elsewhere.example/">away</a>
<p>Keep <b>this</b>.</p>
</body></html>`;

export function rewritten(): Response {
	const source = new Response(PAGE, { headers: { "content-type": "text/html; charset=utf-8" } });
	let links = 0;
	return new HTMLRewriter()
		.on('a[href^="/old/"]', {
			element(el) {
				el.setAttribute("href", el.getAttribute("href")!.replace(/^\/old\//, "/new/"));
				links++;
			},
		})
		.on('a[href^="https://"]', {
			element(el) {
				el.setAttribute("rel", "noopener");
			},
		})
		.on("script.tracker", {
			element(el) {
				el.remove();
			},
		})
		.on("title", {
			element(el) {
				el.setInnerContent("New & improved");
			},
		})
		.onDocument({
			end(end) {
				end.append(`<!-- rewrote ${links} links -->`, { html: true });
			},
		})
		.transform(source);
}
