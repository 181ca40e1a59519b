import { DurableObject } from "cloudflare:workers";

export class Box extends DurableObject {
  ready = false;

  constructor(ctx: DurableObjectState, env: unknown) {
    super(ctx, env);
    ctx.blockConcurrencyWhile(async () => {
      await new Promise((r) => setTimeout(r, 5));
      this.ready = true;
    });
  }

  async fetch(request: Request): Promise<Response> {
    const url = new URL(request.url);
    switch (url.pathname) {
      case "/put":
        await this.ctx.storage.put("v", await request.text());
        return new Response("stored");
      case "/get":
        return Response.json({ v: (await this.ctx.storage.get("v")) ?? null, ready: this.ready, id: this.ctx.id.toString() });
      case "/later":
        // A timer's write: it runs in the object's turn and is committed.
        setTimeout(() => this.ctx.storage.put("later", "done"), 10);
        return new Response("scheduled");
      case "/alarm":
        await this.ctx.storage.setAlarm(Date.now() + 20);
        return new Response("armed");
      case "/hog": {
        // Grows the heap past the worker's memory limit: the isolate
        // restarts, and this object is constructed again in the fresh one.
        const held: number[][] = [];
        for (;;) held.push(new Array(1 << 16).fill(held.length));
      }
      case "/keys":
        return Response.json([...(await this.ctx.storage.list()).keys()]);
      case "/sql":
        this.ctx.storage.sql.exec("CREATE TABLE IF NOT EXISTS t (n INTEGER)");
        this.ctx.storage.sql.exec("INSERT INTO t VALUES (?), (?)", 1, 2);
        return Response.json(this.ctx.storage.sql.exec("SELECT sum(n) AS s, count(*) AS c FROM t").one());
    }
    return new Response("?", { status: 404 });
  }

  async alarm() {
    await this.ctx.storage.put("alarmed", true);
  }

  async describe(prefix: string, when: Date) {
    return { text: `${prefix}:${await this.ctx.storage.get("v")}`, year: when.getUTCFullYear(), tags: new Map([["a", 1]]) };
  }

  async fail(message: string) {
    throw new RangeError(message);
  }
}

export default {
  async fetch(request: Request, env: { BOX: DurableObjectNamespace<Box> }): Promise<Response> {
    const url = new URL(request.url);
    const stub = env.BOX.getByName(url.searchParams.get("box") ?? "a");
    if (url.pathname === "/rpc") {
      const got = await stub.describe("box", new Date(Date.UTC(2024, 0, 1)));
      let err = "";
      try {
        await stub.fail("too far");
      } catch (e) {
        err = `${(e as Error).name}: ${(e as Error).message}`;
      }
      return Response.json({ ...got, tags: [...got.tags], err });
    }
    return stub.fetch(request);
  },
};
