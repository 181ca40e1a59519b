package jsbind_test

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/dop251/goja"

	"github.com/dwk/fleet/appliance/bindings/r2/r2local"
	"github.com/dwk/fleet/appliance/jsworker/jsbind"
	"github.com/dwk/fleet/appliance/jsworker/jsrt"
)

// uploaded is when every object of newR2's bucket was put.
var uploaded = time.Date(2024, 1, 2, 3, 4, 5, 678e6, time.UTC)

// newR2 is an isolate whose global B is a local bucket in a fresh
// directory, whose clock stands still at uploaded.
func newR2(t *testing.T) *jsrt.Isolate {
	t.Helper()
	bk, err := r2local.Open(filepath.Join(t.TempDir(), "r2"), r2local.Options{Now: func() time.Time { return uploaded }})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { bk.Close() })
	iso := newIsolate(t)
	setGlobal(t, iso, "B", func() goja.Value { return jsbind.R2(iso, bk) })
	return iso
}

func TestR2Objects(t *testing.T) {
	iso := newR2(t)
	run(t, iso, []evalCase{
		{name: "put returns the object", js: `
			const o = await B.put("hello.txt", "hello");
			return [String(o), o.key, o.size, o.etag, o.httpEtag, o.version.length > 0, o.uploaded.toISOString(),
				o.storageClass, JSON.parse(JSON.stringify(o.checksums)), o.checksums.md5.byteLength, o.httpMetadata, o.customMetadata, o.range];`,
			want: `["[object R2Object]","hello.txt",5,"5d41402abc4b2a76b9719d911017c592","\"5d41402abc4b2a76b9719d911017c592\"",true,"2024-01-02T03:04:05.678Z",` +
				`"Standard",{"md5":"5d41402abc4b2a76b9719d911017c592"},16,{},{},null]`},
		{name: "get a string", js: `
			const o = await B.get("hello.txt");
			const before = o.bodyUsed;
			return [String(o), before, await o.text(), o.bodyUsed, o.size, o.etag];`,
			want: `["[object R2ObjectBody]",false,"hello",true,5,"5d41402abc4b2a76b9719d911017c592"]`},
		{name: "a body reads once", js: `const o = await B.get("hello.txt"); await o.text(); await o.arrayBuffer();`,
			wantErr: "TypeError: Body has already been used"},
		{name: "bytes", js: `
			await B.put("bytes", new Uint8Array([0, 255, 1]));
			const o = await B.get("bytes");
			return [o.size, Array.from(new Uint8Array(await o.arrayBuffer()))];`,
			want: `[3,[0,255,1]]`},
		{name: "ArrayBuffer, views and null", js: `
			await B.put("ab", new Uint8Array([5, 6, 7, 8]).buffer);
			await B.put("view", new Uint16Array([258, 772]).subarray(1));
			await B.put("dv", new DataView(new Uint8Array([1, 2, 3]).buffer, 1));
			await B.put("empty", null);
			const out = [];
			for (const k of ["ab", "view", "dv", "empty"]) out.push(Array.from(await (await B.get(k)).bytes()));
			return out;`,
			want: `[[5,6,7,8],[4,3],[2,3],[]]`},
		{name: "json", js: `
			await B.put("j", JSON.stringify({a: [1, "x"]}));
			return await (await B.get("j")).json();`,
			want: `{"a":[1,"x"]}`},
		{name: "the body streams", js: `
			await B.put("big", "x".repeat(200000));
			const o = await B.get("big");
			const r = o.body.getReader();
			let n = 0, chunks = 0;
			for (;;) { const {done, value} = await r.read(); if (done) break; n += value.byteLength; chunks++; }
			return [n, chunks > 1];`,
			want: `[200000,true]`},
		{name: "put a ReadableStream", js: `
			const enc = new TextEncoder();
			let k = 0;
			const s = new ReadableStream({pull(c) { if (k === 100) c.close(); else c.enqueue(enc.encode(String(k++ % 10).repeat(1000))); }});
			const o = await B.put("streamed", s);
			const text = await (await B.get("streamed")).text();
			return [o.size, text.length, text.slice(0, 2), text.slice(-2), text.slice(9999, 10001)];`,
			want: `[100000,100000,"00","99","90"]`},
		{name: "put a stream from a Response", js: `
			const o = await B.put("from-response", new Response("via a response").body);
			return [o.size, await (await B.get("from-response")).text()];`,
			want: `[14,"via a response"]`},
		{name: "a stream that fails stores nothing", js: `
			const s = new ReadableStream({start(c) { c.enqueue(new Uint8Array([1])); c.error(new Error("broken")); }});
			let msg;
			try { await B.put("broken", s); } catch (e) { msg = e.message; }
			return [msg.includes("broken"), await B.head("broken")];`,
			want: `[true,null]`},
		{name: "head", js: `
			const o = await B.head("hello.txt");
			return [String(o), "body" in o, o.size, await B.head("missing"), await B.get("missing")];`,
			want: `["[object R2Object]",false,5,null,null]`},
		{name: "metadata", js: `
			await B.put("meta", "m", {
				httpMetadata: {contentType: "text/plain", contentLanguage: "en", contentDisposition: "inline", contentEncoding: "identity",
					cacheControl: "max-age=60", cacheExpiry: new Date("2030-01-01T00:00:00Z")},
				customMetadata: {owner: "ann", n: 1},
			});
			const o = await B.head("meta");
			const h = new Headers();
			o.writeHttpMetadata(h);
			return [o.httpMetadata.contentType, o.httpMetadata.cacheExpiry instanceof Date, o.customMetadata, [...h]];`,
			want: `["text/plain",true,{"n":"1","owner":"ann"},[["cache-control","max-age=60"],["content-disposition","inline"],["content-encoding","identity"],` +
				`["content-language","en"],["content-type","text/plain"],["expires","Tue, 01 Jan 2030 00:00:00 GMT"]]]`},
		{name: "metadata from Headers", js: `
			const put = await B.put("hmeta", "h", {httpMetadata: new Headers({"Content-Type": "image/png", "Cache-Control": "no-store",
				"Expires": "Wed, 21 Oct 2015 07:28:00 GMT", "X-Other": "dropped"})});
			const o = await B.get("hmeta");
			return [put.httpMetadata.contentType, o.httpMetadata.contentType, o.httpMetadata.cacheControl, o.httpMetadata.cacheExpiry.toISOString(),
				Object.keys(o.httpMetadata).length];`,
			want: `["image/png","image/png","no-store","2015-10-21T07:28:00.000Z",3]`},
		{name: "delete", js: `
			await B.put("d1", "x"); await B.put("d2", "x"); await B.put("d3", "x");
			await B.delete("d1");
			await B.delete(["d2", "d3", "never"]);
			return [await B.head("d1"), await B.head("d2"), await B.head("d3")];`,
			want: `[null,null,null]`},
		{name: "an empty key", js: `await B.put("", "x")`, wantErr: "put: "},
		{name: "a value of another type", js: `await B.put("k", {a: 1})`,
			wantErr: "TypeError: The value must be a ReadableStream, ArrayBuffer, ArrayBufferView, string, Blob or null."},
		{name: "a storage class", js: `return (await B.put("ia", "x", {storageClass: "InfrequentAccess"})).storageClass;`,
			want: `"Standard"`},
		{name: "an unknown storage class", js: `await B.put("k", "x", {storageClass: "Glacier"})`, wantErr: "TypeError: Unsupported storage class Glacier"},
		{name: "string tags", js: `return [String(B), String(await B.createMultipartUpload("tag"))];`,
			want: `["[object R2Bucket]","[object R2MultipartUpload]"]`},
	})
}

func TestR2Checksums(t *testing.T) {
	iso := newR2(t)
	run(t, iso, []evalCase{
		{name: "md5 as hex", js: `
			const o = await B.put("a", "hello", {md5: "5d41402abc4b2a76b9719d911017c592"});
			const md5 = new Uint8Array(o.checksums.md5);
			return [JSON.parse(JSON.stringify(o.checksums)), md5.length, md5[0], md5[15], o.checksums.sha1];`,
			want: `[{"md5":"5d41402abc4b2a76b9719d911017c592"},16,93,146,null]`},
		{name: "sha256 as bytes", js: `
			const sum = new Uint8Array("2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824".match(/../g).map((h) => parseInt(h, 16)));
			const o = await B.put("b", "hello", {sha256: sum});
			const h = await B.head("b");
			return [o.checksums.toJSON().sha256, h.checksums.toJSON().sha256];`,
			want: `["2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824","2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824"]`},
		{name: "sha1 is checked", js: `
			await B.put("c", "hello", {sha1: "aaf4c61ddcc5e8a2dabede0f3b482cd9aea9434d"});
			return (await B.head("c")).size;`,
			want: `5`},
		{name: "a wrong md5 stores nothing", js: `
			let msg;
			try { await B.put("d", "hello", {md5: "00000000000000000000000000000000"}); } catch (e) { msg = e.message; }
			return [msg.startsWith("put: "), msg.includes("checksum"), await B.head("d")];`,
			want: `[true,true,null]`},
		{name: "a wrong sha512 stores nothing", js: `
			let msg;
			try { await B.put("e", "hello", {sha512: "00".repeat(64)}); } catch (e) { msg = e.message; }
			return [msg.startsWith("put: "), msg.includes("checksum"), await B.head("e")];`,
			want: `[true,true,null]`},
		{name: "two algorithms", js: `await B.put("f", "x", {md5: "00".repeat(16), sha1: "00".repeat(20)})`,
			wantErr: "TypeError: You cannot specify multiple hashing algorithms."},
		{name: "a short digest", js: `await B.put("f", "x", {md5: new Uint8Array(3)})`, wantErr: "TypeError: MD5 is 16 bytes, not 3"},
		{name: "a short hex digest", js: `await B.put("f", "x", {sha256: "abcd"})`, wantErr: "TypeError: SHA-256 is 64 hex characters, not 4"},
		{name: "not hex", js: `await B.put("f", "x", {md5: "zz".repeat(16)})`, wantErr: "TypeError: Provided MD5 wasn't a valid hex string"},
	})
}

func TestR2Ranges(t *testing.T) {
	iso := newR2(t)
	run(t, iso, []evalCase{
		{name: "setup", js: `await B.put("digits", "0123456789"); return "ok";`, want: `"ok"`},
		{name: "ranges", js: `
			const out = [];
			for (const range of [{offset: 2, length: 3}, {offset: 7}, {suffix: 4}, {length: 2}, {offset: 8, length: 50}, {suffix: 50}]) {
				const o = await B.get("digits", {range});
				out.push([await o.text(), o.range]);
			}
			return out;`,
			want: `[["234",{"length":3,"offset":2}],["789",{"length":3,"offset":7}],["6789",{"length":4,"offset":6}],` +
				`["01",{"length":2,"offset":0}],["89",{"length":2,"offset":8}],["0123456789",{"length":10,"offset":0}]]`},
		{name: "Range headers", js: `
			const out = [];
			for (const h of ["bytes=1-3", "bytes=-2", "bytes=8-", "bytes=0-1,4-5", "items=1-2", "bytes=5-2"]) {
				const o = await B.get("digits", {range: new Headers({range: h})});
				out.push(await o.text());
			}
			out.push(await (await B.get("digits", {range: new Headers()})).text());
			return out;`,
			want: `["123","89","89","0123456789","0123456789","0123456789","0123456789"]`},
		{name: "no range", js: `return (await B.get("digits")).range;`, want: `undefined`},
		{name: "a negative offset", js: `await B.get("digits", {range: {offset: -1}})`,
			wantErr: "RangeError: Invalid range. Starting offset (-1) must be greater than or equal to 0."},
		{name: "a fractional length", js: `await B.get("digits", {range: {offset: 1, length: 1.5}})`,
			wantErr: "RangeError: Invalid range. Length (1.5) must be an integer, not floating point."},
		{name: "a suffix with an offset", js: `await B.get("digits", {range: {offset: 1, suffix: 2}})`,
			wantErr: "TypeError: Suffix is incompatible with offset."},
		{name: "past the end", js: `
			try { await B.get("digits", {range: {offset: 10}}); } catch (e) { return [e.message.startsWith("get: "), e.message.endsWith("r2: range not satisfiable")]; }`,
			want: `[true,true]`},
	})
}

func TestR2Conditional(t *testing.T) {
	iso := newR2(t)
	run(t, iso, []evalCase{
		{name: "setup", js: `globalThis.etag = (await B.put("c", "v1")).etag; return etag;`, want: `"6654c734ccab8f440ff0825eb443dc7f"`},
		{name: "R2Conditional", js: `
			const second = Date.UTC(2024, 0, 2, 3, 4, 5);
			const out = [];
			for (const onlyIf of [
				{etagMatches: etag}, {etagMatches: "other"}, {etagMatches: "*"},
				{etagDoesNotMatch: etag}, {etagDoesNotMatch: "other"},
				{uploadedBefore: new Date(second + 678)}, {uploadedBefore: new Date(second + 677)},
				{uploadedAfter: new Date(second + 677)}, {uploadedAfter: new Date(second + 678)},
				{uploadedBefore: new Date(second), secondsGranularity: true}, {uploadedAfter: new Date(second), secondsGranularity: true},
				{uploadedBefore: new Date(second)},
			]) {
				const o = await B.get("c", {onlyIf});
				out.push(o.body === undefined ? "failed" : await o.text());
			}
			return out;`,
			want: `["v1","failed","v1","failed","v1","v1","failed","v1","failed","v1","failed","failed"]`},
		{name: "Headers", js: `
			const out = [];
			for (const h of [
				{"if-match": '"' + etag + '"'}, {"if-match": '"a", "' + etag + '"'}, {"if-match": '"other"'},
				{"if-none-match": '"' + etag + '"'}, {"if-none-match": "*"}, {"if-none-match": '"other"'},
				{"if-modified-since": "Tue, 02 Jan 2024 03:04:05 GMT"}, {"if-modified-since": "Tue, 02 Jan 2024 03:04:04 GMT"},
				{"if-unmodified-since": "Tue, 02 Jan 2024 03:04:05 GMT"}, {"if-unmodified-since": "Tue, 02 Jan 2024 03:04:04 GMT"},
				{"if-modified-since": "not a date"},
			]) {
				const o = await B.get("c", {onlyIf: new Headers(h)});
				out.push(o.body === undefined ? "failed" : await o.text());
			}
			return out;`,
			want: `["v1","v1","failed","failed","failed","v1","failed","v1","v1","failed","v1"]`},
		{name: "a failed condition gives the object without its body", js: `
			const o = await B.get("c", {onlyIf: {etagMatches: "other"}});
			return [String(o), o.etag, o.size, "bodyUsed" in o];`,
			want: `["[object R2Object]","6654c734ccab8f440ff0825eb443dc7f",2,false]`},
		{name: "quoted etag", js: `await B.get("c", {onlyIf: {etagMatches: '"' + etag + '"'}})`,
			wantErr: "TypeError: Conditional ETag should not be wrapped in quotes"},
		{name: "a conditional put that fails", js: `
			const r = await B.put("c", "v2", {onlyIf: {etagMatches: "other"}});
			return [r, await (await B.get("c")).text()];`,
			want: `[null,"v1"]`},
		{name: "a conditional put that holds", js: `
			const r = await B.put("c", "v2", {onlyIf: {etagMatches: etag}});
			return [r.size, await (await B.get("c")).text()];`,
			want: `[2,"v2"]`},
		{name: "put only if absent", js: `
			const a = await B.put("c", "v3", {onlyIf: new Headers({"if-none-match": "*"})});
			const b = await B.put("new", "n", {onlyIf: {etagDoesNotMatch: "*"}});
			return [a, b.key, await (await B.get("c")).text()];`,
			want: `[null,"new","v2"]`},
		{name: "not a date", js: `await B.get("c", {onlyIf: {uploadedBefore: "yesterday"}})`,
			wantErr: "TypeError: onlyIf.uploadedBefore must be a valid Date."},
	})
}

func TestR2List(t *testing.T) {
	iso := newR2(t)
	keys := func(page string) string { return `(` + page + `).objects.map((o) => o.key)` }
	run(t, iso, []evalCase{
		{name: "setup", js: `
			for (const k of ["a/1", "a/2", "a/b/3", "b", "c"]) await B.put(k, k);
			await B.put("m", "m", {httpMetadata: {contentType: "text/x"}, customMetadata: {k: "v"}});
			return "ok";`, want: `"ok"`},
		{name: "everything", js: `
			const p = await B.list();
			return [p.objects.map((o) => o.key), p.truncated, "cursor" in p, p.delimitedPrefixes, p.objects[0].httpMetadata, p.objects[0].customMetadata, p.objects[0].size];`,
			want: `[["a/1","a/2","a/b/3","b","c","m"],false,false,[],null,null,3]`},
		{name: "a delimiter", js: `
			const p = await B.list({delimiter: "/"});
			return [` + keys("p") + `, p.delimitedPrefixes];`,
			want: `[["b","c","m"],["a/"]]`},
		{name: "a prefix and a delimiter", js: `
			const p = await B.list({prefix: "a/", delimiter: "/"});
			return [` + keys("p") + `, p.delimitedPrefixes];`,
			want: `[["a/1","a/2"],["a/b/"]]`},
		{name: "pages", js: `
			const out = [];
			let cursor;
			do {
				const p = await B.list({limit: 4, cursor});
				out.push([p.objects.map((o) => o.key), p.truncated]);
				cursor = p.cursor;
			} while (cursor !== undefined);
			return out;`,
			want: `[[["a/1","a/2","a/b/3","b"],true],[["c","m"],false]]`},
		{name: "startAfter", js: `return ` + keys(`await B.list({startAfter: "a/2"})`) + `;`,
			want: `["a/b/3","b","c","m"]`},
		{name: "include", js: `
			const p = await B.list({prefix: "m", include: ["httpMetadata", "customMetadata"]});
			const q = await B.list({prefix: "c", include: ["customMetadata"]});
			return [p.objects[0].httpMetadata, p.objects[0].customMetadata, q.objects[0].httpMetadata, q.objects[0].customMetadata];`,
			want: `[{"contentType":"text/x"},{"k":"v"},null,{}]`},
		{name: "writeHttpMetadata without httpMetadata", js: `(await B.list({prefix: "m"})).objects[0].writeHttpMetadata(new Headers())`,
			wantErr: "TypeError: HTTP metadata unknown for key `m`. Did you forget to add 'httpMetadata' to `include` when listing?"},
		{name: "an unknown include", js: `await B.list({include: ["checksums"]})`, wantErr: "RangeError: Unsupported include value checksums"},
		{name: "a limit out of range", js: `await B.list({limit: 0})`, wantErr: "RangeError: list() takes a limit from 1 to 1000, not 0."},
	})
}

func TestR2Multipart(t *testing.T) {
	iso := newR2(t)
	run(t, iso, []evalCase{
		{name: "three parts", js: `
			const MiB = 1024 * 1024;
			const u = await B.createMultipartUpload("big", {httpMetadata: {contentType: "text/plain"}, customMetadata: {parts: "3"}});
			const p2 = await u.uploadPart(2, new TextEncoder().encode("b".repeat(5 * MiB)));
			const p1 = await u.uploadPart(1, "a".repeat(5 * MiB));
			const p3 = await u.uploadPart(3, new ReadableStream({start(c) { c.enqueue(new TextEncoder().encode("tail")); c.close(); }}));
			const o = await u.complete([p1, p2, p3]);
			const h = await B.head("big");
			const tail = await (await B.get("big", {range: {suffix: 4}})).text();
			const seam = await (await B.get("big", {range: {offset: 5 * MiB - 2, length: 4}})).text();
			const all = await (await B.get("big")).arrayBuffer();
			return [u.key, typeof u.uploadId, p1.partNumber, typeof p1.etag, o.size, /-3$/.test(o.etag), h.httpMetadata, h.customMetadata, tail, seam, all.byteLength];`,
			want: `["big","string",1,"string",10485764,true,{"contentType":"text/plain"},{"parts":"3"},"tail","aabb",10485764]`},
		{name: "resume and abort", js: `
			const u = await B.createMultipartUpload("aborted");
			const r = B.resumeMultipartUpload("aborted", u.uploadId);
			await r.uploadPart(1, "x");
			await r.abort();
			let msg;
			try { await u.uploadPart(2, "y"); } catch (e) { msg = e.message; }
			return [r.key, r.uploadId === u.uploadId, msg.startsWith("uploadPart: "), msg.endsWith("r2: no such multipart upload"), await B.head("aborted")];`,
			want: `["aborted",true,true,true,null]`},
		{name: "a small part before the last", js: `
			const u = await B.createMultipartUpload("small");
			const parts = [await u.uploadPart(1, "a"), await u.uploadPart(2, "b")];
			try { await u.complete(parts); } catch (e) { return [e.message.startsWith("completeMultipartUpload: "), e.message.endsWith("r2: invalid multipart part")]; }`,
			want: `[true,true]`},
		{name: "an unknown upload", js: `
			try { await B.resumeMultipartUpload("k", "nope").abort(); } catch (e) { return [e.message.startsWith("abortMultipartUpload: "), e.message.endsWith("r2: no such multipart upload")]; }`,
			want: `[true,true]`},
		{name: "a part number that is not one", js: `await (await B.createMultipartUpload("n")).uploadPart(-1, "x")`,
			wantErr: "RangeError: partNumber (-1) must be greater than or equal to 0."},
	})
}

func TestR2Refused(t *testing.T) {
	iso := newR2(t)
	run(t, iso, []evalCase{
		{name: "SSE-C on put", js: `await B.put("k", "x", {ssecKey: "00".repeat(32)})`, wantErr: "TypeError: dwk's R2 does not support SSE-C"},
		{name: "SSE-C on get", js: `await B.get("k", {ssecKey: "00".repeat(32)})`, wantErr: "TypeError: dwk's R2 does not support SSE-C"},
		{name: "SSE-C on uploads", js: `await B.createMultipartUpload("k", {ssecKey: "00".repeat(32)})`, wantErr: "TypeError: dwk's R2 does not support SSE-C"},
	})
}

func TestR2Blob(t *testing.T) {
	iso := newR2(t)
	run(t, iso, []evalCase{
		{name: "put a Blob", js: `
			const o = await B.put("blob", new Blob(["ab", new Uint8Array([99])]));
			return [o.size, await (await B.get("blob")).text()];`,
			want: `[3,"abc"]`},
		{name: "blob() has the content type", js: `
			await B.put("typed", "x", {httpMetadata: {contentType: "image/png"}});
			const b = await (await B.get("typed")).blob();
			return [b.type, b.size, await b.text()];`,
			want: `["image/png",1,"x"]`},
	})
}
