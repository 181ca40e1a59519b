// A multipart upload driven by the client, one request per step:
//   POST   /files/mpu/<key>?action=create                      → {uploadId}
//   PUT    /files/mpu/<key>?action=part&uploadId=U&partNumber=N → {partNumber, etag} (the body is the part)
//   POST   /files/mpu/<key>?action=complete&uploadId=U          (body: {parts: [{partNumber, etag}]})
//   DELETE /files/mpu/<key>?uploadId=U                          (abort)

export async function multipart(req: Request, bucket: R2Bucket, key: string, q: URLSearchParams): Promise<Response> {
	const action = req.method === "DELETE" ? "abort" : q.get("action");
	if (action === "create") {
		const upload = await bucket.createMultipartUpload(key, {
			httpMetadata: { contentType: req.headers.get("content-type") ?? "application/octet-stream" },
			customMetadata: { description: "uploaded in parts" },
		});
		return Response.json({ key: upload.key, uploadId: upload.uploadId }, { status: 201 });
	}
	const uploadId = q.get("uploadId");
	if (uploadId === null) return Response.json({ error: "uploadId is required" }, { status: 400 });
	const upload = bucket.resumeMultipartUpload(key, uploadId);
	try {
		switch (action) {
			case "part": {
				const n = Number(q.get("partNumber"));
				if (!Number.isInteger(n) || n < 1 || req.body === null) return Response.json({ error: "a part needs partNumber and a body" }, { status: 400 });
				const part = await upload.uploadPart(n, req.body);
				return Response.json(part);
			}
			case "complete": {
				const { parts } = await req.json<{ parts: R2UploadedPart[] }>();
				const object = await upload.complete(parts);
				return Response.json({ key: object.key, size: object.size, etag: object.etag }, { headers: { etag: object.httpEtag } });
			}
			case "abort":
				await upload.abort();
				return new Response(null, { status: 204 });
		}
	} catch (e) {
		return Response.json({ error: String(e) }, { status: 400 });
	}
	return Response.json({ error: "action is create, part or complete" }, { status: 400 });
}
