// The upload page: a plain HTML form, so that a browser posts
// multipart/form-data without any script.
const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export function page(objects: R2Object[]): string {
	const rows = objects
		.map((o) => `<li><a href="/files/object/${encodeURI(o.key)}">${esc(o.key)}</a> (${o.size} bytes) ${esc(o.customMetadata?.description ?? "")}</li>`)
		.join("\n");
	return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Files</title></head>
<body>
<h1>Files</h1>
<form method="post" action="/files/upload" enctype="multipart/form-data">
<label>Description <input name="description" maxlength="200"></label>
<label>File <input type="file" name="file" required></label>
<button>Upload</button>
</form>
<ul>
${rows}
</ul>
</body>
</html>
`;
}
