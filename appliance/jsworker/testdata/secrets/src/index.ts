// Tells whether env.API_TOKEN and env.EXTRA equal the request's headers,
// and whether the importable env has them, without showing a value.
import { env as imported } from "cloudflare:workers";

export default {
  async fetch(request: Request, env: Record<string, string>): Promise<Response> {
    const h = request.headers;
    return Response.json({
      token: env.API_TOKEN === undefined ? "unset" : String(env.API_TOKEN === h.get("x-token")),
      extra: env.EXTRA === undefined ? "unset" : String(env.EXTRA === h.get("x-extra")),
      imported: Object.keys(imported).filter((k) => k === "API_TOKEN" || k === "EXTRA").sort(),
    });
  },
};
