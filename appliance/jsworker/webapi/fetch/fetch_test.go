package fetch_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/dop251/goja"

	"github.com/dwk/fleet/appliance/jsworker/jsrt"
	"github.com/dwk/fleet/appliance/jsworker/jsrt/jsrttest"
	"github.com/dwk/fleet/appliance/jsworker/webapi/blob"
	"github.com/dwk/fleet/appliance/jsworker/webapi/clone"
	"github.com/dwk/fleet/appliance/jsworker/webapi/encoding"
	"github.com/dwk/fleet/appliance/jsworker/webapi/events"
	"github.com/dwk/fleet/appliance/jsworker/webapi/fetch"
	"github.com/dwk/fleet/appliance/jsworker/webapi/streams"
	"github.com/dwk/fleet/appliance/jsworker/webapi/url"
)

func newIsolate(t *testing.T) *jsrt.Isolate {
	return jsrttest.New(t, events.Extension, encoding.Extension, url.Extension, clone.Extension,
		streams.Extension, blob.Extension, fetch.Extension)
}

type evalCase struct{ name, js, want string }

func run(t *testing.T, iso *jsrt.Isolate, cases []evalCase) {
	t.Helper()
	for _, c := range cases {
		got, err := jsrttest.Eval(iso, c.js)
		if err != nil {
			got = "error: " + err.Error()
		}
		if got != c.want {
			t.Errorf("%s: got %s, want %s", c.name, got, c.want)
		}
	}
}

func TestHeaders(t *testing.T) {
	run(t, newIsolate(t), []evalCase{
		{"case-insensitive, joined", `const h = new Headers({"X-A": "1"}); h.append("x-a", "2"); return [h.get("X-a"), h.has("x-A")]`, `["1, 2",true]`},
		{"set replaces, delete removes", `const h = new Headers([["a", "1"], ["a", "2"]]); h.set("A", "3"); const v = h.get("a"); h.delete("a"); return [v, h.get("a")]`, `["3",null]`},
		{"sorted iteration, set-cookie apart", `const h = new Headers(); h.append("b", "1"); h.append("Set-Cookie", "x=1"); h.append("set-cookie", "y=2"); h.append("a", "0"); return [...h]`,
			`[["a","0"],["b","1"],["set-cookie","x=1"],["set-cookie","y=2"]]`},
		{"getSetCookie and getAll", `const h = new Headers(); h.append("set-cookie", "x=1"); h.append("set-cookie", "y=2"); return [h.getSetCookie(), h.getAll("Set-Cookie")]`, `[["x=1","y=2"],["x=1","y=2"]]`},
		{"getAll refuses other names", `try { new Headers().getAll("a") } catch (e) { return e.name }`, `"TypeError"`},
		{"values are trimmed", `return new Headers({a: "  v \t"}).get("a")`, `"v"`},
		{"bad name", `try { new Headers({"bad name": "v"}) } catch (e) { return e.name }`, `"TypeError"`},
		{"bad value", `try { new Headers({a: "x\ny"}) } catch (e) { return e.name }`, `"TypeError"`},
		{"copy", `const a = new Headers({a: "1"}); const b = new Headers(a); b.set("a", "2"); return [a.get("a"), b.get("a")]`, `["1","2"]`},
		{"forEach", `const out = []; new Headers({b: "2", a: "1"}).forEach((v, k) => out.push(k + "=" + v)); return out`, `["a=1","b=2"]`},
	})
}

func TestResponse(t *testing.T) {
	run(t, newIsolate(t), []evalCase{
		{"text body and its content type", `const r = new Response("hi"); return [r.status, r.ok, r.headers.get("content-type"), await r.text()]`, `[200,true,"text/plain;charset=UTF-8","hi"]`},
		{"init", `const r = new Response("x", {status: 404, statusText: "Nope", headers: {"x-a": "1"}}); return [r.status, r.ok, r.statusText, r.headers.get("x-a")]`, `[404,false,"Nope","1"]`},
		{"json", `const r = Response.json({a: [1]}, {status: 201}); return [r.status, r.headers.get("content-type"), await r.json()]`, `[201,"application/json",{"a":[1]}]`},
		{"json keeps a given content type", `return Response.json(1, {headers: {"content-type": "application/x"}}).headers.get("content-type")`, `"application/x"`},
		{"redirect", `const r = Response.redirect("https://example.com/a", 301); return [r.status, r.headers.get("location")]`, `[301,"https://example.com/a"]`},
		{"redirect status", `try { Response.redirect("https://x/", 200) } catch (e) { return e.name }`, `"RangeError"`},
		{"status range", `try { new Response("", {status: 99}) } catch (e) { return e.name }`, `"RangeError"`},
		{"null body status", `try { new Response("x", {status: 204}) } catch (e) { return e.name }`, `"TypeError"`},
		{"bytes body", `const r = new Response(new Uint8Array([104, 105])); return [r.headers.get("content-type"), await r.text()]`, `[null,"hi"]`},
		{"arrayBuffer", `const b = await new Response("abc").arrayBuffer(); return [b instanceof ArrayBuffer, b.byteLength]`, `[true,3]`},
		{"used once", `const r = new Response("a"); await r.text(); try { await r.text() } catch (e) { return [r.bodyUsed, e.name] }`, `[true,"TypeError"]`},
		{"clone", `const r = new Response("a"); const c = r.clone(); return [await r.text(), await c.text()]`, `["a","a"]`},
		{"stream body", `const s = new ReadableStream({start(c) { c.enqueue(new TextEncoder().encode("a")); c.enqueue(new TextEncoder().encode("b")); c.close() }}); return await new Response(s).text()`, `"ab"`},
		{"body is a stream", `const r = new Response("abc"); const rd = r.body.getReader(); const {value} = await rd.read(); return [value.length, r.bodyUsed]`, `[3,true]`},
		{"stream clone", `const s = new ReadableStream({start(c) { c.enqueue(new TextEncoder().encode("z")); c.close() }}); const r = new Response(s); const c = r.clone(); return [await r.text(), await c.text()]`, `["z","z"]`},
		{"form data", `const f = new FormData(); f.append("a", "1"); const r = new Response(f); const g = await r.formData(); return [r.headers.get("content-type").startsWith("multipart/form-data; boundary="), g.get("a")]`, `[true,"1"]`},
		{"urlencoded", `const r = new Response(new URLSearchParams({a: "1 2"})); return [r.headers.get("content-type"), await r.text()]`, `["application/x-www-form-urlencoded;charset=UTF-8","a=1+2"]`},
		{"blob", `const b = await new Response("xy", {headers: {"content-type": "text/x"}}).blob(); return [b.size, b.type, await b.text()]`, `[2,"text/x","xy"]`},
		{"error", `const r = Response.error(); return [r.status, r.type]`, `[0,"error"]`},
		{"not cloneable", `try { structuredClone(new Response("a")) } catch (e) { return e.name }`, `"DataCloneError"`},
	})
}

func TestRequest(t *testing.T) {
	run(t, newIsolate(t), []evalCase{
		{"defaults", `const r = new Request("https://example.com/a?b=1"); return [r.method, r.url, r.redirect, await r.text()]`, `["GET","https://example.com/a?b=1","follow",""]`},
		{"method normalised", `return new Request("https://x/", {method: "post"}).method`, `"POST"`},
		{"body and content type", `const r = new Request("https://x/", {method: "POST", body: "hi"}); return [r.headers.get("content-type"), await r.text()]`, `["text/plain;charset=UTF-8","hi"]`},
		{"GET with a body", `try { new Request("https://x/", {body: "a"}) } catch (e) { return e.name }`, `"TypeError"`},
		{"forbidden method", `try { new Request("https://x/", {method: "CONNECT"}) } catch (e) { return e.name }`, `"TypeError"`},
		{"bad URL", `try { new Request("nope") } catch (e) { return e.name }`, `"TypeError"`},
		{"from a request moves the body", `const a = new Request("https://x/", {method: "PUT", body: "b"}); const b = new Request(a, {headers: {"x-y": "1"}}); return [a.bodyUsed, await b.text(), b.method, b.headers.get("x-y")]`, `[true,"b","PUT","1"]`},
		{"clone", `const a = new Request("https://x/", {method: "POST", body: "c"}); const b = a.clone(); return [await a.text(), await b.text()]`, `["c","c"]`},
		{"signal", `const c = new AbortController(); const r = new Request("https://x/", {signal: c.signal}); c.abort(); return r.signal.aborted`, `true`},
		{"json body", `return await new Request("https://x/", {method: "POST", body: JSON.stringify({a: 1})}).json()`, `{"a":1}`},
	})
}

// TestIncomingAndOutgoing checks the host's side: a Go request becomes a
// Request whose headers and body come from Go, and a Response is written
// back to a ResponseWriter, streaming.
func TestIncomingAndOutgoing(t *testing.T) {
	iso := newIsolate(t)
	ev := iso.NewEvent(context.Background())
	defer ev.End()
	r := httptest.NewRequest("POST", "http://example.com/path?q=1", strings.NewReader("the body"))
	r.Header.Set("X-Test", "yes")
	out, err := jsrt.Call(ev, jsrt.CallOptions{}, func(rt *goja.Runtime) (goja.Value, error) {
		req, err := fetch.NewRequest(iso, r)
		if err != nil {
			return nil, err
		}
		rt.Set("req", req)
		return rt.RunString(`(async () => {
			const text = await req.text();
			let n = 0;
			const body = new ReadableStream({pull(c) { if (n++ < 3) c.enqueue(new TextEncoder().encode("chunk" + n + ";")); else c.close() }});
			return new Response(body, {status: 202, headers: {"x-echo": req.headers.get("x-test") + " " + req.method + " " + req.url + " " + text}});
		})()`)
	}, func(rt *goja.Runtime, v goja.Value) (*fetch.Outgoing, error) { return fetch.ReadResponse(ev, v) })
	if err != nil {
		t.Fatal(err)
	}
	rec := httptest.NewRecorder()
	if err := out.WriteTo(rec); err != nil {
		t.Fatal(err)
	}
	if want := "yes POST http://example.com/path?q=1 the body"; rec.Code != 202 || rec.Header().Get("X-Echo") != want || rec.Body.String() != "chunk1;chunk2;chunk3;" {
		t.Errorf("got %d %q %q", rec.Code, rec.Header().Get("X-Echo"), rec.Body.String())
	}
	if !rec.Flushed {
		t.Error("a streamed body was not flushed as it went")
	}
}

// TestOutgoingFetch sends requests to a Go server with the global fetch.
func TestOutgoingFetch(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/echo":
			b, _ := io.ReadAll(r.Body)
			w.Header().Set("X-Method", r.Method)
			w.Header().Add("Set-Cookie", "a=1")
			w.Header().Add("Set-Cookie", "b=2")
			w.Write(b)
		case "/redirect":
			http.Redirect(w, r, "/echo", http.StatusFound)
		case "/slow":
			select {
			case <-r.Context().Done():
			case <-time.After(10 * time.Second):
			}
		}
	}))
	defer srv.Close()
	iso := newIsolate(t)
	base := `const base = "` + srv.URL + `";`
	run(t, iso, []evalCase{
		{"post and read", base + `const r = await fetch(base + "/echo", {method: "POST", body: "hello"}); return [r.status, r.headers.get("x-method"), await r.text(), r.headers.getSetCookie()]`, `[200,"POST","hello",["a=1","b=2"]]`},
		{"follows redirects", base + `const r = await fetch(base + "/redirect"); return [r.status, r.redirected, r.url.endsWith("/echo")]`, `[200,true,true]`},
		{"manual redirect", base + `const r = await fetch(base + "/redirect", {redirect: "manual"}); return [r.status, r.headers.get("location")]`, `[302,"/echo"]`},
		{"abort", base + `try { await fetch(base + "/slow", {signal: AbortSignal.timeout(50)}) } catch (e) { return e.name }`, `"TimeoutError"`},
		{"stream body out and in", base + `const s = new ReadableStream({start(c) { c.enqueue(new TextEncoder().encode("st")); c.enqueue(new TextEncoder().encode("ream")); c.close() }});
			const r = await fetch(base + "/echo", {method: "PUT", body: s, duplex: "half"}); const rd = r.body.getReader(); let t = ""; for (;;) { const {done, value} = await rd.read(); if (done) break; t += new TextDecoder().decode(value) } return t`, `"stream"`},
		{"only http", `try { await fetch("file:///etc/passwd") } catch (e) { return e.name }`, `"TypeError"`},
		{"refused connection", `try { await fetch("http://127.0.0.1:1/") } catch (e) { return e.name }`, `"TypeError"`},
	})
}
