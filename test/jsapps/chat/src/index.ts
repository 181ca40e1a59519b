import { Hono } from "hono";
import { HTTPException } from "hono/http-exception";
import type { z } from "zod";
import type { Env } from "./env";
import { describe, HistoryQuery, NewMessage, RoomName, UserName } from "./schema";

export { ChatRoom } from "./room";

const app = new Hono<{ Bindings: Env }>();

// parse validates input with schema, answering 400 with zod's messages.
function parse<T extends z.ZodType>(schema: T, input: unknown): z.output<T> {
	const r = schema.safeParse(input);
	if (!r.success) {
		throw new HTTPException(400, { res: Response.json({ error: describe(r.error), issues: r.error.issues }, { status: 400 }) });
	}
	return r.data;
}

app.get("/api/rooms/:room/messages", async (c) => {
	const room = parse(RoomName, c.req.param("room"));
	const { limit } = parse(HistoryQuery, c.req.query());
	const messages = await c.env.ROOMS.getByName(room).history(limit ?? (Number(c.env.HISTORY_LIMIT) || 50));
	return c.json({ room, messages });
});

app.post("/api/rooms/:room/messages", async (c) => {
	const room = parse(RoomName, c.req.param("room"));
	let body: unknown;
	try {
		body = await c.req.json();
	} catch {
		return c.json({ error: "the body must be JSON" }, 400);
	}
	const m = parse(NewMessage, body);
	const message = await c.env.ROOMS.getByName(room).post(m);
	return c.json(message, 201);
});

app.get("/api/rooms/:room/ws", async (c) => {
	const room = parse(RoomName, c.req.param("room"));
	parse(UserName, c.req.query("user") ?? "");
	if (c.req.header("Upgrade")?.toLowerCase() !== "websocket") {
		return c.text("expected a WebSocket upgrade", 426);
	}
	return c.env.ROOMS.getByName(room).fetch(c.req.raw);
});

app.notFound((c) => c.json({ error: `no route for ${c.req.method} ${c.req.path}` }, 404));

app.onError((err, c) => {
	if (err instanceof HTTPException) return err.getResponse();
	console.error("unhandled", err);
	return c.json({ error: "internal error" }, 500);
});

export default app satisfies ExportedHandler<Env>;
