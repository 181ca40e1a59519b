// The notes worker reads what the dwk store commands wrote: rows of its D1
// database, keys of its KV namespace, objects of its R2 bucket; and it
// sends to its queue.
export default {
  async fetch(request, env) {
    const url = new URL(request.url);
    const key = url.searchParams.get("key");
    switch (url.pathname) {
      case "/notes": {
        const { results } = await env.DB.prepare("SELECT id, body FROM notes ORDER BY id").all();
        return Response.json(results);
      }
      case "/tables": {
        const { results } = await env.DB.prepare(
          "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_dwk_%' ORDER BY name",
        ).all();
        return Response.json(results.map((r) => r.name));
      }
      case "/kv": {
        const { value, metadata } = await env.NOTES.getWithMetadata(key);
        if (value === null) return new Response("no such key", { status: 404 });
        return Response.json({ value, metadata });
      }
      case "/file": {
        const obj = await env.FILES.get(key);
        if (obj === null) return new Response("no such object", { status: 404 });
        return new Response(obj.body, {
          headers: { "content-type": obj.httpMetadata.contentType ?? "application/octet-stream" },
        });
      }
      case "/enqueue": {
        await env.JOBS.send({ note: key });
        return new Response("queued");
      }
    }
    return new Response("not found", { status: 404 });
  },
};
