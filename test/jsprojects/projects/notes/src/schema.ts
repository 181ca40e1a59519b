import { z } from "zod";

const Tag = z.string().regex(/^[a-z0-9-]{1,32}$/, "a tag is 1 to 32 lowercase letters, digits and dashes");

const NoteFields = z.object({
	title: z.string().trim().min(1, "title must not be empty").max(200, "title must be at most 200 characters"),
	body: z.string().max(10_000, "body must be at most 10000 characters"),
	tags: z.array(Tag).max(5, "a note has at most 5 tags"),
	pinned: z.boolean(),
});

/** NewNote is the body of POST /notes/api/notes. */
export const NewNote = NoteFields.extend({
	tags: NoteFields.shape.tags.default([]),
	pinned: NoteFields.shape.pinned.default(false),
});
export type NewNote = z.output<typeof NewNote>;

/** NoteChange is the body of PATCH /notes/api/notes/:id: any field of a note, at least one. */
export const NoteChange = NoteFields.partial().refine((c) => Object.values(c).some((v) => v !== undefined), {
	message: "a change names at least one field",
});
export type NoteChange = z.output<typeof NoteChange>;

/** ListQuery filters GET /notes/api/notes. */
export const ListQuery = z.object({
	tag: Tag.optional(),
	pinned: z.enum(["true", "false"]).optional(),
});

/** firstIssue is the message a 400 answer gives: the validator's own, with the field it is about. */
export function firstIssue(err: z.ZodError): { error: string; path: string } {
	const issue = err.issues[0];
	return { error: issue.message, path: issue.path.join(".") };
}
