package node_test

import (
	"encoding/json"
	"os"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/dwk/fleet/appliance/jsworker/jsrt/jsrttest"
	"github.com/dwk/fleet/appliance/jsworker/webapi/node"
)

// TestModulesMatchTheList checks that the prelude registers exactly the
// node:* modules of node.Modules, and that each can be imported.
func TestModulesMatchTheList(t *testing.T) {
	iso := newIsolate(t)
	got := jsrttest.MustEval(t, iso, `
		const names = Object.keys(internal.modules).filter(s => s.startsWith("node:")).sort();
		for (const name of names) __dwk_import(name);
		return names;`)
	var registered []string
	if err := json.Unmarshal([]byte(got), &registered); err != nil {
		t.Fatal(err)
	}
	var listed []string
	for name := range node.Modules {
		listed = append(listed, name)
	}
	sort.Strings(listed)
	if g, w := join(registered), join(listed); g != w {
		t.Errorf("registered modules differ from node.Modules\ngot  %s\nwant %s", g, w)
	}
	for name, s := range node.Modules {
		if s.AliasOf != "" {
			if _, ok := node.Modules[s.AliasOf]; !ok {
				t.Errorf("%s is an alias of %s, which is not listed", name, s.AliasOf)
			}
		}
	}
}

func join(names []string) string {
	b, _ := json.Marshal(names)
	return string(b)
}

// TestStubbedModulesThrowWhenUsed checks that every stubbed module
// imports (as libraries do when they load) and throws, naming itself,
// when an export is used; named imports resolve to throwing properties.
func TestStubbedModulesThrowWhenUsed(t *testing.T) {
	iso := newIsolate(t)
	for _, name := range node.ModuleNames(node.Stubbed) {
		t.Run(name, func(t *testing.T) {
			got := jsrttest.MustEval(t, iso, `
				const m = __dwk_import(`+quote(name)+`);
				const inert = [m.__esModule, m.default, m.then];
				let message = "no error";
				try { m.someExport; } catch (e) { message = e.message; }
				return [inert.every(v => v === undefined), message];`)
			want := `[true,"dwk does not support the Node.js module \"` + name + `\" (its export \"someExport\" was used); see docs/porting.md"]`
			if got != want {
				t.Errorf("got  %s\nwant %s", got, want)
			}
		})
	}
	runCases(t, iso, []evalCase{
		{"named import of fs", `
			const fs = __dwk_import("node:fs");
			const names = Object.getOwnPropertyNames(fs);
			let message;
			try { Object.getOwnPropertyDescriptor(fs, "readFileSync").get(); } catch (e) { message = e.message; }
			return [names.includes("readFileSync"), "readFileSync" in fs, message];`,
			`[true,true,"dwk does not support the Node.js module \"node:fs\" (its export \"readFileSync\" was used); see docs/porting.md"]`},
	})
}

// TestPartialModules checks the faithful subsets of the partial modules
// and that the rest of them throws.
func TestPartialModules(t *testing.T) {
	iso := newIsolate(t)
	runCases(t, iso, []evalCase{
		{"os", `const os = __dwk_import("node:os"); return [os.EOL, os.platform(), os.tmpdir(), os.endianness()]`, `["\n","linux","/tmp","LE"]`},
		{"os rest", `const os = __dwk_import("node:os"); try { os.setPriority(1) } catch (e) { return e.message }`,
			`"dwk does not support the Node.js module \"node:os\" (its export \"setPriority\" was used); see docs/porting.md"`},
		{"perf_hooks", `return __dwk_import("node:perf_hooks").performance === performance`, `true`},
		{"tty", `return __dwk_import("node:tty").isatty(1)`, `false`},
		{"http", `const h = __dwk_import("node:http"); return [h.STATUS_CODES[404], h.METHODS.includes("PATCH")]`, `["Not Found",true]`},
		{"http rest", `try { __dwk_import("node:http").createServer() } catch (e) { return e.message.includes('"node:http"') }`, `true`},
		{"module", `const m = __dwk_import("node:module"); const req = m.createRequire("file:///x.js");
			return [m.isBuiltin("fs"), m.isBuiltin("node:path"), m.isBuiltin("left-pad"), req("path") === __dwk_import("node:path"), m.builtinModules.includes("buffer")]`,
			`[true,true,false,true,true]`},
		{"module require of a package", `try { __dwk_import("node:module").createRequire("/")("left-pad") } catch (e) { return e.code }`, `"MODULE_NOT_FOUND"`},
	})
}

// TestGlobals checks the globals nodejs_compat defines.
func TestGlobals(t *testing.T) {
	iso := newIsolate(t)
	runCases(t, iso, []evalCase{
		{"Buffer", `return [typeof Buffer, Buffer === __dwk_import("node:buffer").Buffer, Object.getOwnPropertyDescriptor(globalThis, "Buffer").enumerable]`, `["function",true,false]`},
		{"process", `return [process === __dwk_import("node:process"), String(process), process.platform]`, `[true,"[object process]","linux"]`},
		{"global", `return global === globalThis`, `true`},
		{"setImmediate", `return await new Promise(r => setImmediate(r, "ran"))`, `"ran"`},
		{"globals can be replaced", `const saved = globalThis.Buffer; globalThis.Buffer = 1; const v = Buffer; globalThis.Buffer = saved; return v`, `1`},
		{"promisified setTimeout", `const { promisify } = __dwk_import("node:util"); return await promisify(setTimeout)(1, "v")`, `"v"`},
	})
}

// TestWithoutOtherExtensions runs modules in an isolate that has only the
// core and node: nothing may assume the other extensions' globals at
// load time.
func TestWithoutOtherExtensions(t *testing.T) {
	iso := jsrttest.New(t, node.Extension)
	runCases(t, iso, []evalCase{
		{"every module imports", `for (const name of ["node:buffer", "node:events", "node:stream", "node:crypto", "node:util", "node:url", "node:process", "node:assert", "node:timers", "node:async_hooks"]) __dwk_import(name); return true`, `true`},
		{"pipeline", `const { pipeline, Readable, Writable } = __dwk_import("node:stream"); const out = [];
			await new Promise((res, rej) => pipeline(Readable.from(["a", "b"]), new Writable({ objectMode: true, write(c, e, cb) { out.push(c); cb(); } }), e => e ? rej(e) : res()));
			return out`, `["a","b"]`},
		{"hash", `return __dwk_import("node:crypto").createHash("sha1").update("abc").digest("hex")`, `"a9993e364706816aba3e25717850c26c9cd0d89d"`},
	})
}

func quote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// TestDocsNameEveryModule checks that the package doc and ModuleTable
// name every module of node.Modules.
func TestDocsNameEveryModule(t *testing.T) {
	doc, err := os.ReadFile("doc.go")
	if err != nil {
		t.Fatal(err)
	}
	table := node.ModuleTable()
	for name, s := range node.Modules {
		if !strings.Contains(table, "| `"+name+"` | "+s.Level.String()+" |") {
			t.Errorf("ModuleTable lacks %s as %s", name, s.Level)
		}
		if strings.HasPrefix(name, "node:_http_") || strings.HasPrefix(name, "node:_tls_") || name == "node:_stream_wrap" {
			continue // the doc names these as groups
		}
		if !regexp.MustCompile(`[\s(]` + regexp.QuoteMeta(name) + `[\s,.)]`).Match(doc) {
			t.Errorf("the package doc does not name %s", name)
		}
	}
}

// TestPortingGuideListsTheModules keeps docs/porting.md's module table
// equal to ModuleTable, its one source.
func TestPortingGuideListsTheModules(t *testing.T) {
	doc, err := os.ReadFile("../../../../docs/porting.md")
	if err != nil {
		t.Fatal(err)
	}
	const open, close = "-->\n", "\n<!-- /node modules -->"
	s := string(doc)
	start := strings.Index(s, "<!-- node modules:")
	end := strings.Index(s, close)
	if start < 0 || end < start {
		t.Fatal("docs/porting.md has no node modules table between its markers")
	}
	got := s[start+strings.Index(s[start:], open)+len(open) : end]
	if want := strings.TrimSpace(node.ModuleTable()); got != want {
		t.Errorf("docs/porting.md's node module table differs from node.ModuleTable(); paste this between the markers:\n%s", want)
	}
}
