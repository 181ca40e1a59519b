import { DurableObject } from "cloudflare:workers";
import { Hono } from "hono";

// The release this code is; GET /api/version reports it.
const VERSION = "1";

// KV key of the cached note list, dropped whenever a note is added.
const NOTES_CACHE_KEY = "notes:latest";
const MAX_NOTE_LENGTH = 1000;

const app = new Hono();

app.get("/api/version", (c) => c.json({ version: VERSION }));

// Notes, in D1. The latest 100 are cached in KV for a minute.

app.get("/api/notes", async (c) => {
	const cached = await c.env.CACHE.get(NOTES_CACHE_KEY, "json");
	if (cached !== null) return c.json({ notes: cached }, 200, { "X-Cache": "hit" });
	const { results } = await c.env.DB.prepare("SELECT id, text, created_at FROM notes ORDER BY id DESC LIMIT 100").all();
	await c.env.CACHE.put(NOTES_CACHE_KEY, JSON.stringify(results), { expirationTtl: 60 });
	return c.json({ notes: results }, 200, { "X-Cache": "miss" });
});

app.post("/api/notes", async (c) => {
	const body = await c.req.json().catch(() => null);
	const text = typeof body?.text === "string" ? body.text.trim() : "";
	if (text === "" || text.length > MAX_NOTE_LENGTH) {
		return c.json({ error: `the body must be JSON with a "text" of 1 to ${MAX_NOTE_LENGTH} characters` }, 400);
	}
	const note = await c.env.DB.prepare("INSERT INTO notes (text) VALUES (?) RETURNING id, text, created_at").bind(text).first();
	await c.env.CACHE.delete(NOTES_CACHE_KEY);
	return c.json(note, 201);
});

// Files, in R2, under any key (slashes included), with their content type.

app.put("/api/files/:key{.+}", async (c) => {
	const key = c.req.param("key");
	const object = await c.env.FILES.put(key, await c.req.arrayBuffer(), {
		httpMetadata: { contentType: c.req.header("Content-Type") ?? "application/octet-stream" },
	});
	return c.json({ key: object.key, size: object.size, etag: object.httpEtag }, 201);
});

app.get("/api/files/:key{.+}", async (c) => {
	const object = await c.env.FILES.get(c.req.param("key"));
	if (object === null) return c.json({ error: "no such file" }, 404);
	const headers = new Headers({ ETag: object.httpEtag });
	object.writeHttpMetadata(headers);
	return new Response(object.body, { headers });
});

// Counters: one Durable Object per name.

function counter(c) {
	const name = c.req.param("name");
	return name.length > 64 ? null : c.env.COUNTER.getByName(name);
}

app.post("/api/counters/:name", async (c) => {
	const stub = counter(c);
	if (stub === null) return c.json({ error: "a counter name is at most 64 characters" }, 400);
	return c.json({ name: c.req.param("name"), value: await stub.increment() });
});

app.get("/api/counters/:name", async (c) => {
	const stub = counter(c);
	if (stub === null) return c.json({ error: "a counter name is at most 64 characters" }, 400);
	return c.json({ name: c.req.param("name"), value: await stub.current() });
});

// A route only holders of the API_TOKEN secret may call.

app.get("/api/secret", async (c) => {
	const token = c.env.API_TOKEN;
	if (!token) return c.json({ error: "API_TOKEN is not set on this deployment" }, 503);
	const auth = c.req.header("Authorization") ?? "";
	const given = auth.startsWith("Bearer ") ? auth.slice("Bearer ".length) : "";
	if (!(await sameSecret(given, token))) {
		return c.json({ error: "unauthorized" }, 401, { "WWW-Authenticate": "Bearer" });
	}
	return c.json({ ok: true });
});

app.notFound((c) => c.json({ error: `no route for ${c.req.method} ${c.req.path}` }, 404));

app.onError((err, c) => {
	console.error("unhandled error", err);
	return c.json({ error: "internal error" }, 500);
});

// sameSecret compares two strings in constant time by comparing their
// SHA-256 digests, so the time taken does not reveal the secret.
async function sameSecret(a, b) {
	const enc = new TextEncoder();
	const [ha, hb] = await Promise.all([
		crypto.subtle.digest("SHA-256", enc.encode(a)),
		crypto.subtle.digest("SHA-256", enc.encode(b)),
	]);
	const x = new Uint8Array(ha);
	const y = new Uint8Array(hb);
	let diff = 0;
	for (let i = 0; i < x.length; i++) diff |= x[i] ^ y[i];
	return diff === 0;
}

export default { fetch: app.fetch };

// Counter is a named counter kept in its object's SQLite storage.
export class Counter extends DurableObject {
	constructor(ctx, env) {
		super(ctx, env);
		ctx.storage.sql.exec("CREATE TABLE IF NOT EXISTS counter (id INTEGER PRIMARY KEY CHECK (id = 1), value INTEGER NOT NULL)");
	}

	// increment adds one and returns the new value.
	increment() {
		return this.ctx.storage.sql
			.exec("INSERT INTO counter (id, value) VALUES (1, 1) ON CONFLICT (id) DO UPDATE SET value = value + 1 RETURNING value")
			.one().value;
	}

	// current returns the value, 0 for a counter never incremented.
	current() {
		const row = this.ctx.storage.sql.exec("SELECT value FROM counter WHERE id = 1").toArray()[0];
		return row === undefined ? 0 : row.value;
	}
}
