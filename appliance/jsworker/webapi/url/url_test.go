package url_test

import (
	"testing"

	"github.com/dwk/fleet/appliance/jsworker/jsrt"
	"github.com/dwk/fleet/appliance/jsworker/jsrt/jsrttest"
	"github.com/dwk/fleet/appliance/jsworker/webapi/encoding"
	"github.com/dwk/fleet/appliance/jsworker/webapi/events"
	"github.com/dwk/fleet/appliance/jsworker/webapi/url"
)

type evalCase struct {
	name, body, want string
}

func runCases(t *testing.T, cases []evalCase) {
	t.Helper()
	iso := jsrttest.New(t, events.Extension, encoding.Extension, url.Extension, jsrt.Extension{Name: "expose", JS: "global.internal = internal;"})
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

// parts lists a URL's components for comparison.
const parts = `const parts = u => [u.href, u.origin, u.protocol, u.username, u.password, u.host, u.hostname, u.port, u.pathname, u.search, u.hash];`

func TestURLParse(t *testing.T) {
	for _, tc := range []struct{ input, base, want string }{
		{"https://user:pw@Example.COM:8080/a/./b/../c?x=1#f", "",
			`["https://user:pw@example.com:8080/a/c?x=1#f","https://example.com:8080","https:","user","pw","example.com:8080","example.com","8080","/a/c","?x=1","#f"]`},
		{"HTTP://example.com:80/", "", `["http://example.com/","http://example.com","http:","","","example.com","example.com","","/","",""]`},
		{"../d?q", "https://h.example/a/b/c", `["https://h.example/a/d?q","https://h.example","https:","","","h.example","h.example","","/a/d","?q",""]`},
		{"//other.example/p", "https://h.example/x", `["https://other.example/p","https://other.example","https:","","","other.example","other.example","","/p","",""]`},
		{"  https://h.example/a b\t", "", `["https://h.example/a%20b","https://h.example","https:","","","h.example","h.example","","/a%20b","",""]`},
		{"http://[::1]:3000/", "", `["http://[::1]:3000/","http://[::1]:3000","http:","","","[::1]:3000","[::1]","3000","/","",""]`},
		{"http://0x7f.1/", "", `["http://127.0.0.1/","http://127.0.0.1","http:","","","127.0.0.1","127.0.0.1","","/","",""]`},
		{"https://münchen.example/ä?ü#ö", "", `["https://xn--mnchen-3ya.example/%C3%A4?%C3%BC#%C3%B6","https://xn--mnchen-3ya.example","https:","","","xn--mnchen-3ya.example","xn--mnchen-3ya.example","","/%C3%A4","?%C3%BC","#%C3%B6"]`},
		{"file:///C:/dir/f.txt", "", `["file:///C:/dir/f.txt","null","file:","","","","","","/C:/dir/f.txt","",""]`},
		{"mailto:someone@example.com", "", `["mailto:someone@example.com","null","mailto:","","","","","","someone@example.com","",""]`},
		{"blob:https://h.example/uuid", "", `["blob:https://h.example/uuid","https://h.example","blob:","","","","","","https://h.example/uuid","",""]`},
		{"data:text/plain,a b ?q", "", `["data:text/plain,a b%20?q","null","data:","","","","","","text/plain,a b%20","?q",""]`},
		{"wss://h.example/^x", "", `["wss://h.example/%5Ex","wss://h.example","wss:","","","h.example","h.example","","/%5Ex","",""]`},
		{"non-special://h.example:99/p", "", `["non-special://h.example:99/p","null","non-special:","","","h.example:99","h.example","99","/p","",""]`},
	} {
		body := parts + "return parts(new URL(" + jsString(tc.input) + ")"
		if tc.base != "" {
			body = parts + "return parts(new URL(" + jsString(tc.input) + ", " + jsString(tc.base) + "))"
		} else {
			body += ")"
		}
		iso := newIsolate(t)
		if got := jsrttest.MustEval(t, iso, body); got != tc.want {
			t.Errorf("%q (base %q):\ngot  %s\nwant %s", tc.input, tc.base, got, tc.want)
		}
	}
}

func newIsolate(t *testing.T) *jsrt.Isolate {
	return jsrttest.New(t, events.Extension, encoding.Extension, url.Extension)
}

// jsString quotes s as a JavaScript string literal.
func jsString(s string) string {
	out := []byte{'"'}
	for _, r := range s {
		switch r {
		case '"', '\\':
			out = append(out, '\\', byte(r))
		case '\t':
			out = append(out, `\t`...)
		case '\n':
			out = append(out, `\n`...)
		default:
			out = append(out, string(r)...)
		}
	}
	return string(append(out, '"'))
}

func TestURL(t *testing.T) {
	runCases(t, []evalCase{
		{"invalid", `const out = []; for (const [u, b] of [["nope"], ["http://x:99999/"], ["http://a b/"], ["/p", "also not"], ["/p", ""]]) {
			try { new URL(u, b); out.push("ok") } catch (e) { out.push(e.name) } } return out`,
			`["TypeError","TypeError","TypeError","TypeError","TypeError"]`},
		{"the error names the input", `try { new URL("nope") } catch (e) { return [e.message, e.input] }`, `["Invalid URL: \"nope\"","nope"]`},
		{"argument required", `try { new URL(); return "no error" } catch (e) { return e.name }`, `"TypeError"`},
		{"canParse and parse", `return [URL.canParse("https://x"), URL.canParse("x"), URL.canParse("x", "https://h/"), URL.parse("nope"), URL.parse("/a", "https://h/").href, URL.parse("https://h/") instanceof URL]`,
			`[true,false,true,null,"https://h/a",true]`},
		{"base may be a URL", `return new URL("b", new URL("https://h/a/")).href`, `"https://h/a/b"`},
		{"toString and toJSON", `const u = new URL("https://h/p?q"); return [String(u), JSON.stringify({ u }), u + ""]`, `["https://h/p?q","{\"u\":\"https://h/p?q\"}","https://h/p?q"]`},
		{"toStringTag", `return Object.prototype.toString.call(new URL("https://h/"))`, `"[object URL]"`},
		{"lone surrogates", `return new URL("https://h/\uD800").pathname`, `"/%EF%BF%BD"`},
		{"setters", parts + `const u = new URL("https://h.example/p");
			const out = [];
			u.protocol = "http"; out.push(u.href);
			u.username = "a b"; u.password = "p@ss"; out.push(u.href);
			u.host = "other.example:8080"; out.push(u.host);
			u.hostname = "third.example"; out.push(u.href);
			u.port = "80"; out.push(u.port);
			u.port = "99999"; out.push(u.port);
			u.port = ""; u.port = "81"; out.push(u.port);
			u.pathname = "a/b c"; out.push(u.pathname);
			u.search = "x=1 2"; out.push(u.search);
			u.hash = "frag ment"; out.push(u.hash);
			u.hash = ""; u.search = ""; out.push(u.href);
			return out`,
			`["http://h.example/p","http://a%20b:p%40ss@h.example/p","other.example:8080","http://a%20b:p%40ss@third.example:8080/p","","","81","/a/b%20c","?x=1%202","#frag%20ment","http://a%20b:p%40ss@third.example:81/a/b%20c"]`},
		{"ignored setters", `const u = new URL("mailto:x@y"); u.host = "h"; u.pathname = "z"; u.port = "1"; const f = new URL("file:///p"); f.username = "u"; f.port = "1";
			const s = new URL("https://h/"); s.protocol = "mailto"; s.hostname = ""; return [u.href, f.href, s.href]`,
			`["mailto:x@y","file:///p","https://h/"]`},
		{"href setter", `const u = new URL("https://h/a?x=1"); const sp = u.searchParams; u.href = "http://g/b?y=2";
			let err; try { u.href = "bad" } catch (e) { err = e.name } return [u.href, sp.get("y"), sp.has("x"), err]`,
			`["http://g/b?y=2","2",false,"TypeError"]`},
		{"opaque path spaces", `const u = new URL("sc:space ?query"); u.search = ""; const v = new URL("sc:a  #f"); v.hash = ""; return [u.href, v.href]`, `["sc:space%20","sc:a %20"]`},
		{"origin of opaque schemes", `return ["data:x", "about:blank", "file:///x", "blob:null/x", "javascript:1"].map(s => new URL(s).origin)`, `["null","null","null","null","null"]`},
	})
}

func TestSearchParamsOfAURL(t *testing.T) {
	runCases(t, []evalCase{
		{"same object", `const u = new URL("https://h/?a=1"); return u.searchParams === u.searchParams`, `true`},
		{"read", `const u = new URL("https://h/?a=1&b=x+y&c=%F0%9F%98%80&d&=e&a=2"); return [...u.searchParams]`,
			`[["a","1"],["b","x y"],["c","😀"],["d",""],["","e"],["a","2"]]`},
		{"params write the URL", `const u = new URL("https://h/p?a=1#f"); u.searchParams.append("b", "x y&z"); u.searchParams.set("a", "é");
			const one = u.href; u.searchParams.delete("a"); u.searchParams.delete("b"); return [one, u.href, u.search]`,
			`["https://h/p?a=%C3%A9\u0026b=x+y%26z#f","https://h/p#f",""]`},
		{"the URL writes the params", `const u = new URL("https://h/?a=1"); const sp = u.searchParams; u.search = "?b=2&b=3"; const one = sp.getAll("b"); u.search = ""; return [one, sp.size]`,
			`[["2","3"],0]`},
		{"sort writes back", `const u = new URL("https://h/?z=1&a=2&m=3&a=1"); u.searchParams.sort(); return u.search`, `"?a=2\u0026a=1\u0026m=3\u0026z=1"`},
		{"a query of only ?", `const u = new URL("https://h/?"); return [u.href, u.search, u.searchParams.size]`, `["https://h/?","",0]`},
	})
}

func TestURLSearchParams(t *testing.T) {
	runCases(t, []evalCase{
		{"from a string", `return [...new URLSearchParams("?a=1&b=%zz&c=%41+%42")]`, `[["a","1"],["b","%zz"],["c","A B"]]`},
		{"invalid UTF-8", "return new URLSearchParams(\"a=%FF%C3\").get(\"a\")", "\"\uFFFD\uFFFD\""},
		{"from a sequence", `return [...new URLSearchParams([["a", 1], new Set(["b", "2"])])]`, `[["a","1"],["b","2"]]`},
		{"from a record", `return [...new URLSearchParams({ a: 1, b: "x" })]`, `[["a","1"],["b","x"]]`},
		{"from another", `const a = new URLSearchParams("x=1&y=2"); const b = new URLSearchParams(a); b.append("z", "3"); return [a.toString(), b.toString()]`, `["x=1\u0026y=2","x=1\u0026y=2\u0026z=3"]`},
		{"null is a string", `return new URLSearchParams(null).toString()`, `"null="`},
		{"bad pairs", `const out = []; for (const init of [[["a"]], [["a", "b", "c"]], [5]]) { try { new URLSearchParams(init); out.push("ok") } catch (e) { out.push(e.name) } } return out`,
			`["TypeError","TypeError","TypeError"]`},
		{"methods", `const p = new URLSearchParams("a=1&b=2&a=3");
			const out = [p.get("a"), p.get("z"), p.getAll("a"), p.has("b"), p.has("a", "3"), p.has("a", "9"), p.size];
			p.delete("a", "1"); out.push(p.toString()); p.set("a", "x"); out.push(p.toString()); p.set("n", "y"); out.push(p.toString());
			p.delete("a"); out.push(p.toString()); return out`,
			`["1",null,["1","3"],true,true,false,3,"b=2\u0026a=3","b=2\u0026a=x","b=2\u0026a=x\u0026n=y","b=2\u0026n=y"]`},
		{"serialization", `const p = new URLSearchParams(); p.append("a b", "~!'()*-._é&=+"); return p.toString()`, `"a+b=%7E%21%27%28%29*-._%C3%A9%26%3D%2B"`},
		{"sort is stable by code units", `const p = new URLSearchParams("z=1&é=2&a=3&z=0&A=4&😀=5&ﬃ=6"); p.sort(); return [...p.keys()]`, `["A","a","z","z","é","😀","ﬃ"]`},
		{"forEach", `const p = new URLSearchParams("a=1&b=2"); const seen = []; p.forEach(function (v, k, o) { seen.push([k, v, o === p, this.t]) }, { t: 1 }); return seen`,
			`[["a","1",true,1],["b","2",true,1]]`},
		{"iterators", `const p = new URLSearchParams("a=1&b=2"); const it = p.entries(); const first = it.next();
			p.append("c", "3"); const rest = [...it];
			return [first, rest, [...p.keys()], [...p.values()], Object.prototype.toString.call(it), typeof it[Symbol.iterator], p[Symbol.iterator] === p.entries]`,
			`[{"done":false,"value":["a","1"]},[["b","2"],["c","3"]],["a","b","c"],["1","2","3"],"[object URLSearchParams Iterator]","function",true]`},
		{"arguments required", `const p = new URLSearchParams(); const out = []; for (const f of ["append", "set", "get", "has", "delete", "getAll"]) { try { p[f](); out.push("ok") } catch (e) { out.push(e.name) } } return out`,
			`["TypeError","TypeError","TypeError","TypeError","TypeError","TypeError"]`},
		{"lone surrogates", `const p = new URLSearchParams(); p.append("\uD800", "x"); return [p.has("\uFFFD"), p.toString()]`, `[true,"%EF%BF%BD=x"]`},
		{"shared helpers", `return [internal.formEncode("a b&"), internal.serializeQuery([["a", "1"], ["b c", "2"]]), internal.parseQuery("a=1&b+c=2")]`,
			`["a+b%26","a=1\u0026b+c=2",[["a","1"],["b c","2"]]]`},
	})
}
