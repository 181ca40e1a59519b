import { download } from "./download";
import { multipart } from "./multipart";
import { page } from "./page";
import { keyFor, readUpload } from "./upload";

interface Env {
	BUCKET: R2Bucket;
}

const json = (v: unknown, status = 200) => Response.json(v, { status });

export default {
	async fetch(req, env) {
		const url = new URL(req.url);
		const path = url.pathname;
		if (path === "/files" || path === "/files/") {
			if (req.method !== "GET") return json({ error: "GET the page" }, 405);
			const { objects } = await env.BUCKET.list({ prefix: "uploads/", include: ["customMetadata"] });
			return new Response(page(objects), { headers: { "content-type": "text/html; charset=utf-8" } });
		}
		if (path === "/files/upload" && req.method === "POST") {
			const u = await readUpload(req);
			if ("error" in u) return json(u, 400);
			const key = keyFor(u.file.name);
			const object = await env.BUCKET.put(key, u.file, {
				httpMetadata: { contentType: u.file.type || "application/octet-stream", contentDisposition: `attachment; filename="${u.file.name}"` },
				customMetadata: { description: u.description, name: u.file.name },
			});
			if (req.headers.get("accept")?.includes("text/html")) return Response.redirect(new URL("/files/", url).toString(), 303);
			return json({ key: object.key, size: object.size, etag: object.etag, uploaded: object.uploaded.toISOString() }, 201);
		}
		if (path === "/files/list") {
			const listed = await env.BUCKET.list({
				prefix: url.searchParams.get("prefix") ?? undefined,
				delimiter: url.searchParams.get("delimiter") ?? undefined,
				include: ["httpMetadata", "customMetadata"],
			});
			return json({
				objects: listed.objects.map((o) => ({
					key: o.key,
					size: o.size,
					etag: o.etag,
					contentType: o.httpMetadata?.contentType,
					customMetadata: o.customMetadata,
				})),
				prefixes: listed.delimitedPrefixes,
				truncated: listed.truncated,
			});
		}
		if (path.startsWith("/files/object/")) {
			const key = decodeURIComponent(path.slice("/files/object/".length));
			switch (req.method) {
				case "GET":
				case "HEAD":
					return download(req, env.BUCKET, key);
				case "DELETE":
					await env.BUCKET.delete(key);
					return new Response(null, { status: 204 });
			}
			return json({ error: "GET, HEAD or DELETE" }, 405);
		}
		if (path.startsWith("/files/mpu/")) {
			return multipart(req, env.BUCKET, decodeURIComponent(path.slice("/files/mpu/".length)), url.searchParams);
		}
		return json({ error: `no route for ${req.method} ${path}` }, 404);
	},
} satisfies ExportedHandler<Env>;
