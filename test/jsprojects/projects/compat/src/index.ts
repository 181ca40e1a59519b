import { signES256, signHS256, verifyHS256 } from "./jwt";
import { nodeChecks, outside, traced } from "./node";
import { rewritten } from "./rewrite";
import { wasmChecks } from "./wasm";
import { cookies, webChecks } from "./web";

interface Env {
	GREETING: string;
	JWT_SECRET: string;
	LIMITS: { maxItems: number };
}

const json = (v: unknown, status = 200) => Response.json(v, { status });

export default {
	async fetch(req, env) {
		const url = new URL(req.url);
		const q = url.searchParams;
		switch (url.pathname) {
			case "/compat/node":
				return json(await nodeChecks());
			case "/compat/als":
				return json({ ...(await traced(q.get("id") ?? "anonymous")), after: outside() });
			case "/compat/web":
				return json({ ...(await webChecks()), vars: { greeting: env.GREETING, limits: env.LIMITS } });
			case "/compat/cookies":
				return cookies();
			case "/compat/rewrite":
				return rewritten();
			case "/compat/wasm":
				return json(await wasmChecks(Number(q.get("a")), Number(q.get("b")), Number(q.get("n") ?? "10")));
			case "/compat/jwt/hs256":
				return json({ token: await signHS256(env.JWT_SECRET, { sub: q.get("sub"), iat: 1700000000 }) });
			case "/compat/jwt/verify": {
				const claims = await verifyHS256(env.JWT_SECRET, q.get("token") ?? "");
				return json({ valid: claims !== null, claims });
			}
			case "/compat/jwt/es256":
				return json(await signES256({ sub: q.get("sub"), iat: 1700000000 }));
		}
		return json({ error: `no route for ${req.method} ${url.pathname}` }, 404);
	},
} satisfies ExportedHandler<Env>;
