package streams

import (
	"testing"

	"github.com/dwk/fleet/appliance/jsworker/jsrt/jsrttest"
)

// textCases hold for TextEncoderStream and TextDecoderStream with or
// without the encoding extension.
var textCases = []jsCase{
	{"encode, with a surrogate pair split across chunks", `
		const out = await collect(ReadableStream.from(["a", "\uD83D", "\uDE00", "é"]).pipeThrough(new TextEncoderStream()));
		return out;`,
		`[[97],[240,159,152,128],[195,169]]`},
	{"encode a lone high surrogate at the end as U+FFFD", `
		return await collect(ReadableStream.from(["x\uD800"]).pipeThrough(new TextEncoderStream()));`,
		`[[120],[239,191,189]]`},
	{"decode, with a character split across chunks", `
		const chunks = [new Uint8Array([0x68, 0xC3]), new Uint8Array([0xA9, 0xF0, 0x9F]), new Uint8Array([0x98, 0x80])];
		return await collect(ReadableStream.from(chunks).pipeThrough(new TextDecoderStream()));`,
		`["h","é","😀"]`},
	{"decode drops a leading BOM", `
		return await collect(ReadableStream.from([new Uint8Array([0xEF, 0xBB]), new Uint8Array([0xBF, 0x41])]).pipeThrough(new TextDecoderStream()));`,
		`["A"]`},
	{"ignoreBOM keeps it", `
		return (await collect(ReadableStream.from([new Uint8Array([0xEF, 0xBB, 0xBF, 0x41])]).pipeThrough(new TextDecoderStream("utf-8", { ignoreBOM: true })))).map((s) => s.length);`,
		`[2]`},
	{"an incomplete sequence at the end is U+FFFD", `
		return await collect(ReadableStream.from([new Uint8Array([0x41, 0xE2, 0x82])]).pipeThrough(new TextDecoderStream()));`,
		`["A","�"]`},
	{"fatal errors the stream", `
		const ds = new TextDecoderStream("utf-8", { fatal: true });
		return [ds.fatal, await errorOf(collect(ReadableStream.from([new Uint8Array([0xFF])]).pipeThrough(ds)))];`,
		`[true,"TypeError: The encoded data was not valid for encoding utf-8"]`},
	{"chunks must be bytes", `
		return await errorOf(collect(ReadableStream.from(["text"]).pipeThrough(new TextDecoderStream())));`,
		`"TypeError: TextDecoderStream's chunks must be ArrayBuffers or ArrayBufferViews"`},
	{"attributes", `
		const e = new TextEncoderStream(), d = new TextDecoderStream("UTF8");
		return [e.encoding, d.encoding, d.fatal, d.ignoreBOM, e instanceof TransformStream, String(d)];`,
		`["utf-8","utf-8",false,false,true,"[object TextDecoderStream]"]`},
}

func TestTextStreams(t *testing.T) {
	iso := newIsolate(t)
	runCases(t, iso, textCases)
	runCases(t, iso, []jsCase{
		{"other encodings through TextDecoder", `
			const d = new TextDecoderStream("latin1");
			return [d.encoding, await collect(ReadableStream.from([new Uint8Array([0xE9])]).pipeThrough(d))];`,
			`["windows-1252",["é"]]`},
		{"unknown labels", `
			try { new TextDecoderStream("klingon"); } catch (e) { return e.name; }`,
			`"RangeError"`},
	})
}

// TestStandalone runs the streams without the events and encoding
// extensions: their own UTF-8 natives, and no abort signals.
func TestStandalone(t *testing.T) {
	iso := jsrttest.New(t, Extension, testExtension)
	runCases(t, iso, textCases)
	runCases(t, iso, []jsCase{
		{"only UTF-8 labels", `
			try { new TextDecoderStream("latin1"); } catch (e) { return describe(e); }`,
			`"RangeError: The encoding label provided ('latin1') is invalid."`},
		{"no controller signal", `
			let ctl;
			new WritableStream({ start(c) { ctl = c; } });
			return ctl.signal === undefined;`,
			`true`},
		{"bodies as text", `
			return await internals.readAllText(ReadableStream.from(["h\u00e9", new Uint8Array([0xE2, 0x82]), new Uint8Array([0xAC])]));`,
			`"hé€"`},
	})
}
