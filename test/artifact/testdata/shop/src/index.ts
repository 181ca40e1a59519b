import { DurableObject } from "cloudflare:workers";
import badge from "./badge.bin";

interface Env {
  GREETING: string;
  API_KEY?: string;
  DB: D1Database;
  CARTS: DurableObjectNamespace<Cart>;
}

// Cart counts what was added to it, in its own storage.
export class Cart extends DurableObject<Env> {
  async add(): Promise<number> {
    const n: number = ((await this.ctx.storage.get<number>("items")) ?? 0) + 1;
    await this.ctx.storage.put("items", n);
    return n;
  }
}

export default {
  async fetch(request: Request, env: Env): Promise<Response> {
    const url = new URL(request.url);
    const cart = url.pathname.match(/^\/api\/cart\/([^/]+)\/add$/);
    if (cart && request.method === "POST") {
      const stub = env.CARTS.get(env.CARTS.idFromName(cart[1]));
      return new Response(String(await stub.add()));
    }
    switch (url.pathname) {
      case "/api/hello":
        return new Response(env.GREETING);
      case "/api/badge":
        return new Response(`${(badge as ArrayBuffer).byteLength} bytes`);
      case "/api/secret":
        return new Response(env.API_KEY === undefined ? "no key" : `a key of ${env.API_KEY.length} characters`);
      case "/api/items":
        if (request.method === "POST") {
          await env.DB.prepare("INSERT INTO items (name) VALUES (?)").bind(url.searchParams.get("name")).run();
        }
        const { results } = await env.DB.prepare("SELECT name FROM items ORDER BY id").all();
        return Response.json(results);
    }
    return new Response("not found", { status: 404 });
  },
};
