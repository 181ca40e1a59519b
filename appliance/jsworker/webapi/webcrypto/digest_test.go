package webcrypto

import (
	"testing"

	"github.com/dwk/fleet/appliance/jsworker/jsrt/jsrttest"
	"github.com/dwk/fleet/appliance/jsworker/webapi/encoding"
	"github.com/dwk/fleet/appliance/jsworker/webapi/events"
	"github.com/dwk/fleet/appliance/jsworker/webapi/streams"
)

// Digest vectors: FIPS 180-2 appendix examples ("abc" and the 448-bit
// message) and the empty message; MD5 from RFC 1321's test suite.
func TestDigestKnownAnswers(t *testing.T) {
	const msg448 = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"
	vectors := []struct{ alg, msg, want string }{
		{"SHA-1", "abc", "a9993e364706816aba3e25717850c26c9cd0d89d"},
		{"SHA-1", msg448, "84983e441c3bd26ebaae4aa1f95129e5e54670f1"},
		{"SHA-1", "", "da39a3ee5e6b4b0d3255bfef95601890afd80709"},
		{"SHA-256", "abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"},
		{"SHA-256", msg448, "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"},
		{"SHA-256", "", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"},
		{"SHA-384", "abc", "cb00753f45a35e8bb5a03d699ac65007272c32ab0eded1631a8b605a43ff5bed8086072ba1e7cc2358baeca134c825a7"},
		{"SHA-384", "", "38b060a751ac96384cd9327eb1b1e36a21fdb71114be07434c0cc7bf63f6e1da274edebfe76f65fbd51ad2f14898b95b"},
		{"SHA-512", "abc", "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f"},
		{"SHA-512", "", "cf83e1357eefb8bdf1542850d66d8007d620e4050b5715dc83f4a921d36ce9ce47d0d13c5d85f2b0ff8318d2877eec2f63b931bd47417a81a538327af927da3e"},
		{"MD5", "abc", "900150983cd24fb0d6963f7d28e17f72"},
		{"MD5", "", "d41d8cd98f00b204e9800998ecf8427e"},
		{"MD5", "message digest", "f96b697d7cb7938d525a2f31aaf161d0"},
	}
	var cases []evalCase
	for _, v := range vectors {
		cases = append(cases, evalCase{
			name: v.alg + " " + v.msg,
			body: `return toHex(await crypto.subtle.digest("` + v.alg + `", utf8("` + v.msg + `")));`,
			want: `"` + v.want + `"`,
		})
	}
	runCases(t, newIsolate(t), cases)
}

func TestDigestArguments(t *testing.T) {
	const abc256 = `"ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"`
	runCases(t, newIsolate(t), []evalCase{
		{"name is case-insensitive", `return toHex(await crypto.subtle.digest("sha-256", utf8("abc")));`, abc256},
		{"an algorithm object", `return toHex(await crypto.subtle.digest({ name: "Sha-256" }, utf8("abc")));`, abc256},
		{"an ArrayBuffer", `return toHex(await crypto.subtle.digest("SHA-256", utf8("abc").buffer));`, abc256},
		{"a DataView over part of a buffer",
			`const b = utf8("xabcx"); return toHex(await crypto.subtle.digest("SHA-256", new DataView(b.buffer, 1, 3)));`, abc256},
		{"resolves with an ArrayBuffer", `return (await crypto.subtle.digest("SHA-1", utf8(""))) instanceof ArrayBuffer;`, `true`},
		{"returns a promise", `const p = crypto.subtle.digest("SHA-1", utf8("")); await p; return p instanceof Promise;`, `true`},
		{"unknown algorithm", `return errorOf(crypto.subtle.digest("SHA-3", utf8("abc")));`, `"NotSupportedError"`},
		{"an algorithm that does not digest", `return errorOf(crypto.subtle.digest("HMAC", utf8("abc")));`, `"NotSupportedError"`},
		{"no name", `return errorOf(crypto.subtle.digest({}, utf8("abc")));`, `"TypeError"`},
		{"a string is not data", `return errorOf(crypto.subtle.digest("SHA-256", "abc"));`, `"TypeError"`},
		{"an error rejects rather than throws",
			`let threw = false, p; try { p = crypto.subtle.digest("nope", "x"); } catch { threw = true; }
			return [threw, await errorOf(p)];`,
			`[false,"TypeError"]`},
	})
}

func TestTimingSafeEqual(t *testing.T) {
	runCases(t, newIsolate(t), []evalCase{
		{"equal", `return crypto.subtle.timingSafeEqual(utf8("secret"), utf8("secret").buffer);`, `true`},
		{"different", `return crypto.subtle.timingSafeEqual(utf8("secret"), utf8("secreT"));`, `false`},
		{"empty", `return crypto.subtle.timingSafeEqual(new Uint8Array(0), new ArrayBuffer(0));`, `true`},
		{"different lengths", `return errorOf((async () => crypto.subtle.timingSafeEqual(utf8("a"), utf8("ab")))());`, `"TypeError"`},
		{"not buffers", `return errorOf((async () => crypto.subtle.timingSafeEqual("a", "a"))());`, `"TypeError"`},
	})
}

func TestDigestStream(t *testing.T) {
	iso := jsrttest.New(t, events.Extension, encoding.Extension, streams.Extension, testHelpers, Extension)
	runCases(t, iso, []evalCase{
		{"SHA-256 of chunks",
			`const s = new crypto.DigestStream("SHA-256");
			const w = s.getWriter();
			await w.write(utf8("a")); await w.write("b"); await w.write(new DataView(utf8("c").buffer));
			await w.close();
			return [s instanceof WritableStream, toHex(await s.digest), s.bytesWritten];`,
			`[true,"ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",3]`},
		{"a readable stream piped in",
			`const s = new crypto.DigestStream("SHA-256");
			await new ReadableStream({ start(c) { c.enqueue(utf8("ab")); c.enqueue(utf8("c")); c.close(); } }).pipeTo(s);
			return [toHex(await s.digest), s.bytesWritten, s.digest === s.digest, Object.prototype.toString.call(s)];`,
			`["ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",3,true,"[object DigestStream]"]`},
		{"an algorithm object and MD5",
			`const s = new crypto.DigestStream({ name: "md5" });
			const w = s.getWriter(); await w.write(utf8("abc")); await w.close();
			return toHex(await s.digest);`,
			`"900150983cd24fb0d6963f7d28e17f72"`},
		// The CRC check values of "123456789" (the CRC catalogue's).
		{"crc32", `const s = new crypto.DigestStream("crc32"); const w = s.getWriter(); await w.write("123456789"); await w.close(); return toHex(await s.digest);`, `"cbf43926"`},
		{"crc32c", `const s = new crypto.DigestStream("crc32c"); const w = s.getWriter(); await w.write("123456789"); await w.close(); return toHex(await s.digest);`, `"e3069283"`},
		{"crc64nvme", `const s = new crypto.DigestStream("crc64nvme"); const w = s.getWriter(); await w.write("123456789"); await w.close(); return toHex(await s.digest);`, `"ae8b14860a799888"`},
		{"abort rejects the digest",
			`const s = new crypto.DigestStream("SHA-1"); await s.getWriter().abort(new RangeError("stop"));
			try { await s.digest; return "resolved"; } catch (e) { return e.message; }`,
			`"stop"`},
		{"a chunk that is not bytes",
			`const s = new crypto.DigestStream("SHA-1");
			return [await errorOf(s.getWriter().write(42)), await errorOf(s.digest)];`,
			`["TypeError","TypeError"]`},
		{"unknown algorithm", `try { new crypto.DigestStream("SHA-3"); return "constructed"; } catch (e) { return e.name; }`, `"NotSupportedError"`},
	})
}

func TestDigestStreamNeedsWritableStream(t *testing.T) {
	runCases(t, newIsolate(t), []evalCase{
		{"undefined without streams", `return [typeof WritableStream, crypto.DigestStream === undefined];`, `["undefined",true]`},
	})
}
