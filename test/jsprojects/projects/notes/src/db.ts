// Queries over the notes schema of migrations/. Each takes the request's
// D1 session, so that a client that sends back the bookmark of its last
// answer reads its own writes wherever its next request lands.
import type { NewNote, NoteChange } from "./schema";

type Session = D1DatabaseSession;

export interface Note {
	id: number;
	title: string;
	body: string;
	pinned: boolean;
	tags: string[];
	created_at: string;
}

interface NoteRow {
	id: number;
	title: string;
	body: string;
	pinned: number;
	created_at: string;
}

export async function createNote(db: Session, n: NewNote): Promise<Note> {
	const insert = await db
		.prepare("INSERT INTO notes (title, body, pinned) VALUES (?1, ?2, ?3)")
		.bind(n.title, n.body, n.pinned ? 1 : 0)
		.run();
	const id = insert.meta.last_row_id;
	if (n.tags.length > 0) {
		await db.batch(n.tags.map((t) => db.prepare("INSERT INTO tags (note_id, tag) VALUES (?, ?)").bind(id, t)));
	}
	const note = await getNote(db, id);
	if (note === null) throw new Error(`note ${id} vanished after its insert`);
	return note;
}

export async function getNote(db: Session, id: number): Promise<Note | null> {
	const row = await db.prepare("SELECT id, title, body, pinned, created_at FROM notes WHERE id = ?").bind(id).first<NoteRow>();
	if (row === null) return null;
	const { results } = await db.prepare("SELECT tag FROM tags WHERE note_id = ? ORDER BY tag").bind(id).all<{ tag: string }>();
	return toNote(row, results.map((r) => r.tag));
}

export async function listNotes(db: Session, filter: { tag?: string; pinned?: boolean }): Promise<Note[]> {
	let sql = "SELECT n.id, n.title, n.body, n.pinned, n.created_at, group_concat(t.tag) AS tags FROM notes n LEFT JOIN tags t ON t.note_id = n.id";
	const where: string[] = [];
	const args: unknown[] = [];
	if (filter.tag !== undefined) {
		where.push("n.id IN (SELECT note_id FROM tags WHERE tag = ?)");
		args.push(filter.tag);
	}
	if (filter.pinned !== undefined) {
		where.push("n.pinned = ?");
		args.push(filter.pinned ? 1 : 0);
	}
	if (where.length > 0) sql += " WHERE " + where.join(" AND ");
	sql += " GROUP BY n.id ORDER BY n.id";
	const { results } = await db.prepare(sql).bind(...args).all<NoteRow & { tags: string | null }>();
	return results.map((r) => toNote(r, r.tags === null ? [] : r.tags.split(",").sort()));
}

/** updateNote applies c and reports whether the note exists. */
export async function updateNote(db: Session, id: number, c: NoteChange): Promise<boolean> {
	const sets: string[] = [];
	const args: unknown[] = [];
	if (c.title !== undefined) {
		sets.push("title = ?");
		args.push(c.title);
	}
	if (c.body !== undefined) {
		sets.push("body = ?");
		args.push(c.body);
	}
	if (c.pinned !== undefined) {
		sets.push("pinned = ?");
		args.push(c.pinned ? 1 : 0);
	}
	// The row's own id keeps the UPDATE meaningful when only tags change.
	sets.push("id = id");
	const update = db.prepare(`UPDATE notes SET ${sets.join(", ")} WHERE id = ?`).bind(...args, id);
	if (c.tags === undefined) {
		const r = await update.run();
		return r.meta.changes > 0;
	}
	const results = await db.batch([
		update,
		db.prepare("DELETE FROM tags WHERE note_id = ? AND EXISTS (SELECT 1 FROM notes WHERE id = ?)").bind(id, id),
		...c.tags.map((t) => db.prepare("INSERT INTO tags (note_id, tag) SELECT id, ? FROM notes WHERE id = ?").bind(t, id)),
	]);
	return results[0].meta.changes > 0;
}

/** deleteNote deletes a note and its tags in one batch and reports whether it existed. */
export async function deleteNote(db: Session, id: number): Promise<boolean> {
	const [, notes] = await db.batch([
		db.prepare("DELETE FROM tags WHERE note_id = ?").bind(id),
		db.prepare("DELETE FROM notes WHERE id = ?").bind(id),
	]);
	return notes.meta.changes > 0;
}

export async function stats(db: Session): Promise<{ notes: number; tags: Record<string, number> }> {
	const notes = await db.prepare("SELECT count(*) AS n FROM notes").first<number>("n");
	const { results } = await db.prepare("SELECT tag, count(*) AS n FROM tags GROUP BY tag ORDER BY tag").all<{ tag: string; n: number }>();
	return { notes: notes ?? 0, tags: Object.fromEntries(results.map((r) => [r.tag, r.n])) };
}

/** migrations lists the migrations applied to the database, as wrangler records them. */
export async function migrations(db: Session): Promise<string[]> {
	const rows = await db.prepare("SELECT name FROM d1_migrations ORDER BY id").raw<[string]>();
	return rows.map((r) => r[0]);
}

function toNote(r: NoteRow, tags: string[]): Note {
	return { id: r.id, title: r.title, body: r.body, pinned: r.pinned === 1, tags, created_at: r.created_at };
}
