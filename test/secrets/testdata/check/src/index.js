import { DurableObject } from "cloudflare:workers";

// compare says "unset" when the worker has no such secret, else whether
// it equals what the request sent: never the value itself.
function compare(value, sent) {
  if (value === undefined) return "unset";
  return value === sent ? "match" : "mismatch";
}

function answer(env, request) {
  const h = request.headers;
  return Response.json({
    token: compare(env.API_TOKEN, h.get("x-token")),
    extra: compare(env.EXTRA, h.get("x-extra")),
  });
}

// Checker answers with the env it was constructed with.
export class Checker extends DurableObject {
  async fetch(request) {
    return answer(this.env, request);
  }
}

export default {
  async fetch(request, env) {
    const { pathname } = new URL(request.url);
    if (pathname === "/object") {
      return env.CHECKERS.get(env.CHECKERS.idFromName("one")).fetch(request);
    }
    return answer(env, request);
  },
};
