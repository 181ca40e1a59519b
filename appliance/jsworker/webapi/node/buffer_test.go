package node_test

import (
	"strings"
	"testing"
)

const importBuffer = `const { Buffer } = __dwk_import("node:buffer");`

func TestBufferEncodings(t *testing.T) {
	iso := newIsolate(t)
	// Each string goes to bytes in the encoding and back.
	for _, tc := range []struct{ name, input, encoding, hex, back string }{
		{"utf8", "héllo €𝄞", "utf8", "68c3a96c6c6f20e282acf09d849e", "héllo €𝄞"},
		{"utf-8 alias", "a", "utf-8", "61", "a"},
		{"lone surrogate", `js:"a\ud800b"`, "utf8", "61efbfbd62", "a\ufffdb"},
		{"hex", "00ff7Fa0", "hex", "00ff7fa0", "00ff7fa0"},
		{"hex stops at a bad pair", "abzz12", "hex", "ab", "ab"},
		{"hex ignores an odd last digit", "abc", "hex", "ab", "ab"},
		{"base64", "aGVsbG8gd29ybGQ=", "base64", "68656c6c6f20776f726c64", "aGVsbG8gd29ybGQ="},
		{"base64 without padding", "aGVsbG8", "base64", "68656c6c6f", "aGVsbG8="},
		{"base64 takes url-safe and spaces", "_-8 /+8=", "base64", "ffef3ffb", "/+8/+w=="},
		{"base64url", "_-8", "base64url", "ffef", "_-8"},
		{"latin1", "ÿé\u0100", "latin1", "ffe900", "ÿé\u0000"},
		{"binary alias", "é", "binary", "e9", "é"},
		{"ascii", "aé", "ascii", "61e9", "ai"},
		{"ucs2", "a€", "ucs2", "6100ac20", "a€"},
		{"utf16le", "𝄞", "utf16le", "34d81edd", "𝄞"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			input := quote(tc.input)
			if js, ok := strings.CutPrefix(tc.input, "js:"); ok {
				input = js
			}
			got := mustEvalString(t, iso, importBuffer+`const b = Buffer.from(`+input+`, `+quote(tc.encoding)+`);
				return JSON.stringify([b.toString("hex"), b.toString(`+quote(tc.encoding)+`), Buffer.byteLength(`+input+`, `+quote(tc.encoding)+`) === b.length])`)
			want := join([]string{tc.hex, tc.back}) // byteLength must agree
			want = want[:len(want)-1] + ",true]"
			if got != want {
				t.Errorf("got  %s\nwant %s", got, want)
			}
		})
	}
	runCases(t, iso, []evalCase{
		{"invalid utf8 decodes as the Encoding standard does", importBuffer + `return Buffer.from([0x61, 0xe2, 0x82, 0x62, 0xff, 0xf0, 0x9f]).toString()`, "\"a\ufffdb\ufffd\ufffd\""},
		{"toString range", importBuffer + `return Buffer.from("hello world").toString("utf8", 6, 100)`, `"world"`},
		{"write", importBuffer + `const b = Buffer.alloc(6); const n = b.write("h€llo", 1); return [n, b.toString("hex")]`, `[5,"0068e282ac6c"]`},
		{"write keeps characters whole", importBuffer + `const b = Buffer.alloc(3); return [b.write("a€"), b.toString("hex")]`, `[1,"610000"]`},
		{"write with offset, length and encoding", importBuffer + `const b = Buffer.alloc(4); return [b.write("ffeeddcc", 1, 2, "hex"), b.toString("hex")]`, `[2,"00ffee00"]`},
		{"isEncoding", importBuffer + `return ["UTF8", "Base64URL", "nope", ""].map(e => Buffer.isEncoding(e))`, `[true,true,false,false]`},
		{"utf8Slice and latin1Write", importBuffer + `const b = Buffer.from("abc"); b.latin1Write("é", 1); return [b.utf8Slice(0, 1), b[1]]`, `["a",233]`},
		{"transcode", `const { transcode } = __dwk_import("node:buffer"); return transcode(Buffer.from("€"), "utf8", "ucs2").toString("hex")`, `"ac20"`},
		{"isUtf8 and isAscii", `const b = __dwk_import("node:buffer"); return [b.isUtf8(Buffer.from("é")), b.isUtf8(new Uint8Array([0xc3])), b.isAscii(Buffer.from("a")), b.isAscii(Buffer.from("é"))]`, `[true,false,true,false]`},
	})
}

func TestBufferMaking(t *testing.T) {
	iso := newIsolate(t)
	runCases(t, iso, []evalCase{
		{"is a Uint8Array", importBuffer + `const b = Buffer.alloc(2); return [b instanceof Uint8Array, b instanceof Buffer, Buffer.isBuffer(b), Buffer.isBuffer(new Uint8Array(2)), b.constructor === Buffer]`, `[true,true,true,false,true]`},
		{"from an array wraps values", importBuffer + `return [...Buffer.from([1, 257, -1, 3.7])]`, `[1,1,255,3]`},
		{"from an ArrayBuffer shares it", importBuffer + `const ab = new ArrayBuffer(4); const b = Buffer.from(ab, 1, 2); b[0] = 9; return [b.length, new Uint8Array(ab)[1]]`, `[2,9]`},
		{"from a Buffer copies", importBuffer + `const a = Buffer.from("ab"); const b = Buffer.from(a); b[0] = 0; return a.toString()`, `"ab"`},
		{"from a Uint16Array takes elements", importBuffer + `return [...Buffer.from(new Uint16Array([0x1234, 5]))]`, `[52,5]`},
		{"from toJSON", importBuffer + `return Buffer.from(Buffer.from("hi").toJSON()).toString()`, `"hi"`},
		{"from a String object", importBuffer + `return Buffer.from(new String("x")).toString()`, `"x"`},
		{"alloc fills", importBuffer + `return [Buffer.alloc(5, "ab").toString(), Buffer.alloc(3, 1).toString("hex"), Buffer.alloc(4, "aGk=", "base64").toString()]`, `["ababa","010101","hihi"]`},
		{"allocUnsafe is zeroed here", importBuffer + `return Buffer.allocUnsafe(3).toString("hex")`, `"000000"`},
		{"concat", importBuffer + `return [Buffer.concat([Buffer.from("ab"), new Uint8Array([99]), Buffer.from("d")]).toString(), Buffer.concat([Buffer.from("abc")], 2).toString(), Buffer.concat([Buffer.from("a")], 3).toString("hex"), Buffer.concat([]).length]`, `["abcd","ab","610000",0]`},
		{"Buffer() without new", importBuffer + `return [Buffer("ab").toString(), Buffer(2).length]`, `["ab",2]`},
		{"copyBytesFrom", importBuffer + `return [...Buffer.copyBytesFrom(new Uint16Array([1, 2, 3]), 1, 1)]`, `[2,0]`},
		{"of", importBuffer + `return [...Buffer.of(1, 2)]`, `[1,2]`},
	})
	runErrorCases(t, iso, []errorCase{
		{"unknown encoding", importBuffer + `Buffer.from("a", "utf9")`, "TypeError", "Unknown encoding: utf9"},
		{"bad first argument", importBuffer + `Buffer.from(5)`, "TypeError", `The "first argument" argument must be of type string`},
		{"negative size", importBuffer + `Buffer.alloc(-1)`, "RangeError", `The value of "size" is out of range`},
		{"size not a number", importBuffer + `Buffer.alloc("3")`, "TypeError", `The "size" argument must be of type number`},
		{"concat of a non-buffer", importBuffer + `Buffer.concat(["a"])`, "TypeError", `The "list[0]" argument must be an instance of Buffer or Uint8Array`},
		{"offset outside an ArrayBuffer", importBuffer + `Buffer.from(new ArrayBuffer(2), 3)`, "RangeError", `"offset" is outside of buffer bounds`},
	})
}

func TestBufferMethods(t *testing.T) {
	iso := newIsolate(t)
	runCases(t, iso, []evalCase{
		{"slice shares memory", importBuffer + `const a = Buffer.from("hello"); const s = a.slice(1, -1); s[0] = 69; return [a.toString(), s.toString(), s instanceof Buffer, a.subarray(3).toString()]`, `["hEllo","Ell",true,"lo"]`},
		{"equals and compare", importBuffer + `const a = Buffer.from("abc"), b = Buffer.from("abd"); return [a.equals(Buffer.from("abc")), a.equals(b), a.compare(b), b.compare(a), Buffer.compare(a, a), a.compare(b, 0, 2, 0, 2)]`, `[true,false,-1,1,0,0]`},
		{"sort with compare", importBuffer + `return [Buffer.from("b"), Buffer.from("a"), Buffer.from("ab")].sort(Buffer.compare).map(String)`, `["a","ab","b"]`},
		{"copy", importBuffer + `const src = Buffer.from("abcdef"), dst = Buffer.alloc(4, "."); const n = src.copy(dst, 1, 2); return [n, dst.toString()]`, `[3,".cde"]`},
		{"copy within one buffer overlapping", importBuffer + `const b = Buffer.from("abcdef"); b.copy(b, 2, 0, 4); return b.toString()`, `"ababcd"`},
		{"fill", importBuffer + `return [Buffer.alloc(5).fill("xy", 1).toString("latin1"), Buffer.alloc(3).fill(0x101).toString("hex"), Buffer.alloc(4).fill("€").toString("hex"), Buffer.alloc(4).fill(Buffer.from([1, 2]), 1, 3).toString("hex"), Buffer.alloc(2).fill("").toString("hex")]`,
			`["\u0000xyxy","010101","e282ace2","00010200","0000"]`},
		{"indexOf", importBuffer + `const b = Buffer.from("this is a buffer is"); return [b.indexOf("is"), b.indexOf("is", 3), b.indexOf(Buffer.from("a buf")), b.indexOf(97), b.indexOf("zz"), b.indexOf("is", -2), b.indexOf(""), b.indexOf("", 100), b.indexOf("69", 0, "hex")]`, `[2,5,8,8,-1,17,0,19,2]`},
		{"lastIndexOf", importBuffer + `const b = Buffer.from("this is a buffer is"); return [b.lastIndexOf("is"), b.lastIndexOf("is", 16), b.lastIndexOf(105, -3), b.lastIndexOf("this", -30), b.lastIndexOf(Buffer.from("buf"))]`, `[17,5,5,-1,10]`},
		{"includes", importBuffer + `const b = Buffer.from("abc"); return [b.includes("bc"), b.includes("bd"), b.includes(99)]`, `[true,false,true]`},
		{"toJSON", importBuffer + `return JSON.stringify({ b: Buffer.from([1, 2]) })`, `"{\"b\":{\"type\":\"Buffer\",\"data\":[1,2]}}"`},
		{"swap", importBuffer + `return [Buffer.from("0102", "hex").swap16().toString("hex"), Buffer.from("01020304", "hex").swap32().toString("hex"), Buffer.from("0102030405060708", "hex").swap64().toString("hex")]`, `["0201","04030201","0807060504030201"]`},
		{"inspect", importBuffer + `const { inspect } = __dwk_import("node:util"); return [inspect(Buffer.from("hi")), inspect(Buffer.alloc(51)).endsWith(" ... 1 more byte>")]`, `["\u003cBuffer 68 69\u003e",true]`},
		{"iteration", importBuffer + `return [...Buffer.from("ab").entries()]`, `[[0,97],[1,98]]`},
		{"parent and offset", importBuffer + `const b = Buffer.from("abcd").subarray(1); return [b.offset, b.parent.byteLength]`, `[1,4]`},
	})
	runErrorCases(t, iso, []errorCase{
		{"swap16 of an odd length", importBuffer + `Buffer.alloc(3).swap16()`, "RangeError", "Buffer size must be a multiple of 16-bits"},
		{"fill with an empty buffer", importBuffer + `Buffer.alloc(3).fill(Buffer.alloc(0))`, "TypeError", "The argument 'value' is invalid"},
		{"fill past the end", importBuffer + `Buffer.alloc(3).fill(1, 0, 4)`, "RangeError", `The value of "end" is out of range`},
		{"equals a string", importBuffer + `Buffer.alloc(1).equals("a")`, "TypeError", `The "otherBuffer" argument must be an instance of Buffer or Uint8Array`},
		{"indexOf an object", importBuffer + `Buffer.alloc(1).indexOf({})`, "TypeError", `The "value" argument must be one of type number or string`},
	})
}

func TestBufferReadWrite(t *testing.T) {
	iso := newIsolate(t)
	// Each method writes value at offset 1 of a zeroed buffer and reads
	// it back.
	for _, tc := range []struct {
		name, write, read, value, hex, readBack string
		size                                    int
	}{
		{"UInt8", "writeUInt8", "readUInt8", "255", "00ff", "255", 2},
		{"Int8", "writeInt8", "readInt8", "-2", "00fe", "-2", 2},
		{"UInt16LE", "writeUInt16LE", "readUInt16LE", "0x1234", "003412", "4660", 3},
		{"UInt16BE", "writeUInt16BE", "readUInt16BE", "0x1234", "001234", "4660", 3},
		{"Int16LE", "writeInt16LE", "readInt16LE", "-2", "00feff", "-2", 3},
		{"Int16BE", "writeInt16BE", "readInt16BE", "-32768", "008000", "-32768", 3},
		{"UInt32LE", "writeUInt32LE", "readUInt32LE", "0xfeedface", "00cefaedfe", "4277009102", 5},
		{"UInt32BE", "writeUInt32BE", "readUInt32BE", "0xfeedface", "00feedface", "4277009102", 5},
		{"Int32LE", "writeInt32LE", "readInt32LE", "-123456789", "00eb32a4f8", "-123456789", 5},
		{"Int32BE", "writeInt32BE", "readInt32BE", "-1", "00ffffffff", "-1", 5},
		{"Uint32BE alias", "writeUint32BE", "readUint32BE", "1", "0000000001", "1", 5},
		{"FloatLE", "writeFloatLE", "readFloatLE", "1.5", "000000c03f", "1.5", 5},
		{"FloatBE", "writeFloatBE", "readFloatBE", "-2", "00c0000000", "-2", 5},
		{"DoubleLE", "writeDoubleLE", "readDoubleLE", "0.1", "009a9999999999b93f", "0.1", 9},
		{"DoubleBE", "writeDoubleBE", "readDoubleBE", "1e300", "007e37e43c8800759c", "1e+300", 9},
		{"BigUInt64LE", "writeBigUInt64LE", "readBigUInt64LE", "0x0102030405060708n", "000807060504030201", "72623859790382856", 9},
		{"BigUInt64BE", "writeBigUInt64BE", "readBigUInt64BE", "2n ** 64n - 1n", "00ffffffffffffffff", "18446744073709551615", 9},
		{"BigInt64LE", "writeBigInt64LE", "readBigInt64LE", "-2n", "00feffffffffffffff", "-2", 9},
		{"BigInt64BE", "writeBigInt64BE", "readBigInt64BE", "-(2n ** 63n)", "008000000000000000", "-9223372036854775808", 9},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := mustEvalString(t, iso, importBuffer+`const b = Buffer.alloc(`+itoa(tc.size)+`);
				const end = b.`+tc.write+`(`+tc.value+`, 1);
				return JSON.stringify([end, b.toString("hex"), String(b.`+tc.read+`(1))])`)
			want := `[` + itoa(tc.size) + `,"` + tc.hex + `","` + tc.readBack + `"]`
			if got != want {
				t.Errorf("got  %s\nwant %s", got, want)
			}
		})
	}
	runCases(t, iso, []evalCase{
		{"variable width", importBuffer + `const b = Buffer.alloc(7); b.writeUIntBE(0x123456789abc, 1, 6); return [b.toString("hex"), b.readUIntBE(1, 6), b.readUIntLE(1, 3), b.readIntBE(1, 1)]`,
			`["00123456789abc",20015998343868,5649426,18]`},
		{"variable width signed", importBuffer + `const b = Buffer.alloc(6); b.writeIntLE(-123456789012, 0, 6); return [b.readIntLE(0, 6), b.toString("hex")]`, `[-123456789012,"ece56641e3ff"]`},
		{"default offset", importBuffer + `const b = Buffer.alloc(2); b.writeUInt16BE(258); return b.readUInt16BE()`, `258`},
		{"floats are not range checked", importBuffer + `const b = Buffer.alloc(4); b.writeFloatLE(1e40); return String(b.readFloatLE(0))`, `"Infinity"`},
	})
	runErrorCases(t, iso, []errorCase{
		{"value too big", importBuffer + `Buffer.alloc(1).writeUInt8(256)`, "RangeError", `The value of "value" is out of range. It must be >= 0 and <= 255. Received 256`},
		{"value too small", importBuffer + `Buffer.alloc(2).writeInt16LE(-32769)`, "RangeError", `It must be >= -32768 and <= 32767`},
		{"read past the end", importBuffer + `Buffer.alloc(4).readUInt32LE(1)`, "RangeError", `The value of "offset" is out of range. It must be >= 0 and <= 0. Received 1`},
		{"buffer too short", importBuffer + `Buffer.alloc(2).readUInt32LE(0)`, "RangeError", "Attempt to access memory outside buffer bounds"},
		{"offset not an integer", importBuffer + `Buffer.alloc(4).readUInt8(1.5)`, "RangeError", `It must be an integer`},
		{"offset not a number", importBuffer + `Buffer.alloc(4).readUInt8("1")`, "TypeError", `The "offset" argument must be of type number`},
		{"bigint value", importBuffer + `Buffer.alloc(8).writeBigInt64LE(1)`, "TypeError", `The "value" argument must be of type bigint`},
		{"byteLength over 6", importBuffer + `Buffer.alloc(8).readUIntLE(0, 7)`, "RangeError", `The value of "byteLength" is out of range`},
	})
}
