import * as v from "valibot";

const MAX_FILE = 8 << 20;

/** Upload is the form the page posts. */
export const Upload = v.object({
	description: v.pipe(v.string("description is required"), v.trim(), v.maxLength(200, "description must be at most 200 characters")),
	file: v.pipe(
		v.file("file must be a file"),
		v.minSize(1, "file must not be empty"),
		v.maxSize(MAX_FILE, `file must be at most ${MAX_FILE} bytes`),
	),
});

/** readUpload validates the posted form; the error is valibot's first message. */
export async function readUpload(req: Request): Promise<v.InferOutput<typeof Upload> | { error: string }> {
	let form: FormData;
	try {
		form = await req.formData();
	} catch (e) {
		return { error: `the body must be a form: ${e}` };
	}
	const r = v.safeParse(Upload, { description: form.get("description") ?? "", file: form.get("file") });
	return r.success ? r.output : { error: r.issues[0].message };
}

/** keyFor is where an uploaded file is kept. */
export function keyFor(name: string): string {
	return "uploads/" + name.replace(/[^\w.-]+/g, "_");
}
