package bundle

import (
	"encoding/json"
	"testing"
)

func TestPackageResolution(t *testing.T) {
	dir := fixture(t, "packages")
	b := mustBuild(t, Options{Dir: dir, Entry: "src/index.js"})
	vm := run(t, b, "")
	var got map[string]string
	if err := json.Unmarshal([]byte(evalJSON(t, vm, "__dwk_entry.default")), &got); err != nil {
		t.Fatal(err)
	}
	tests := []struct{ pkg, why, want string }{
		{"cond", `"exports": the first of node, workerd, worker, browser that is active`, "workerd"},
		{"workerFirst", `nested "import" condition, then "worker"`, "worker"},
		{"browserOnly", `"browser" is a condition, "node" is not`, "browser"},
		{"subpath", `subpath "."`, "index"},
		{"feature", `subpath "./feature" with conditions`, "feature-worker"},
		{"mainfields", `main fields: "browser" first`, "browser"},
		{"moduleMain", `main fields: "module" before "main"`, "module"},
		{"browserMap", `the browser platform honours a "browser" map`, "client"},
	}
	for _, tt := range tests {
		if got[tt.pkg] != tt.want {
			t.Errorf("%s resolved to %q, want %q (%s)", tt.pkg, got[tt.pkg], tt.want, tt.why)
		}
	}
	if len(got) != len(tests) {
		t.Errorf("exports = %v, want %d entries", got, len(tests))
	}
}

func TestDefineAndAlias(t *testing.T) {
	alias := map[string]string{
		"old-lib": "./src/new-lib.js", // a file, from Dir
		"lodash":  "tiny-lodash",      // a package
		"fs":      "./src/fs-stub.js", // a built-in, without nodejs_compat
	}
	tests := []struct {
		name   string
		define map[string]string
		want   string
	}{
		{
			name:   "defaults",
			define: map[string]string{"__BUILD__": `"v1"`},
			want: `{"env":"production","agent":"Cloudflare-Workers","build":"v1",` +
				`"legacy":"new-lib","lodash":"tiny-lodash","fs":"fs-stub"}`,
		},
		{
			name: "define overrides the defaults",
			define: map[string]string{
				"__BUILD__":            "42",
				"process.env.NODE_ENV": `"development"`,
				"navigator.userAgent":  `"custom"`,
			},
			want: `{"env":"development","agent":"custom","build":42,` +
				`"legacy":"new-lib","lodash":"tiny-lodash","fs":"fs-stub"}`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := fixture(t, "define")
			b := mustBuild(t, Options{Dir: dir, Entry: "src/index.js", Define: tt.define, Alias: alias})
			// No process or navigator global: define must have replaced them.
			vm := run(t, b, "")
			if got := evalJSON(t, vm, "__dwk_entry.default.run()"); got != tt.want {
				t.Errorf("run() = %s\nwant %s", got, tt.want)
			}
		})
	}
}

func TestAliasToRuntimeModule(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, "index.js", "import { EventEmitter } from \"events-polyfill\";\nexport default { EventEmitter };\n")
	b := mustBuild(t, Options{Dir: dir, Entry: "index.js", NodeCompat: true, Alias: map[string]string{"events-polyfill": "node:events"}})
	vm := run(t, b, "")
	if got := evalJSON(t, vm, "imported"); got != `["node:events"]` {
		t.Errorf("imported = %s, want [\"node:events\"]", got)
	}
}

func TestTypeScriptAndJSX(t *testing.T) {
	tests := []struct {
		name    string
		fixture string
		opts    Options
		want    string
	}{
		{
			name:    "tsconfig react-jsx with jsxImportSource, enums, .mts and .cts",
			fixture: "ts",
			opts:    Options{Entry: "src/index.ts"},
			want:    `"[<b x>hi</b>] 42 cts blue"`,
		},
		{
			name:    "JSX in .js with the factory and fragment options",
			fixture: "jsx",
			opts:    Options{Entry: "src/index.js", JSXFactory: "h", JSXFragment: "Frag"},
			want:    `"frag(i(classic))"`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			opts := tt.opts
			opts.Dir = fixture(t, tt.fixture)
			b := mustBuild(t, opts)
			vm := run(t, b, "")
			if got := evalJSON(t, vm, "__dwk_entry.default.run()"); got != tt.want {
				t.Errorf("run() = %s, want %s", got, tt.want)
			}
		})
	}
}

func TestExplicitTsconfig(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, "tsconfig.build.json", `{"compilerOptions": {"jsxFactory": "tag", "jsxFragmentFactory": "Group"}}`)
	writeFile(t, dir, "src/index.tsx", `
const Group = "group";
function tag(type: string, _props: unknown, ...children: string[]): string {
	return type + "[" + children.join(",") + "]";
}
export default { run: () => <><p>a</p><p>b</p></> };
`)
	b := mustBuild(t, Options{Dir: dir, Entry: "src/index.tsx", Tsconfig: "tsconfig.build.json"})
	vm := run(t, b, "")
	if got, want := evalJSON(t, vm, "__dwk_entry.default.run()"), `"group[p[a],p[b]]"`; got != want {
		t.Errorf("run() = %s, want %s", got, want)
	}
}
