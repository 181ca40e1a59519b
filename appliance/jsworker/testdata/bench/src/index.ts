export default {
  async fetch(request: Request): Promise<Response> {
    return new Response("hello\n");
  },
};
