import { Hono } from "hono";
import { HTTPException } from "hono/http-exception";
import type { z } from "zod";
import { createNote, deleteNote, getNote, listNotes, migrations, stats, updateNote } from "./db";
import type { Env } from "./env";
import { firstIssue, ListQuery, NewNote, NoteChange } from "./schema";

/** BOOKMARK is the header a client sends back to read its own writes. */
const BOOKMARK = "x-d1-bookmark";

type App = { Bindings: Env; Variables: { db: D1DatabaseSession } };

const app = new Hono<App>().basePath("/notes/api");

// Every request runs in one D1 session: from the client's bookmark when it
// sends one, and it answers with the session's bookmark after its queries.
app.use(async (c, next) => {
	const session = c.env.DB.withSession(c.req.header(BOOKMARK) ?? "first-unconstrained");
	c.set("db", session);
	await next();
	const bookmark = session.getBookmark();
	if (bookmark !== null) c.res.headers.set(BOOKMARK, bookmark);
});

function parse<T extends z.ZodType>(schema: T, input: unknown): z.output<T> {
	const r = schema.safeParse(input);
	if (!r.success) {
		throw new HTTPException(400, { res: Response.json(firstIssue(r.error), { status: 400 }) });
	}
	return r.data;
}

async function jsonBody(c: { req: { json(): Promise<unknown> } }): Promise<unknown> {
	try {
		return await c.req.json();
	} catch {
		throw new HTTPException(400, { res: Response.json({ error: "the body must be JSON", path: "" }, { status: 400 }) });
	}
}

app.post("/notes", async (c) => {
	const n = parse(NewNote, await jsonBody(c));
	return c.json(await createNote(c.var.db, n), 201);
});

app.get("/notes", async (c) => {
	const q = parse(ListQuery, c.req.query());
	const notes = await listNotes(c.var.db, { tag: q.tag, pinned: q.pinned === undefined ? undefined : q.pinned === "true" });
	return c.json({ notes });
});

app.get("/notes/:id{[0-9]+}", async (c) => {
	const note = await getNote(c.var.db, Number(c.req.param("id")));
	return note === null ? c.json({ error: "no such note" }, 404) : c.json(note);
});

app.patch("/notes/:id{[0-9]+}", async (c) => {
	const id = Number(c.req.param("id"));
	const change = parse(NoteChange, await jsonBody(c));
	if (!(await updateNote(c.var.db, id, change))) return c.json({ error: "no such note" }, 404);
	return c.json(await getNote(c.var.db, id));
});

app.delete("/notes/:id{[0-9]+}", async (c) => {
	const gone = await deleteNote(c.var.db, Number(c.req.param("id")));
	return gone ? c.body(null, 204) : c.json({ error: "no such note" }, 404);
});

app.get("/stats", async (c) => c.json(await stats(c.var.db)));

app.get("/migrations", async (c) => c.json({ applied: await migrations(c.var.db) }));

app.notFound((c) => c.json({ error: `no route for ${c.req.method} ${c.req.path}` }, 404));

app.onError((err, c) => {
	if (err instanceof HTTPException) return err.getResponse();
	// A bookmark D1 cannot honour is the client's mistake, not ours.
	if (/bookmark/i.test(String(err))) return c.json({ error: String(err) }, 400);
	console.error("notes: unhandled", err);
	return c.json({ error: "internal error" }, 500);
});

export default app satisfies ExportedHandler<Env>;
