interface Env {
  GREETING: string;
  LIMITS: { max: number };
}

export default {
  async fetch(request: Request, env: Env, ctx: ExecutionContext): Promise<Response> {
    const path = request.url.slice(request.url.indexOf("/", 8));
    if (path === "/throw") {
      throw new TypeError("thrown on purpose");
    }
    if (path === "/regexp") {
      const letters = /^[\p{L}\p{N}_-]+$/u.test("alicé_42") && !/^[\p{L}]+$/u.test("a b");
      const m = /^\/users\/(?<id>[^/]+)$/.exec("/users/7");
      return new Response(`${letters} ${m?.groups?.id}`);
    }
    if (path === "/loop") {
      for (;;) {}
    }
    if (path === "/echo") {
      const body = await request.text();
      return new Response(body.toUpperCase(), { status: 201, headers: { "x-len": String(body.length) } });
    }
    let done = false;
    ctx.waitUntil(new Promise((r) => setTimeout(r, 5)).then(() => { done = true; }));
    return new Response(`${env.GREETING} ${request.method} ${path} max=${env.LIMITS.max} ua=${request.headers.get("user-agent")}`, {
      headers: { "x-test": "1" },
    });
  },
};
