import { DurableObject } from "cloudflare:workers";

// The Go counter's schema and statements (appliance/refworkers/counter).
const schema = `CREATE TABLE IF NOT EXISTS counter (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  value INTEGER NOT NULL DEFAULT 0,
  fired INTEGER NOT NULL DEFAULT 0,
  last_fired_at TEXT
)`;

export class Counter extends DurableObject {
  #migrated = false;

  #migrate() {
    if (!this.#migrated) {
      this.ctx.storage.sql.exec(schema);
      this.#migrated = true;
    }
  }

  async fetch(request) {
    this.#migrate();
    const url = new URL(request.url);
    const [, , , name, action] = url.pathname.split("/");
    if (request.method === "GET" && !action) {
      const row = this.ctx.storage.sql.exec("SELECT value FROM counter WHERE id = 1").toArray()[0];
      return Response.json({ name, value: row ? row.value : 0 });
    }
    if (request.method === "POST" && action === "increment") {
      const by = Number(url.searchParams.get("by") ?? 1);
      const { value } = this.ctx.storage.sql
        .exec("INSERT INTO counter (id, value) VALUES (1, ?1) ON CONFLICT (id) DO UPDATE SET value = value + ?1 RETURNING value", by)
        .one();
      return Response.json({ name, value });
    }
    return new Response("unknown counter route", { status: 404 });
  }
}

// A room whose sockets hibernate: it echoes what it receives.
export class Room extends DurableObject {
  async fetch(request) {
    const [client, server] = Object.values(new WebSocketPair());
    this.ctx.acceptWebSocket(server);
    return new Response(null, { status: 101, webSocket: client });
  }
  webSocketMessage(ws, message) {
    ws.send(message);
  }
  webSocketClose(ws, code, reason) {
    // 1005 and 1006 say no close frame came; they cannot be sent back.
    if (code !== 1005 && code !== 1006) ws.close(code, reason);
  }
}

// An object that writes one row and then sits idle.
export class Idle extends DurableObject {
  async fetch() {
    this.ctx.storage.sql.exec("CREATE TABLE IF NOT EXISTS seen (at INTEGER)");
    this.ctx.storage.sql.exec("INSERT INTO seen VALUES (?)", Date.now());
    return new Response("ok");
  }
}

export default {
  async fetch(request, env) {
    // The hello handler answers before any routing, as the Go one does; the
    // query string (the bench varies it per request) is ignored.
    const raw = request.url;
    const q = raw.indexOf("?");
    if ((q < 0 ? raw : raw.slice(0, q)).endsWith("/js/hello")) return new Response("hello\n");
    const url = new URL(request.url);
    const parts = url.pathname.split("/");
    switch (parts[2]) {
      case "counter":
        return env.COUNTER.getByName(parts[3]).fetch(request);
      case "rooms":
        return env.ROOMS.getByName(parts[3]).fetch(request);
      case "idle":
        return env.IDLE.getByName(parts[3]).fetch(request);
    }
    return new Response("not found", { status: 404 });
  },
};
