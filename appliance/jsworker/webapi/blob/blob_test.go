package blob

import "testing"

func TestBlob(t *testing.T) {
	runCases(t, newIsolate(t), []jsCase{
		{"parts of every kind", `
			const inner = new Blob(["in"]);
			const b = new Blob(["é", new Uint8Array([1, 2]), new Uint16Array([0x0403]).buffer, new DataView(new Uint8Array([5, 6, 7]).buffer, 1, 1), inner, 42]);
			return [b.size, bytesOf(await b.bytes())];`,
			`[11,[195,169,1,2,3,4,6,105,110,52,50]]`},
		{"no parts", `const b = new Blob(); return [b.size, b.type, await b.text()];`, `[0,"",""]`},
		{"types are lowercased, or empty when not printable ASCII", `
			return [new Blob([], { type: "Text/HTML; Charset=UTF-8" }).type, new Blob([], { type: "a\u00e9" }).type, new Blob([], { type: "a\nb" }).type];`,
			`["text/html; charset=utf-8","",""]`},
		{"native endings turn CRLF and CR into LF in strings only", `
			const b = new Blob(["a\r\nb\rc\n", new Uint8Array([13, 10])], { endings: "native" });
			const t = new Blob(["a\r\n"]);
			return [bytesOf(await b.bytes()), t.size];`,
			`[[97,10,98,10,99,10,13,10],3]`},
		{"a lone surrogate is U+FFFD", `return bytesOf(await new Blob(["\uD800"]).bytes());`, `[239,191,189]`},
		{"the parts are copied", `
			const u8 = new Uint8Array([1]);
			const b = new Blob([u8]);
			u8[0] = 2;
			return bytesOf(await b.bytes());`,
			`[1]`},
		{"bytes() and arrayBuffer() are copies", `
			const b = new Blob(["ab"]);
			const x = await b.bytes();
			x[0] = 0;
			const ab = await b.arrayBuffer();
			return [ab instanceof ArrayBuffer, ab.byteLength, await b.text()];`,
			`[true,2,"ab"]`},
		{"text() decodes UTF-8, drops a BOM, replaces bad bytes", `
			return await new Blob([new Uint8Array([0xEF, 0xBB, 0xBF, 0x68, 0xFF, 0xC3, 0xA9])]).text();`,
			`"h�é"`},
		{"slice with negative indices and a content type", `
			const b = new Blob(["0123456789"], { type: "text/plain" });
			const s = [b.slice(2, 5), b.slice(-3), b.slice(-100, 2), b.slice(5, 2), b.slice(8, 100), b.slice(0, -8, "Text/X")];
			return [await Promise.all(s.map((x) => x.text())), s.map((x) => x.type)];`,
			`[["234","789","01","","89","01"],["","","","","","text/x"]]`},
		{"slices and one-Blob Blobs share memory", `
			const b = new Blob(["0123456789"]);
			const mem = (x) => internals.blobBytes(x).buffer;
			return [mem(b.slice(1, 4)) === mem(b), mem(new Blob([b])) === mem(b), mem(new Blob([b, "x"])) === mem(b)];`,
			`[true,true,false]`},
		{"stream() in chunks of 64 KiB", `
			const b = new Blob([new Uint8Array(150000).fill(9)]);
			const r = b.stream().getReader();
			const sizes = [];
			for (;;) { const { value, done } = await r.read(); if (done) break; sizes.push(value.length); }
			return [sizes, internals.streamLength(b.stream())];`,
			`[[65536,65536,18928],150000]`},
		{"stream() takes BYOB reads", `
			const r = new Blob(["hello"]).stream().getReader({ mode: "byob" });
			const { value } = await r.read(new Uint8Array(3));
			return textOf(value);`,
			`"hel"`},
		{"errors", `
			const out = [];
			for (const f of [() => new Blob("abc"), () => new Blob(5), () => new Blob([], { endings: "crlf" }), () => new Blob([Symbol()]), () => new Blob([], 1)]) {
			  try { f(); out.push("ok"); } catch (e) { out.push(e.name); }
			}
			out.push(await Blob.prototype.text.call({}).catch((e) => e.name));
			return out;`,
			`["TypeError","TypeError","TypeError","TypeError","TypeError","TypeError"]`},
		{"Web IDL shapes", `
			const b = new Blob();
			return [String(b), Object.keys(globalThis).includes("Blob"), Object.getOwnPropertyDescriptor(Blob.prototype, "size").enumerable];`,
			`["[object Blob]",false,true]`},
	})
}

func TestFile(t *testing.T) {
	runCases(t, newIsolate(t), []jsCase{
		{"name, type, lastModified", `
			const f = new File(["x"], "ä.txt", { type: "Text/Plain", lastModified: 1234.9 });
			return [f.name, f.type, f.lastModified, f.size, f instanceof Blob, String(f)];`,
			`["ä.txt","text/plain",1234,1,true,"[object File]"]`},
		{"lastModified defaults to now", `
			const before = Date.now();
			const f = new File([], "a");
			return f.lastModified >= before && f.lastModified <= Date.now();`,
			`true`},
		{"a name is required", `
			try { new File(["x"]); } catch (e) { return describe(e); }`,
			`"TypeError: Failed to construct 'File': 2 arguments required, but only 1 present."`},
		{"slices of a File are Blobs", `
			const s = new File(["abc"], "f").slice(1);
			return [s instanceof File, s instanceof Blob, await s.text()];`,
			`[false,true,"bc"]`},
	})
}

func TestClone(t *testing.T) {
	runCases(t, newIsolate(t), []jsCase{
		{"structuredClone shares a Blob's bytes", `
			const b = new Blob(["abc"], { type: "text/plain" });
			const c = structuredClone(b);
			return [c !== b, c instanceof Blob, c.type, await c.text(), internals.blobBytes(c) === internals.blobBytes(b)];`,
			`[true,true,"text/plain","abc",true]`},
		{"a File keeps its name and time", `
			const c = structuredClone({ f: new File(["x"], "n.bin", { lastModified: 5 }) }).f;
			return [c instanceof File, c.name, c.lastModified, await c.text()];`,
			`[true,"n.bin",5,"x"]`},
		{"serialized for storage and back", `
			const v = internals.deserialize(internals.serialize([new Blob([new Uint8Array([0, 255])], { type: "a/b" }), new File(["é"], "f", { lastModified: 7 })]));
			return [v[0] instanceof Blob, v[0].type, bytesOf(await v[0].bytes()), v[1].name, v[1].lastModified, await v[1].text()];`,
			`[true,"a/b",[0,255],"f",7,"é"]`},
	})
}
