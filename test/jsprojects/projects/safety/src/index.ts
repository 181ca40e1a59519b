import { reserve, reserveLater } from "./inventory";

/** spin never returns: only the host's CPU limit ends it. */
function spin(): number {
	let n = 0;
	for (;;) n = (n + 1) % 1_000_000;
}

export default {
	async fetch(req) {
		const url = new URL(req.url);
		const sku = url.searchParams.get("sku") ?? "none";
		switch (url.pathname) {
			case "/safety/ok":
				return new Response("ok");
			case "/safety/spin":
				return new Response(String(spin()));
			case "/safety/throw":
				return Response.json(reserve([], sku));
			case "/safety/throw-later":
				return Response.json(await reserveLater([], sku));
			case "/safety/hang":
				// Nothing will ever settle this promise: no timer, no I/O.
				return new Promise<Response>(() => {});
		}
		return new Response("not found", { status: 404 });
	},
} satisfies ExportedHandler;
