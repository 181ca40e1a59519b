import type Helper from "../../rpc-helper/src/index";
import { Vault, type Sample } from "./vault";

export { Vault };

interface Env {
	VAULTS: DurableObjectNamespace<Vault>;
	HELPER: Service<Helper>;
}

const json = (v: unknown, status = 200) => Response.json(v, { status });

/** plain makes RPC results JSON: Dates as {date}, Maps as {map}. */
function plain(v: unknown): unknown {
	if (v instanceof Date) return { date: v.toISOString() };
	if (v instanceof Map) return { map: [...v].map(([k, x]) => [plain(k), plain(x)]) };
	if (v instanceof Set) return { set: [...v].map(plain) };
	if (Array.isArray(v)) return v.map(plain);
	if (v !== null && typeof v === "object") return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, plain(x)]));
	return v;
}

async function caught(p: Promise<unknown>): Promise<Response> {
	try {
		return json({ ok: plain(await p) });
	} catch (e) {
		const err = e as Error;
		return json({ error: { message: err.message, isError: err instanceof Error } });
	}
}

const vaultRoute = new URLPattern({ pathname: "/rpc/vault/:name/:op" });
const svcRoute = new URLPattern({ pathname: "/rpc/svc/:op" });

export default {
	async fetch(req, env) {
		const url = new URL(req.url);
		const v = vaultRoute.exec(url);
		if (v !== null) {
			const { name, op } = v.pathname.groups as { name: string; op: string };
			const vault = env.VAULTS.getByName(name);
			const text = req.method === "POST" ? await req.text() : "";
			const body = text === "" ? undefined : JSON.parse(text);
			switch (op) {
				case "roundtrip": {
					const s: Sample = {
						when: new Date(body.when),
						tags: new Map(Object.entries(body.tags as Record<string, number>)),
						nested: { list: body.list, flags: new Set(body.flags as string[]) },
					};
					// The stub's types flatten Maps and Dates; the values that come back are the real ones.
					const r = (await vault.describe(s)) as unknown as Awaited<ReturnType<Vault["describe"]>>;
					return json({ ...(plain(r) as object), laterIsDate: r.later instanceof Date, invertedIsMap: r.inverted instanceof Map });
				}
				case "fail":
					return caught(vault.fail(url.searchParams.get("message") ?? "refused"));
				case "put":
					return caught(vault.put(body));
				case "get":
					return caught(vault.get(url.searchParams.getAll("key")));
				case "list": {
					const q = url.searchParams;
					const opts: DurableObjectListOptions = {};
					for (const k of ["prefix", "start", "end"] as const) if (q.has(k)) opts[k] = q.get(k)!;
					if (q.has("limit")) opts.limit = Number(q.get("limit"));
					if (q.has("reverse")) opts.reverse = q.get("reverse") === "true";
					return caught(vault.list(opts));
				}
				case "delete":
					return caught(vault.remove(body));
				case "stamp":
					return caught(vault.stamp("stamp", new Date(body.at)));
				case "transfer":
					return caught(vault.transfer(body.from, body.to, body.amount));
				case "arm":
					return caught(vault.arm(Number(url.searchParams.get("in") ?? "500")));
				case "alarm":
					return caught(vault.alarmState());
				case "fetch":
					return vault.fetch(new Request(new URL("/inside", url), { headers: req.headers }));
			}
			return json({ error: `no vault op ${op}` }, 404);
		}
		const s = svcRoute.exec(url);
		if (s !== null) {
			switch (s.pathname.groups.op) {
				case "fetch":
					// The helper gets the request as sent: its URL, method, headers and body.
					return env.HELPER.fetch(new Request("https://helper.internal/greet" + url.search, { method: "POST", body: "from rpc" }));
				case "add":
					return caught(env.HELPER.add(Number(url.searchParams.get("a")), Number(url.searchParams.get("b"))));
				case "greet":
					return caught(env.HELPER.greet({ name: url.searchParams.get("name") ?? "nobody", at: new Date(0) }));
				case "fail":
					return caught(env.HELPER.fail(url.searchParams.get("message") ?? "no"));
			}
		}
		return json({ error: `no route for ${req.method} ${url.pathname}` }, 404);
	},
} satisfies ExportedHandler<Env>;
