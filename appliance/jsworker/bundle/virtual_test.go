package bundle

import (
	"reflect"
	"sort"
	"strings"
	"testing"
)

// runtimeModules stands in for what the runtime provides under the
// specifiers the virtual fixture imports.
const runtimeModules = `
globalThis.provided = {
	"cloudflare:workers": { DurableObject: class DurableObject {} },
	"cloudflare:sockets": { connect() {} },
	"node:buffer": { Buffer: { from: (s) => "buffer:" + s } },
	"node:events": { EventEmitter: class EventEmitter {} },
	"node:util/types": { isDate() {} },
	"node:path/posix": { sep: "/" },
	"node:stream/web": { ReadableStream: class ReadableStream {} },
	"node:util": { inspect: (v) => "inspected " + v },
};
`

func TestVirtualModulesWithNodeCompat(t *testing.T) {
	dir := fixture(t, "virtual")
	b := mustBuild(t, Options{Dir: dir, Entry: "src/index.ts", NodeCompat: true})

	// Each specifier is one stub of the documented form.
	wantSpecs := []string{
		"cloudflare:sockets",
		"cloudflare:workers",
		"node:buffer",
		"node:events", // bare "events"
		"node:path/posix",
		"node:stream/web", // bare "stream/web"
		"node:util",       // require("util") in a dependency
		"node:util/types", // bare "util/types"
	}
	for _, spec := range wantSpecs {
		stub := `module.exports = globalThis.__dwk_import("` + spec + `");`
		if n := strings.Count(string(b.Script), stub); n != 1 {
			t.Errorf("script has %d copies of %s, want 1", n, stub)
		}
	}

	vm := run(t, b, runtimeModules)
	var got []string
	for _, v := range eval(t, vm, "imported").([]any) {
		got = append(got, v.(string))
	}
	sort.Strings(got)
	if !reflect.DeepEqual(got, wantSpecs) {
		t.Errorf("__dwk_import calls = %q, want %q", got, wantSpecs)
	}

	gotJSON := evalJSON(t, vm, "__dwk_entry.default.imported()")
	wantJSON := `{"DurableObject":"function","connect":"function","Buffer":"buffer:x",` +
		`"EventEmitter":"function","types":"function","posix":"/","ReadableStream":"function",` +
		`"inspect":"inspected required"}`
	if gotJSON != wantJSON {
		t.Errorf("imported() = %s\nwant %s", gotJSON, wantJSON)
	}

	// Named exports, a Durable Object class among them, are on __dwk_entry.
	exports := evalJSON(t, vm, "Object.keys(__dwk_entry).sort()")
	if exports != `["Room","default"]` {
		t.Errorf("exports = %s, want [\"Room\",\"default\"]", exports)
	}
	room := eval(t, vm, `new __dwk_entry.Room().greet() + " " + (new __dwk_entry.Room() instanceof provided["cloudflare:workers"].DurableObject) + " " + __dwk_entry.Room.name`)
	if room != "room true Room" {
		t.Errorf("Room = %q, want %q", room, "room true Room")
	}
}

func TestNodeBuiltinsWithoutNodeCompat(t *testing.T) {
	dir := fixture(t, "virtual")
	be := buildError(t, Options{Dir: dir, Entry: "src/index.ts"})
	// Every built-in import is reported at its import, none at the
	// cloudflare: imports, which need no flag.
	want := []struct{ at, spec string }{
		{"node_modules/uses-require/index.js:2:22: ", "util"},
		{"src/index.ts:4:24: ", "node:buffer"},
		{"src/index.ts:5:30: ", "events"},
		{"src/index.ts:6:24: ", "util/types"},
		{"src/index.ts:7:19: ", "node:path/posix"},
		{"src/index.ts:8:32: ", "stream/web"},
	}
	got := messages(be.Errors)
	if len(got) != len(want) {
		t.Fatalf("errors:\n%s\nwant %d", strings.Join(got, "\n"), len(want))
	}
	for i, w := range want {
		wantText := w.at + `The package "` + w.spec + `" wasn't found on the file system but is built into node: ` +
			`add compatibility_flags = ["nodejs_compat"] to your wrangler configuration to use Node.js APIs`
		if got[i] != wantText {
			t.Errorf("error %d = %q\nwant %q", i, got[i], wantText)
		}
	}
	if msg := be.Error(); !strings.HasPrefix(msg, "bundle: 6 errors\n") || !strings.Contains(msg, got[5]) {
		t.Errorf("Error() = %q, want every error listed", msg)
	}
}

func TestBareBuiltinPolyfillPackage(t *testing.T) {
	tests := []struct {
		name       string
		nodeCompat bool
		want       string
	}{
		// Without nodejs_compat, like wrangler, the npm package of that name
		// is bundled.
		{"without nodejs_compat", false, `"npm-buffer-polyfill"`},
		// With it, like wrangler's unenv aliases, the built-in wins.
		{"with nodejs_compat", true, `"runtime-buffer"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := fixture(t, "polyfill")
			b := mustBuild(t, Options{Dir: dir, Entry: "src/index.js", NodeCompat: tt.nodeCompat})
			vm := run(t, b, `globalThis.provided = { "node:buffer": { Buffer: "runtime-buffer" } };`)
			if got := evalJSON(t, vm, "__dwk_entry.default.Buffer"); got != tt.want {
				t.Errorf("Buffer = %s, want %s", got, tt.want)
			}
		})
	}
}

func TestCloudflareAndManifestNeedNoFlag(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, "index.js", `
import { EmailMessage } from "cloudflare:email";
import { WorkflowEntrypoint } from "cloudflare:workflows";
import manifest from "__STATIC_CONTENT_MANIFEST";
export default { EmailMessage, WorkflowEntrypoint, manifest };
`)
	b := mustBuild(t, Options{Dir: dir, Entry: "index.js"})
	vm := run(t, b, "")
	got := evalJSON(t, vm, "imported.slice().sort()")
	want := `["__STATIC_CONTENT_MANIFEST","cloudflare:email","cloudflare:workflows"]`
	if got != want {
		t.Errorf("imported = %s, want %s", got, want)
	}
}

func TestStub(t *testing.T) {
	tests := []struct{ spec, want string }{
		{"cloudflare:workers", `module.exports = globalThis.__dwk_import("cloudflare:workers");` + "\n"},
		{"node:path/posix", `module.exports = globalThis.__dwk_import("node:path/posix");` + "\n"},
		{`odd"name`, `module.exports = globalThis.__dwk_import("odd\"name");` + "\n"},
	}
	for _, tt := range tests {
		if got := stub(tt.spec); got != tt.want {
			t.Errorf("stub(%q) = %q, want %q", tt.spec, got, tt.want)
		}
	}
}
