const VERSION = "1";

export default {
  async fetch(request, env) {
    const auth = request.headers.get("authorization") === `Bearer ${env.TOKEN}`;
    return Response.json({ version: VERSION, greeting: env.GREETING, authorized: auth });
  },
};
