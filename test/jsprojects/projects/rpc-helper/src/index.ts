import { WorkerEntrypoint } from "cloudflare:workers";

interface Env {
	GREETING: string;
}

/** Helper answers rpc's service binding, by fetch and by RPC. */
export default class Helper extends WorkerEntrypoint<Env> {
	async fetch(req: Request): Promise<Response> {
		const url = new URL(req.url);
		return Response.json({
			worker: "rpc-helper",
			method: req.method,
			url: req.url,
			name: url.searchParams.get("name"),
			body: await req.text(),
			greeting: this.env.GREETING,
		});
	}

	add(a: number, b: number): number {
		return a + b;
	}

	async greet(p: { name: string; at: Date }): Promise<{ text: string; at: Date; seenDate: boolean }> {
		return { text: `${this.env.GREETING}, ${p.name}`, at: new Date(p.at.getTime() + 1000), seenDate: p.at instanceof Date };
	}

	async fail(message: string): Promise<never> {
		throw new RangeError(message);
	}
}
