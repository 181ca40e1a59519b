export default {
  async fetch(request) {
    const { pathname } = new URL(request.url);
    console.log(`echo ${request.method} ${pathname}`);
    if (pathname.endsWith("/fail")) throw new Error("asked to fail");
    return new Response("ok\n");
  },
};
