import { AutoRouter, error, type IRequest } from "itty-router";

interface Env {
	STORE: KVNamespace;
}

type Args = [Env, ExecutionContext];

const router = AutoRouter<IRequest, Args>({ base: "/kv" });

const hex = (b: ArrayBuffer) => [...new Uint8Array(b)].map((x) => x.toString(16).padStart(2, "0")).join("");

function one(q: string | string[] | undefined): string | undefined {
	return Array.isArray(q) ? q[0] : q;
}

// PUT /kv/items/:key stores the body. ?ttl= sets expirationTtl, the
// X-KV-Metadata header (JSON) the metadata.
router.put("/items/:key", async (req, env) => {
	const opts: KVNamespacePutOptions = {};
	const ttl = one(req.query.ttl);
	if (ttl !== undefined) opts.expirationTtl = Number(ttl);
	const meta = req.headers.get("x-kv-metadata");
	if (meta !== null) {
		try {
			opts.metadata = JSON.parse(meta);
		} catch {
			return error(400, "X-KV-Metadata must be JSON");
		}
	}
	await env.STORE.put(req.params.key, await req.arrayBuffer(), opts);
	return new Response(null, { status: 204 });
});

// GET /kv/items/:key?type=text|json|arrayBuffer|stream reads the value
// as that type and says what it got.
router.get("/items/:key", async (req, env) => {
	const key = req.params.key;
	switch (one(req.query.type) ?? "text") {
		case "text": {
			const v = await env.STORE.get(key, "text");
			return v === null ? error(404, `no key ${key}`) : new Response(v, { headers: { "content-type": "text/plain; charset=utf-8" } });
		}
		case "json": {
			const v = await env.STORE.get<unknown>(key, "json");
			return v === null ? error(404, `no key ${key}`) : { kind: Array.isArray(v) ? "array" : typeof v, value: v };
		}
		case "arrayBuffer": {
			const v = await env.STORE.get(key, "arrayBuffer");
			if (v === null) return error(404, `no key ${key}`);
			return { isArrayBuffer: v instanceof ArrayBuffer, byteLength: v.byteLength, hex: hex(v) };
		}
		case "stream": {
			const v = await env.STORE.get(key, "stream");
			if (v === null) return error(404, `no key ${key}`);
			if (!(v instanceof ReadableStream)) return error(500, "get(key, 'stream') did not return a ReadableStream");
			return new Response(v, { headers: { "content-type": "application/octet-stream" } });
		}
		default:
			return error(400, "type is text, json, arrayBuffer or stream");
	}
});

// GET /kv/meta/:key: the value and its metadata.
router.get("/meta/:key", async (req, env) => {
	const { value, metadata } = await env.STORE.getWithMetadata<unknown>(req.params.key, "text");
	return value === null ? error(404, `no key ${req.params.key}`) : { value, metadata };
});

// GET /kv/many?key=a&key=b: a bulk get, missing keys as null.
router.get("/many", async (req, env) => {
	const q = req.query.key;
	const keys = q === undefined ? [] : Array.isArray(q) ? q : [q];
	const got = await env.STORE.get(keys, "text");
	return Object.fromEntries(got);
});

// GET /kv/list?prefix=&limit=&cursor=: one page of keys, as KV answers it.
router.get("/list", async (req, env) => {
	const limit = one(req.query.limit);
	return env.STORE.list({ prefix: one(req.query.prefix), cursor: one(req.query.cursor), limit: limit === undefined ? undefined : Number(limit) });
});

router.delete("/items/:key", async (req, env) => {
	await env.STORE.delete(req.params.key);
	return new Response(null, { status: 204 });
});

export default router;
