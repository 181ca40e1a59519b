package encoding_test

import (
	"testing"

	"github.com/dwk/fleet/appliance/jsworker/jsrt"
	"github.com/dwk/fleet/appliance/jsworker/jsrt/jsrttest"
	"github.com/dwk/fleet/appliance/jsworker/webapi/encoding"
	"github.com/dwk/fleet/appliance/jsworker/webapi/events"
)

// exposeInternal makes the preludes' internal object a global for tests.
var exposeInternal = jsrt.Extension{Name: "expose", JS: "global.internal = internal;"}

type evalCase struct {
	name, body, want string
}

func runCases(t *testing.T, cases []evalCase) {
	t.Helper()
	iso := jsrttest.New(t, events.Extension, encoding.Extension, exposeInternal)
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := jsrttest.Eval(iso, tc.body)
			if err != nil {
				t.Fatalf("eval: %v\nbody:\n%s", err, tc.body)
			}
			if got != tc.want {
				t.Errorf("got  %s\nwant %s", got, tc.want)
			}
		})
	}
}

func TestTextEncoder(t *testing.T) {
	runCases(t, []evalCase{
		{"encode", `return Array.from(new TextEncoder().encode("a€😀"))`, `[97,226,130,172,240,159,152,128]`},
		{"lone surrogates", `return Array.from(new TextEncoder().encode("a\uD800b\uDC00"))`, `[97,239,191,189,98,239,191,189]`},
		{"default and conversion", `const e = new TextEncoder(); return [e.encode().length, Array.from(e.encode(12)), e.encoding, e.encode("x") instanceof Uint8Array]`, `[0,[49,50],"utf-8",true]`},
		{"encodeInto", `const dst = new Uint8Array(5); const r = new TextEncoder().encodeInto("a😀b", dst); return [r.read, r.written, Array.from(dst)]`,
			`[3,5,[97,240,159,152,128]]`},
		{"encodeInto stops before a character that does not fit", `const dst = new Uint8Array(4); const r = new TextEncoder().encodeInto("ab€", dst); return [r.read, r.written]`, `[2,2]`},
		{"encodeInto a subarray", `const buf = new Uint8Array(6); const r = new TextEncoder().encodeInto("xyz", buf.subarray(2, 4)); return [r, Array.from(buf)]`,
			`[{"read":2,"written":2},[0,0,120,121,0,0]]`},
		{"encodeInto needs a Uint8Array", `try { new TextEncoder().encodeInto("a", new ArrayBuffer(4)); return "no error" } catch (e) { return e.name }`, `"TypeError"`},
	})
}

func TestTextDecoder(t *testing.T) {
	runCases(t, []evalCase{
		{"utf-8", `return new TextDecoder().decode(new Uint8Array([104, 105, 226, 130, 172]))`, `"hi€"`},
		{"replacement", `return new TextDecoder().decode(new Uint8Array([0xE2, 0x82, 0x41, 0xFF]))`, "\"\uFFFDA\uFFFD\""},
		{"labels", `return ["UTF8", " unicode-1-1-utf-8 ", "utf-16", "UCS-2", "utf-16be", "latin1", "ascii", "ISO-8859-1", "shift_jis", "gbk", "iso-8859-2", "x-user-defined"].map(l => new TextDecoder(l).encoding)`,
			`["utf-8","utf-8","utf-16le","utf-16le","utf-16be","windows-1252","windows-1252","windows-1252","shift_jis","gbk","iso-8859-2","x-user-defined"]`},
		{"unknown label", `try { new TextDecoder("klingon"); return "no error" } catch (e) { return [e.name, e.message] }`, `["RangeError","Failed to construct 'TextDecoder': \"klingon\" is not a valid encoding."]`},
		{"replacement label", `try { new TextDecoder("iso-2022-kr"); return "no error" } catch (e) { return e.name }`, `"RangeError"`},
		{"attributes", `const d = new TextDecoder("utf-8", { fatal: true, ignoreBOM: 1 }); const e = new TextDecoder(); return [d.fatal, d.ignoreBOM, e.fatal, e.ignoreBOM]`, `[true,true,false,false]`},
		{"fatal", `try { new TextDecoder("utf-8", { fatal: true }).decode(new Uint8Array([0xC0])); return "no error" } catch (e) { return [e.name, e.message] }`,
			`["TypeError","The encoded data was not valid for encoding utf-8"]`},
		{"fatal decoder goes on", `const d = new TextDecoder("utf-8", { fatal: true }); try { d.decode(new Uint8Array([0xFF])) } catch {} return d.decode(new Uint8Array([0x61]))`, `"a"`},
		{"BOM", `const b = new Uint8Array([0xEF, 0xBB, 0xBF, 0x61]); return [new TextDecoder().decode(b), new TextDecoder("utf-8", { ignoreBOM: true }).decode(b).length]`, `["a",2]`},
		{"BOM only at the start", `const d = new TextDecoder(); return d.decode(new Uint8Array([0x61, 0xEF, 0xBB, 0xBF])).length`, `2`},
		{"BOM again after a flush", `const d = new TextDecoder(); const b = new Uint8Array([0xEF, 0xBB, 0xBF, 0x61]); return [d.decode(b), d.decode(b)]`, `["a","a"]`},
		{"utf-16le BOM", `return new TextDecoder("utf-16le").decode(new Uint8Array([0xFF, 0xFE, 0x61, 0x00]))`, `"a"`},
		{"stream", `const d = new TextDecoder(); const b = new TextEncoder().encode("€😀");
			let s = ""; for (const x of b) s += d.decode(new Uint8Array([x]), { stream: true }); s += d.decode(); return s`, `"€😀"`},
		{"stream BOM split", `const d = new TextDecoder(); return d.decode(new Uint8Array([0xEF, 0xBB]), { stream: true }) + d.decode(new Uint8Array([0xBF, 0x62]))`, `"b"`},
		{"unfinished at the end", `const d = new TextDecoder(); return [d.decode(new Uint8Array([0xE2, 0x82]), { stream: true }), d.decode()]`, "[\"\",\"\uFFFD\"]"},
		{"utf-16le stream", `const d = new TextDecoder("utf-16le"); const b = [0x3D, 0xD8, 0x00, 0xDE, 0x61, 0x00];
			let s = ""; for (const x of b) s += d.decode(new Uint8Array([x]), { stream: true }); return s + d.decode()`, `"😀a"`},
		{"utf-16be", `return new TextDecoder("utf-16be").decode(new Uint8Array([0, 0x68, 0x20, 0xAC]))`, `"h€"`},
		{"windows-1252", `return new TextDecoder("latin1").decode(new Uint8Array([0x63, 0x61, 0x66, 0xE9, 0x80]))`, `"café€"`},
		{"shift_jis", `return new TextDecoder("shift_jis").decode(new Uint8Array([0x82, 0xA0, 0x82, 0xA2]))`, `"あい"`},
		{"shift_jis stream", `const d = new TextDecoder("shift_jis"); return d.decode(new Uint8Array([0x82]), { stream: true }) + d.decode(new Uint8Array([0xA0]))`, `"あ"`},
		{"shift_jis fatal", `try { new TextDecoder("shift_jis", { fatal: true }).decode(new Uint8Array([0x82])); return "no error" } catch (e) { return e.name }`, `"TypeError"`},
		{"buffer sources", `const u = new TextEncoder().encode("xhello"); const d = new TextDecoder();
			return [d.decode(u.buffer), d.decode(new DataView(u.buffer, 1, 2)), d.decode(u.subarray(3)), d.decode(new Uint16Array(u.buffer, 0, 2)), d.decode(), d.decode(undefined, { stream: true })]`,
			`["xhello","he","llo","xhel","",""]`},
		{"input must be a buffer", `try { new TextDecoder().decode("text"); return "no error" } catch (e) { return e.name }`, `"TypeError"`},
		{"null input", `try { new TextDecoder().decode(null); return "no error" } catch (e) { return e.name }`, `"TypeError"`},
		{"round trip of a large string", `const s = "añ€😀".repeat(100000); return new TextDecoder().decode(new TextEncoder().encode(s)) === s`, `true`},
	})
}

func TestBase64Globals(t *testing.T) {
	runCases(t, []evalCase{
		{"btoa", `return [btoa(""), btoa("a"), btoa("ab"), btoa("\u00ff\u00fe"), btoa(12)]`, `["","YQ==","YWI=","//4=","MTI="]`},
		{"atob", `return [atob("YQ=="), atob(" Y Q "), atob("//4="), atob("")]`, "[\"a\",\"a\",\"\u00ff\u00fe\",\"\"]"},
		{"btoa out of range", `try { btoa("€"); return "no error" } catch (e) { return [e instanceof DOMException, e.name, e.code] }`, `[true,"InvalidCharacterError",5]`},
		{"btoa lone surrogate", `try { btoa("\uD800"); return "no error" } catch (e) { return e.name }`, `"InvalidCharacterError"`},
		{"atob invalid", `const out = []; for (const s of ["Y", "YQ=", "a-b_", "YQ==="]) { try { atob(s); out.push("ok") } catch (e) { out.push(e.name) } } return out`,
			`["InvalidCharacterError","InvalidCharacterError","InvalidCharacterError","InvalidCharacterError"]`},
		{"arguments required", `const out = []; for (const f of [atob, btoa]) { try { f(); out.push("ok") } catch (e) { out.push(e.name) } } return out`, `["TypeError","TypeError"]`},
		{"round trip of every byte", `let s = ""; for (let k = 0; k < 256; k++) s += String.fromCharCode(k); return atob(btoa(s)) === s`, `true`},
	})
}

func TestSharedConversions(t *testing.T) {
	runCases(t, []evalCase{
		{"utf8", `const u = internal.utf8Encode("h€"); return [Array.from(u), internal.utf8Decode(u), internal.utf8Decode(new Uint8Array([0xEF, 0xBB, 0xBF, 0x61])).length, internal.utf8Decode(new Uint8Array([0xEF, 0xBB, 0xBF, 0x61]), true)]`,
			`[[104,226,130,172],"h€",2,"a"]`},
		{"base64", `const u = new Uint8Array([0xfb, 0xff, 0x00]); return [internal.base64Encode(u), internal.base64Encode(u, true), Array.from(internal.base64Decode("+/8A")), internal.base64Decode("-_8A"), Array.from(internal.base64Decode("-_8A", true))]`,
			`["+/8A","-_8A",[251,255,0],null,[251,255,0]]`},
		{"hex", `return [internal.hexEncode(new Uint8Array([0, 171, 255])), Array.from(internal.hexDecode("00aBfFzz"))]`, `["00abff",[0,171,255]]`},
		{"latin1", `const u = internal.latin1Encode("a\u00e9\u20ac"); return [Array.from(u), internal.latin1Decode(new Uint8Array([97, 233]))]`, `[[97,233,172],"aé"]`},
		{"utf16le", `const u = internal.utf16leEncode("a\uD800"); return [Array.from(u), internal.utf16leDecode(u) === "a\uD800", internal.utf16leDecode(new Uint8Array([97, 0, 98]))]`, `[[97,0,0,216],true,"a"]`},
		{"bytes are checked", `try { internal.hexEncode("abc"); return "no error" } catch (e) { return e.name }`, `"TypeError"`},
	})
}
