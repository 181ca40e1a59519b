// Downloads: ranges and conditional requests as R2 evaluates them from
// the request's own headers.

export async function download(req: Request, bucket: R2Bucket, key: string): Promise<Response> {
	const object = await bucket.get(key, { onlyIf: req.headers, range: req.headers });
	if (object === null) return Response.json({ error: `no object ${key}` }, { status: 404 });
	const headers = new Headers();
	object.writeHttpMetadata(headers);
	headers.set("etag", object.httpEtag);
	headers.set("accept-ranges", "bytes");
	headers.set("last-modified", object.uploaded.toUTCString());
	for (const [k, val] of Object.entries(object.customMetadata ?? {})) headers.set(`x-meta-${k}`, val);
	if (!("body" in object)) {
		// The precondition failed: R2 returned the object without its body.
		return new Response(null, { status: req.headers.has("if-none-match") || req.headers.has("if-modified-since") ? 304 : 412, headers });
	}
	const r = object.range as { offset?: number; length?: number; suffix?: number } | undefined;
	if (req.headers.has("range") && r !== undefined) {
		const start = r.suffix !== undefined ? object.size - r.suffix : (r.offset ?? 0);
		const length = r.suffix !== undefined ? r.suffix : (r.length ?? object.size - start);
		headers.set("content-range", `bytes ${start}-${start + length - 1}/${object.size}`);
		headers.set("content-length", String(length));
		return new Response(req.method === "HEAD" ? null : object.body, { status: 206, headers });
	}
	headers.set("content-length", String(object.size));
	return new Response(req.method === "HEAD" ? null : object.body, { headers });
}
