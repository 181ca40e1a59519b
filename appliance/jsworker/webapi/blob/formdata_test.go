package blob

import "testing"

func TestFormData(t *testing.T) {
	runCases(t, newIsolate(t), []jsCase{
		{"append, get, getAll, has, delete", `
			const fd = new FormData();
			fd.append("a", "1");
			fd.append("b", 2);
			fd.append("a", "3");
			const got = [fd.get("a"), fd.getAll("a"), fd.has("b"), fd.get("zz"), fd.getAll("zz")];
			fd.delete("a");
			return got.concat([fd.has("a"), [...fd.keys()]]);`,
			`["1",["1","3"],true,null,[],false,["b"]]`},
		{"set replaces the first and drops the rest", `
			const fd = new FormData();
			fd.append("a", "1"); fd.append("b", "x"); fd.append("a", "2"); fd.append("a", "3");
			fd.set("a", "new");
			fd.set("c", "added");
			return [...fd];`,
			`[["a","new"],["b","x"],["c","added"]]`},
		{"a Blob becomes a File named blob; a filename renames", `
			const fd = new FormData();
			fd.append("b", new Blob(["x"], { type: "text/plain" }));
			fd.append("n", new Blob(["y"]), "given.txt");
			const f = new File(["z"], "orig.txt", { lastModified: 9 });
			fd.append("f", f);
			fd.append("r", f, "renamed.txt");
			const [b, n, same, r] = fd.getAll("b").concat(fd.getAll("n"), fd.getAll("f"), fd.getAll("r"));
			return [b instanceof File, b.name, b.type, await b.text(), n.name, same === f, r.name, r.lastModified, await r.text()];`,
			`[true,"blob","text/plain","x","given.txt",true,"renamed.txt",9,"z"]`},
		{"names and values are USVStrings", `
			const fd = new FormData();
			fd.append("\uD800n", { toString() { return "v\uDC00"; } });
			const [[k, v]] = [...fd];
			return [k.charCodeAt(0), v.charCodeAt(1)];`,
			`[65533,65533]`},
		{"iteration: entries, keys, values, forEach, live", `
			const fd = new FormData();
			fd.append("a", "1"); fd.append("b", "2");
			const seen = [];
			for (const [k, v] of fd) { seen.push(k + v); if (k === "a") fd.append("c", "3"); }
			const each = [];
			fd.forEach(function (v, k, self) { each.push([k, v, self === fd, this.tag]); }, { tag: "t" });
			const it = fd.values();
			return [seen, [...fd.values()], each, String(it), it[Symbol.iterator]() === it];`,
			`[["a1","b2","c3"],["1","2","3"],[["a","1",true,"t"],["b","2",true,"t"],["c","3",true,"t"]],"[object FormData Iterator]",true]`},
		{"errors", `
			const fd = new FormData();
			const out = [];
			for (const f of [() => fd.append("a"), () => fd.append("a", "text", "file.txt"), () => fd.get(), () => fd.forEach(1), () => new FormData({})]) {
			  try { f(); out.push("ok"); } catch (e) { out.push(e.name); }
			}
			return out;`,
			`["TypeError","TypeError","TypeError","TypeError","TypeError"]`},
	})
}

func TestFormDataBodies(t *testing.T) {
	runCases(t, newIsolate(t), []jsCase{
		{"a multipart round trip: text, a binary file, non-ASCII names", `
			const all = new Uint8Array(256);
			for (let i = 0; i < 256; i++) all[i] = i;
			const fd = new FormData();
			fd.append("plain", "value");
			fd.append("ünïcödé name", "välue ✓");
			fd.append("quote\"d", "line1\nline2");
			fd.append("bin", new File([all], "bytes ø.bin", { type: "application/x-test" }));
			fd.append("blob", new Blob(["as blob"]));
			const { contentType, body } = internals.serializeFormData(fd);
			const back = internals.parseFormData(body, contentType);
			const out = [];
			for (const [k, v] of back) {
			  out.push(typeof v === "string" ? [k, v] : [k, v.name, v.type, v.size, v instanceof File]);
			}
			const bin = back.get("bin");
			const same = bytesOf(await bin.bytes()).every((x, i) => x === i);
			return [contentType.startsWith("multipart/form-data; boundary=----DwkFormBoundary"), out, same];`,
			`[true,[["plain","value"],["ünïcödé name","välue ✓"],["quote%22d","line1\r\nline2"],["bin","bytes ø.bin","application/x-test",256,true],["blob","blob","application/octet-stream",7,true]],true]`},
		{"the encoding escapes names as browsers do", `
			const fd = new FormData();
			fd.append("a\"b\nc\rd", "x\ry");
			fd.append("f", new File([""], "q\"\n.txt"));
			const { contentType, body } = internals.serializeFormData(fd);
			const boundary = contentType.split("boundary=")[1];
			return textOf(body).split(boundary).join("B");`,
			`"--B\r\nContent-Disposition: form-data; name=\"a%22b%0D%0Ac%0D%0Ad\"\r\n\r\nx\r\ny\r\n--B\r\nContent-Disposition: form-data; name=\"f\"; filename=\"q%22%0A.txt\"\r\nContent-Type: application/octet-stream\r\n\r\n\r\n--B--\r\n"`},
		{"a body as a browser sends it", `
			const body = new TextEncoder().encode([
			  "------WebKitFormBoundaryx7bQ", 'Content-Disposition: form-data; name="title"', "", "Hello",
			  "------WebKitFormBoundaryx7bQ", 'Content-Disposition: form-data; name="upload"; filename="a.txt"', "Content-Type: text/plain", "", "file text",
			  "------WebKitFormBoundaryx7bQ", 'Content-Disposition: form-data; name="empty"; filename=""', "", "",
			  "------WebKitFormBoundaryx7bQ--", ""].join("\r\n"));
			const fd = internals.parseFormData(body, "multipart/form-data; boundary=----WebKitFormBoundaryx7bQ");
			const up = fd.get("upload"), empty = fd.get("empty");
			return [fd.get("title"), up.name, up.type, await up.text(), empty instanceof File, empty.name, empty.type, empty.size];`,
			`["Hello","a.txt","text/plain","file text",true,"","",0]`},
		{"line feeds alone are accepted", `
			const body = new TextEncoder().encode('--b\nContent-Disposition: form-data; name="a"\n\n1\n--b--');
			return [...internals.parseFormData(body, "multipart/form-data; boundary=b")];`,
			`[["a","1"]]`},
		{"application/x-www-form-urlencoded", `
			const body = new TextEncoder().encode("a=1&b=%C3%A9&c+d=e+f&&g&h=%zz&=v&i=1=2");
			return [...internals.parseFormData(body, "application/x-www-form-urlencoded;charset=UTF-8")];`,
			`[["a","1"],["b","é"],["c d","e f"],["g",""],["h","%zz"],["","v"],["i","1=2"]]`},
		{"bad bodies are TypeErrors that say why", `
			const enc = (s) => new TextEncoder().encode(s);
			const cases = [
			  [enc("x"), "multipart/form-data"],
			  [enc("no boundary here"), "multipart/form-data; boundary=b"],
			  [enc('--b\r\nContent-Disposition: form-data; name="a"\r\n\r\ntruncated'), "multipart/form-data; boundary=b"],
			  [enc('--b\r\nContent-Type: text/plain\r\n\r\nx\r\n--b--'), "multipart/form-data; boundary=b"],
			  [enc('--b\r\nContent-Disposition: form-data\r\n\r\nx\r\n--b--'), "multipart/form-data; boundary=b"],
			  [enc('--b\r\nContent-Disposition: attachment; name="a"\r\n\r\nx\r\n--b--'), "multipart/form-data; boundary=b"],
			  [enc("a=1"), "application/x-www-form-urlencoded; charset=latin1"],
			  [enc("a=1"), "text/plain"],
			];
			return cases.map(([b, t]) => { try { internals.parseFormData(b, t); return "ok"; } catch (e) { return describe(e).slice(0, 60); } });`,
			`["TypeError: No boundary string in Content-Type header. The mu","TypeError: No initial boundary string (or you have a truncat","TypeError: The multipart/form-data body is truncated in the ","TypeError: No valid Content-Disposition header found in Form","TypeError: Content-Disposition header in FormData part is mi","TypeError: Content-Disposition header for FormData part must","TypeError: Non-utf-8 application/x-www-form-urlencoded body ","TypeError: Unrecognized Content-Type header value \"text/plai"]`},
		{"an empty FormData", `
			const { contentType, body } = internals.serializeFormData(new FormData());
			return [...internals.parseFormData(body, contentType)];`,
			`[]`},
	})
}
