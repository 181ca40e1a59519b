import { DurableObject } from "cloudflare:workers";
import { ClientFrame, describe, type Message, type NewMessage, type ServerFrame, UserName } from "./schema";
import type { Env } from "./env";

// What each socket carries through hibernation.
interface Attachment {
	user: string;
	joinedAt: number;
}

// ChatRoom is one room: its messages in the object's SQLite database and
// its members as hibernatable WebSockets tagged with their user names.
export class ChatRoom extends DurableObject<Env> {
	constructor(ctx: DurableObjectState, env: Env) {
		super(ctx, env);
		ctx.storage.sql.exec(`CREATE TABLE IF NOT EXISTS messages (
			id INTEGER PRIMARY KEY AUTOINCREMENT,
			user TEXT NOT NULL,
			text TEXT NOT NULL,
			sent_at INTEGER NOT NULL
		)`);
		// Keepalives are answered without waking the room.
		ctx.setWebSocketAutoResponse(new WebSocketRequestResponsePair("ping", "pong"));
	}

	// fetch takes a page's WebSocket: ?user= names who joins.
	async fetch(request: Request): Promise<Response> {
		const parsed = UserName.safeParse(new URL(request.url).searchParams.get("user") ?? "");
		if (request.headers.get("Upgrade")?.toLowerCase() !== "websocket" || !parsed.success) {
			return new Response("expected a WebSocket upgrade with ?user=", { status: 400 });
		}
		const user = parsed.data;
		const pair = new WebSocketPair();
		const [client, server] = Object.values(pair);
		this.ctx.acceptWebSocket(server, [user]);
		server.serializeAttachment({ user, joinedAt: Date.now() } satisfies Attachment);
		const users = this.users();
		this.send(server, { type: "hello", you: user, history: this.recent(this.limit()), users });
		this.broadcast({ type: "presence", users }, server);
		return new Response(null, { status: 101, webSocket: client });
	}

	async webSocketMessage(ws: WebSocket, data: string | ArrayBuffer): Promise<void> {
		let frame: unknown;
		try {
			frame = JSON.parse(typeof data === "string" ? data : new TextDecoder().decode(data));
		} catch {
			this.send(ws, { type: "error", error: "frames must be JSON" });
			return;
		}
		const parsed = ClientFrame.safeParse(frame);
		if (!parsed.success) {
			this.send(ws, { type: "error", error: describe(parsed.error) });
			return;
		}
		const { user } = ws.deserializeAttachment() as Attachment;
		this.post({ user, text: parsed.data.text });
	}

	async webSocketClose(ws: WebSocket, code: number, reason: string): Promise<void> {
		try {
			ws.close(1000, "bye");
		} catch {
			// Already closed by the other side.
		}
		this.broadcast({ type: "presence", users: this.users(ws) });
	}

	async webSocketError(ws: WebSocket): Promise<void> {
		this.broadcast({ type: "presence", users: this.users(ws) });
	}

	// history is the room's last limit messages, oldest first (JS RPC).
	async history(limit: number = this.limit()): Promise<Message[]> {
		return this.recent(limit);
	}

	// post stores a message and sends it to everyone in the room (JS RPC).
	async post(m: NewMessage): Promise<Message> {
		const sentAt = Date.now();
		const row = this.ctx.storage.sql
			.exec<{ id: number }>("INSERT INTO messages (user, text, sent_at) VALUES (?, ?, ?) RETURNING id", m.user, m.text, sentAt)
			.one();
		const message: Message = { id: row.id, user: m.user, text: m.text, sentAt };
		this.broadcast({ type: "message", message });
		return message;
	}

	private recent(limit: number): Message[] {
		return this.ctx.storage.sql
			.exec<{ id: number; user: string; text: string; sent_at: number }>(
				"SELECT id, user, text, sent_at FROM messages ORDER BY id DESC LIMIT ?",
				limit,
			)
			.toArray()
			.reverse()
			.map((r) => ({ id: r.id, user: r.user, text: r.text, sentAt: r.sent_at }));
	}

	// users lists who is in the room, each once, leaving out a socket that
	// is going away.
	private users(except?: WebSocket): string[] {
		const names = new Set<string>();
		for (const ws of this.ctx.getWebSockets()) {
			if (ws === except) continue;
			const a = ws.deserializeAttachment() as Attachment | null;
			if (a) names.add(a.user);
		}
		return [...names].sort();
	}

	private broadcast(frame: ServerFrame, except?: WebSocket): void {
		const text = JSON.stringify(frame);
		for (const ws of this.ctx.getWebSockets()) {
			if (ws === except) continue;
			try {
				ws.send(text);
			} catch {
				// A socket that closed meanwhile gets webSocketClose.
			}
		}
	}

	private send(ws: WebSocket, frame: ServerFrame): void {
		ws.send(JSON.stringify(frame));
	}

	private limit(): number {
		return Number(this.env.HISTORY_LIMIT) || 50;
	}
}
