package url_test

import "testing"

func TestURLPattern(t *testing.T) {
	runCases(t, []evalCase{
		{"init object", `const p = new URLPattern({ pathname: "/users/:id" });
			return [p.test("https://h.example/users/42"), p.test("https://h.example/users/42/x"), p.exec("https://h.example/users/42").pathname]`,
			`[true,false,{"groups":{"id":"42"},"input":"/users/42"}]`},
		{"components", `const p = new URLPattern("https://*.example.com/books/:id(\\d+)/info?x=:q#h");
			return [p.protocol, p.username, p.password, p.hostname, p.port, p.pathname, p.search, p.hash, p.hasRegExpGroups]`,
			`["https","*","*","*.example.com","","/books/:id(\\d+)/info","x=:q","h",true]`},
		{"no regexp groups", `return new URLPattern({ pathname: "/a/:b" }).hasRegExpGroups`, `false`},
		{"string with a base", `const p = new URLPattern("/api/:version/*", "https://h.example");
			const r = p.exec("https://h.example/api/v2/users/7");
			return [r.pathname.groups, r.protocol.input, r.hostname.input, p.test("https://other.example/api/v2/x")]`,
			`[{"0":"users/7","version":"v2"},"https","h.example",false]`},
		{"group order follows the pattern", `return Object.keys(new URLPattern({ pathname: "/:z/:a/:m" }).exec({ pathname: "/1/2/3" }).pathname.groups)`, `["z","a","m"]`},
		{"unmatched optional group", `const g = new URLPattern({ pathname: "/items/:id?" }).exec({ pathname: "/items" }).pathname.groups; return ["id" in g, g.id === undefined]`, `[true,true]`},
		{"exec with init and base", `const p = new URLPattern({ hostname: "{:sub.}?example.com", pathname: "/x" });
			return [p.exec({ pathname: "/x", baseURL: "https://api.example.com" }).hostname.groups, p.test({ hostname: "example.com", pathname: "/x" })]`,
			`[{"sub":"api"},true]`},
		{"inputs", `const p = new URLPattern({ pathname: "/a" }); return [p.exec("/a", "https://h/").inputs, p.exec({ pathname: "/a" }).inputs]`,
			`[["/a","https://h/"],[{"pathname":"/a"}]]`},
		{"ignoreCase", `return [new URLPattern({ pathname: "/Books" }).test({ pathname: "/books" }), new URLPattern({ pathname: "/Books" }, { ignoreCase: true }).test({ pathname: "/books" })]`, `[false,true]`},
		{"matches a URL object", `return new URLPattern({ pathname: "/p/:n" }).exec(new URL("https://h/p/5?q")).pathname.groups.n`, `"5"`},
		{"no match", `return new URLPattern({ protocol: "https" }).exec("http://h/")`, `null`},
		{"bad patterns", `const out = []; for (const args of [["/relative"], [{ pathname: "/(" }], [{ pathname: "/a" }, "https://h/"]]) {
			try { new URLPattern(...args); out.push("ok") } catch (e) { out.push(e.name) } } return out`,
			`["TypeError","TypeError","TypeError"]`},
		{"base with an init is an error", `try { new URLPattern({ pathname: "/a" }).exec({ pathname: "/a" }, "https://h/"); return "no error" } catch (e) { return e.name }`, `"TypeError"`},
		{"everything by default", `const p = new URLPattern(); return [p.test("https://any.example/x?y#z"), p.pathname]`, `[true,"*"]`},
	})
}
