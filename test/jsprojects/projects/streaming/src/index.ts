import { pullEvents, writerEvents } from "./sse";

/** upper is a TransformStream of text that upper-cases each chunk as it passes. */
function upper(): TransformStream<string, string> {
	return new TransformStream({
		transform(chunk, controller) {
			controller.enqueue(chunk.toUpperCase());
		},
	});
}

function clamp(v: string | null, def: number, max: number): number {
	const n = Number(v ?? def);
	return Number.isFinite(n) && n >= 0 ? Math.min(n, max) : def;
}

export default {
	async fetch(req, env, ctx) {
		const url = new URL(req.url);
		const n = clamp(url.searchParams.get("n"), 5, 100);
		const interval = clamp(url.searchParams.get("interval"), 200, 5000);
		switch (url.pathname) {
			case "/streaming/sse":
				return pullEvents(n, interval);
			case "/streaming/sse-writer":
				return writerEvents(n, interval, ctx);
			case "/streaming/upper": {
				if (req.method !== "POST" || req.body === null) return new Response("POST a body", { status: 400 });
				const out = req.body.pipeThrough(new TextDecoderStream()).pipeThrough(upper()).pipeThrough(new TextEncoderStream());
				return new Response(out, { headers: { "content-type": "text/plain; charset=utf-8" } });
			}
		}
		return new Response("not found", { status: 404 });
	},
} satisfies ExportedHandler;
