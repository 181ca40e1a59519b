import { z } from "zod";

// Room names go into URLs and object names: short, lower case, no spaces.
export const RoomName = z
	.string()
	.regex(/^[a-z0-9][a-z0-9_-]{0,63}$/, "room must be 1 to 64 lower-case letters, digits, '-' or '_'");

// A user name is what the roster and every message show.
export const UserName = z
	.string()
	.trim()
	.regex(/^[\p{L}\p{N}_.-]{1,24}$/u, "user must be 1 to 24 letters, digits, '.', '_' or '-'");

export const MessageText = z.string().trim().min(1, "text must not be empty").max(2000, "text must be at most 2000 characters");

// The body of POST /api/rooms/:room/messages.
export const NewMessage = z.object({ user: UserName, text: MessageText });
export type NewMessage = z.infer<typeof NewMessage>;

// What a page may send over its socket.
export const ClientFrame = z.discriminatedUnion("type", [z.object({ type: z.literal("message"), text: MessageText })]);

export const HistoryQuery = z.object({
	limit: z.coerce.number().int().min(1).max(200).optional(),
});

// A stored message, as the API and the socket frames carry it.
export interface Message {
	id: number;
	user: string;
	text: string;
	sentAt: number; // milliseconds since the epoch
}

// What the room sends to a page.
export type ServerFrame =
	| { type: "hello"; you: string; history: Message[]; users: string[] }
	| { type: "message"; message: Message }
	| { type: "presence"; users: string[] }
	| { type: "error"; error: string };

// describe turns a zod error into one line a person can read: each issue
// with the field it is about.
export function describe(err: z.ZodError): string {
	return err.issues.map((i) => (i.path.length ? `${i.path.join(".")}: ${i.message}` : i.message)).join("; ");
}
