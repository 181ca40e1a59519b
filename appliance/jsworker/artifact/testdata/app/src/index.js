import { DurableObject } from "cloudflare:workers";
import blob from "./blob.bin";

export class Cart extends DurableObject {
  async add() {
    const n = ((await this.ctx.storage.get("n")) ?? 0) + 1;
    await this.ctx.storage.put("n", n);
    return n;
  }
}

export default {
  async fetch(request, env) {
    const url = new URL(request.url);
    if (url.pathname === "/blob") return new Response(String(blob.byteLength));
    if (url.pathname === "/cart") return new Response(String(await env.CARTS.get(env.CARTS.idFromName("a")).add()));
    return new Response(`${env.GREETING} ${env.API_KEY === undefined ? "without" : "with"} a key`);
  },
  async scheduled() {},
};
