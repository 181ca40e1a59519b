package node_test

import "testing"

func TestStringDecoder(t *testing.T) {
	iso := newIsolate(t)
	const importSD = `const { StringDecoder } = __dwk_import("node:string_decoder");`
	runCases(t, iso, []evalCase{
		{"utf8 across chunks", importSD + `const d = new StringDecoder("utf8"); const b = Buffer.from("a€𝄞"); return [...b].map(x => d.write(Buffer.from([x]))).concat(d.end())`,
			`["a","","","€","","","","𝄞",""]`},
		{"incomplete at end", importSD + `const d = new StringDecoder(); return [d.write(Buffer.from([0xe2, 0x82])), d.end()]`, "[\"\",\"\ufffd\"]"},
		{"invalid bytes are not held", importSD + `const d = new StringDecoder("utf8"); return d.write(Buffer.from([0x61, 0xff]))`, "\"a\ufffd\""},
		{"utf16le keeps pairs whole", importSD + `const d = new StringDecoder("utf16le"); const b = Buffer.from("𝄞", "utf16le"); return [d.write(b.subarray(0, 1)), d.write(b.subarray(1, 3)), d.write(b.subarray(3)), d.end()]`, `["","","𝄞",""]`},
		{"base64 in threes", importSD + `const d = new StringDecoder("base64"); return [d.write(Buffer.from("ab")), d.write(Buffer.from("c")), d.write(Buffer.from("d")), d.end()]`, `["","YWJj","","ZA=="]`},
		{"hex", importSD + `return new StringDecoder("hex").write(Buffer.from([1, 255]))`, `"01ff"`},
		{"end with a chunk", importSD + `return new StringDecoder().end(Buffer.from("x"))`, `"x"`},
	})
	runErrorCases(t, iso, []errorCase{
		{"unknown encoding", importSD + `new StringDecoder("utf9")`, "TypeError", "Unknown encoding: utf9"},
	})
}

func TestQuerystring(t *testing.T) {
	iso := newIsolate(t)
	const importQS = `const qs = __dwk_import("node:querystring");`
	runCases(t, iso, []evalCase{
		{"parse", importQS + `return { ...qs.parse("a=1&b=x%20y&a=2&c&d=&e=%E2%82%AC+plus") }`, `{"a":["1","2"],"b":"x y","c":"","d":"","e":"€ plus"}`},
		{"parse has no prototype", importQS + `return Object.getPrototypeOf(qs.parse("a=1"))`, `null`},
		{"parse with separators and maxKeys", importQS + `return [{ ...qs.parse("a:1;b:2;c:3", ";", ":", { maxKeys: 2 }) }]`, `[{"a":"1","b":"2"}]`},
		{"parse of bad escapes", importQS + `return { ...qs.parse("a=%zz&b=%E2%82") }`, "{\"a\":\"%zz\",\"b\":\"\ufffd\"}"},
		{"stringify", importQS + `return qs.stringify({ a: [1, 2], b: "x y", c: true, d: null, e: {}, f: "€" })`, `"a=1\u0026a=2\u0026b=x%20y\u0026c=true\u0026d=\u0026e=\u0026f=%E2%82%AC"`},
		{"stringify with separators", importQS + `return qs.stringify({ a: 1, b: 2 }, ";", ":")`, `"a:1;b:2"`},
		{"escape and unescape", importQS + `return [qs.escape("a b&c"), qs.unescape("a%20b"), qs.unescape("%zz")]`, `["a%20b%26c","a b","%zz"]`},
		{"aliases", importQS + `return qs.encode === qs.stringify && qs.decode === qs.parse`, `true`},
	})
}

func TestURLModule(t *testing.T) {
	iso := newIsolate(t)
	const importURL = `const url = __dwk_import("node:url");`
	runCases(t, iso, []evalCase{
		{"globals", importURL + `return url.URL === URL && url.URLSearchParams === URLSearchParams`, `true`},
		{"fileURLToPath", importURL + `return [url.fileURLToPath("file:///a/b%20c"), url.fileURLToPath(new URL("file:///x/y"))]`, `["/a/b c","/x/y"]`},
		{"pathToFileURL", importURL + `return [url.pathToFileURL("/a/b c#d?").href, url.pathToFileURL("rel/").href, url.pathToFileURL("/50%").href]`, `["file:///a/b%20c%23d%3F","file:///rel/","file:///50%25"]`},
		{"parse", importURL + `const u = url.parse("HTTP://user:pw@Example.com:8080/p/a/t/h?query=string#hash");
			return [u.protocol, u.slashes, u.auth, u.host, u.port, u.hostname, u.hash, u.search, u.query, u.pathname, u.path, u.href]`,
			`["http:",true,"user:pw","example.com:8080","8080","example.com","#hash","?query=string","query=string","/p/a/t/h","/p/a/t/h?query=string","http://user:pw@example.com:8080/p/a/t/h?query=string#hash"]`},
		{"parse with the query parsed", importURL + `const u = url.parse("/p?a=1&a=2&b=3", true); return [u.pathname, { ...u.query }, u.host]`, `["/p",{"a":["1","2"],"b":"3"},null]`},
		{"parse of a bare host", importURL + `const u = url.parse("http://x.com"); return [u.pathname, u.href]`, `["/","http://x.com/"]`},
		{"parse with slashesDenoteHost", importURL + `const u = url.parse("//host/p", false, true); return [u.host, u.pathname]`, `["host","/p"]`},
		{"parse escapes spaces", importURL + `return url.parse("http://a.com/b c").pathname`, `"/b%20c"`},
		{"parse of mailto", importURL + `const u = url.parse("mailto:me@example.com"); return [u.protocol, u.auth, u.hostname, u.href]`, `["mailto:","me","example.com","mailto:me@example.com"]`},
		{"format an object", importURL + `return url.format({ protocol: "https", hostname: "example.com", port: 8080, pathname: "/some/path", query: { page: 1, format: "json" } })`,
			`"https://example.com:8080/some/path?page=1\u0026format=json"`},
		{"format a URL", importURL + `return [url.format(new URL("https://a:b@測試.com/x?y#z"), { auth: false, fragment: false, unicode: true }), url.format("http://A.com/")]`, `["https://測試.com/x?y","http://a.com/"]`},
		{"resolve", importURL + `return [url.resolve("/one/two/three", "four"), url.resolve("http://example.com/", "/one"), url.resolve("http://example.com/one", "/two"), url.resolve("one/two/three", "four")]`,
			`["/one/two/four","http://example.com/one","http://example.com/two","one/two/four"]`},
		{"domainToASCII", importURL + `return [url.domainToASCII("español.com"), url.domainToUnicode("xn--espaol-zwa.com"), url.domainToASCII("xn--iñvalid.com")]`, `["xn--espaol-zwa.com","español.com",""]`},
		{"urlToHttpOptions", importURL + `const o = url.urlToHttpOptions(new URL("https://a:b@x.com:81/p?q")); return [o.hostname, o.port, o.path, o.auth]`, `["x.com",81,"/p?q","a:b"]`},
	})
	runErrorCases(t, iso, []errorCase{
		{"fileURLToPath of http", `__dwk_import("node:url").fileURLToPath("http://x/")`, "TypeError", "The URL must be of scheme file"},
		{"fileURLToPath with a host", `__dwk_import("node:url").fileURLToPath("file://host/x")`, "TypeError", `File URL host must be "localhost" or empty on linux`},
		{"fileURLToPath with an encoded slash", `__dwk_import("node:url").fileURLToPath("file:///a%2Fb")`, "TypeError", "must not include encoded / characters"},
	})
}

func TestPunycode(t *testing.T) {
	iso := newIsolate(t)
	const importPunycode = `const punycode = __dwk_import("node:punycode");`
	runCases(t, iso, []evalCase{
		{"encode and decode", importPunycode + `return [punycode.encode("mañana"), punycode.decode("maana-pta"), punycode.encode("☃-⌘"), punycode.decode("--dqo34k")]`, `["maana-pta","mañana","--dqo34k","☃-⌘"]`},
		{"toASCII and toUnicode", importPunycode + `return [punycode.toASCII("mañana.com"), punycode.toUnicode("xn--maana-pta.com"), punycode.toASCII("джумла@джpумлатест.bрфa"), punycode.toUnicode("example.com")]`,
			`["xn--maana-pta.com","mañana.com","джумла@xn--p-8sbkgc5ag7bhce.xn--ba-lmcq","example.com"]`},
		{"ucs2", importPunycode + `return [punycode.ucs2.decode("\ud834\udf06"), punycode.ucs2.encode([0x1d306])]`, `[[119558],"𝌆"]`},
	})
	runErrorCases(t, iso, []errorCase{
		{"not basic", `__dwk_import("node:punycode").decode("ü-abc")`, "RangeError", "Illegal input >= 0x80"},
		{"invalid input", `__dwk_import("node:punycode").decode("ü")`, "RangeError", "Invalid input"},
	})
}

func TestAssert(t *testing.T) {
	iso := newIsolate(t)
	const importAssert = `const assert = __dwk_import("node:assert");`
	runCases(t, iso, []evalCase{
		{"passing assertions", importAssert + `assert(1); assert.ok(true); assert.equal(1, "1"); assert.notEqual(1, 2); assert.strictEqual(NaN, NaN); assert.notStrictEqual(1, "1");
			assert.deepEqual({ a: 1 }, { a: "1" }); assert.deepStrictEqual({ a: [1, new Map([[1, 2]])] }, { a: [1, new Map([[1, 2]])] }); assert.notDeepStrictEqual({ a: 1 }, { a: "1" });
			assert.throws(() => { throw new TypeError("x"); }, TypeError); assert.throws(() => { throw new Error("abc"); }, /b/); assert.throws(() => { throw new Error("m"); }, { message: "m" });
			assert.throws(() => { throw new Error("m"); }, (e) => e.message === "m"); assert.doesNotThrow(() => 1); assert.match("abc", /b/); assert.doesNotMatch("abc", /z/); assert.ifError(null);
			await assert.rejects(Promise.reject(new Error("r")), /r/); await assert.rejects(async () => { throw new Error("r"); }); await assert.doesNotReject(Promise.resolve());
			return "passed"`, `"passed"`},
		{"AssertionError", importAssert + `try { assert.strictEqual(1, 2); } catch (e) { return [e.name, e.code, e.actual, e.expected, e.operator, e.generatedMessage, e instanceof assert.AssertionError, e.message.startsWith("Expected values to be strictly equal")]; }`,
			`["AssertionError","ERR_ASSERTION",1,2,"strictEqual",true,true,true]`},
		{"own message", importAssert + `try { assert.equal(1, 2, "mine"); } catch (e) { return [e.message, e.generatedMessage]; }`, `["mine",false]`},
		{"Error as message", importAssert + `try { assert.ok(false, new TypeError("thrown as is")); } catch (e) { return [e.name, e.message]; }`, `["TypeError","thrown as is"]`},
		{"strict mode", `const assert = __dwk_import("node:assert/strict"); let failed = false; try { assert.equal(1, "1"); } catch { failed = true; } return [failed, assert.strict === assert, __dwk_import("node:assert").strict === assert]`, `[true,true,true]`},
		{"deepStrictEqual checks prototypes", importAssert + `try { assert.deepStrictEqual(Object.create(null), {}); } catch (e) { return e.code; }`, `"ERR_ASSERTION"`},
		{"missing exception", importAssert + `try { assert.throws(() => {}, TypeError); } catch (e) { return e.message; }`, `"Missing expected exception (TypeError)."`},
		{"wrong exception class", importAssert + `try { assert.throws(() => { throw new Error("x"); }, TypeError); } catch (e) { return e.message.startsWith('The error is expected to be an instance of "TypeError"'); }`, `true`},
		{"rejects without a rejection", importAssert + `try { await assert.rejects(Promise.resolve()); } catch (e) { return e.message; }`, `"Missing expected rejection."`},
		{"ifError", importAssert + `try { assert.ifError(new Error("inner")); } catch (e) { return [e.message, e.origin.message]; }`, `["ifError got unwanted exception: inner","inner"]`},
		{"fail", importAssert + `try { assert.fail("boom"); } catch (e) { return [e.message, e.operator]; }`, `["boom","fail"]`},
	})
}

func TestTimers(t *testing.T) {
	iso := newIsolate(t)
	const importTimers = `const timers = __dwk_import("node:timers"); const tp = __dwk_import("node:timers/promises");`
	runCases(t, iso, []evalCase{
		{"Timeout objects", importTimers + `const t = timers.setTimeout(() => {}, 1000); const r = [t.hasRef(), t.unref() === t, t.ref() === t, typeof +t]; timers.clearTimeout(t); return r`, `[true,true,true,"number"]`},
		{"fires with arguments", importTimers + `return await new Promise(r => timers.setTimeout((a, b) => r(a + b), 1, 2, 3))`, `5`},
		{"cleared by the global clearTimeout", importTimers + `let fired = false; const t = timers.setTimeout(() => fired = true, 1); clearTimeout(t); await tp.setTimeout(5); return fired`, `false`},
		{"refresh replaces the timer", importTimers + `let n = 0; return await new Promise(r => { const t = timers.setTimeout(() => r(++n), 3); t.refresh(); })`, `1`},
		{"setInterval and clearInterval", importTimers + `let n = 0; await new Promise(r => { const t = timers.setInterval(() => { if (++n === 3) { timers.clearInterval(t); r(); } }, 1); }); return n`, `3`},
		{"setImmediate", importTimers + `return await new Promise(r => timers.setImmediate(v => r(v), "now"))`, `"now"`},
		{"promises", importTimers + `return [await tp.setTimeout(1, "later"), await tp.setImmediate("soon"), await tp.scheduler.wait(1), timers.promises === tp]`, `["later","soon",null,true]`},
		{"abort", importTimers + `const ac = new AbortController(); const p = tp.setTimeout(1000, "x", { signal: ac.signal }); ac.abort(); try { await p; } catch (e) { return [e.name, e.code]; }`, `["AbortError","ABORT_ERR"]`},
		{"already aborted", importTimers + `try { await tp.setImmediate(1, { signal: AbortSignal.abort() }); } catch (e) { return e.name; }`, `"AbortError"`},
		{"interval iterator", importTimers + `const it = tp.setInterval(1, "tick"); const got = [(await it.next()).value, (await it.next()).value]; await it.return(); return [got, (await it.next()).done]`, `[["tick","tick"],true]`},
		{"promisified timers", importTimers + `const { promisify } = __dwk_import("node:util"); return [await promisify(timers.setTimeout)(1, "v"), await promisify(timers.setImmediate)("w")]`, `["v","w"]`},
	})
}

func TestDiagnosticsChannel(t *testing.T) {
	iso := newIsolate(t)
	const importDC = `const dc = __dwk_import("node:diagnostics_channel");`
	runCases(t, iso, []evalCase{
		{"publish and subscribe", importDC + `const ch = dc.channel("my"); const got = []; const before = ch.hasSubscribers; const fn = (m, name) => got.push([m, name]);
			dc.subscribe("my", fn); ch.publish("hello"); const during = dc.hasSubscribers("my"); dc.unsubscribe("my", fn); ch.publish("unheard");
			return [before, during, ch.hasSubscribers, got, dc.channel("my") === ch]`, `[false,true,false,[["hello","my"]],true]`},
		{"a throwing subscriber does not stop others", importDC + `const ch = dc.channel("t"); const got = []; ch.subscribe(() => { throw new Error("sub"); }); ch.subscribe(m => got.push(m)); ch.publish(1); return got`, `[1]`},
		{"bindStore and runStores", importDC + `const { AsyncLocalStorage } = __dwk_import("node:async_hooks"); const als = new AsyncLocalStorage(); const ch = dc.channel("stores");
			ch.bindStore(als, d => ({ wrapped: d })); return ch.runStores("data", () => als.getStore())`, `{"wrapped":"data"}`},
		{"tracingChannel traceSync", importDC + `const tc = dc.tracingChannel("op"); const ev = []; tc.subscribe({ start: c => ev.push("start " + c.x), end: c => ev.push("end " + c.result), error: c => ev.push("error " + c.error.message) });
			const r = tc.traceSync(() => 42, { x: 1 }); try { tc.traceSync(() => { throw new Error("bad"); }, { x: 2 }); } catch {} return [r, ev]`, `[42,["start 1","end 42","start 2","error bad","end undefined"]]`},
		{"tracingChannel tracePromise", importDC + `const tc = dc.tracingChannel("aop"); const ev = []; tc.subscribe({ start() { ev.push("start"); }, end() { ev.push("end"); }, asyncStart(c) { ev.push("asyncStart " + c.result); }, asyncEnd() { ev.push("asyncEnd"); } });
			const r = await tc.tracePromise(async () => "v", {}); return [r, ev]`, `["v",["start","end","asyncStart v","asyncEnd"]]`},
		{"tracingChannel traceCallback", importDC + `const tc = dc.tracingChannel("cb"); const ev = []; tc.subscribe({ start() { ev.push("start"); }, asyncStart(c) { ev.push("asyncStart " + c.result); } });
			const r = await new Promise(res => tc.traceCallback((x, cb) => setTimeout(() => cb(null, x * 2), 1), -1, {}, null, 21, (e, v) => res(v))); return [r, ev]`, `[42,["start","asyncStart 42"]]`},
	})
}

func TestConsoleModule(t *testing.T) {
	iso := newIsolate(t)
	runCases(t, iso, []evalCase{
		{"console", `const c = __dwk_import("node:console"); const mine = new c.Console(process.stdout); mine.log("via Console"); c.log("via the module"); return [typeof c.log, typeof c.Console, typeof mine.error]`, `["function","function","function"]`},
	})
}
