package bundle

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestGlobRegexp(t *testing.T) {
	tests := []struct {
		glob, spec string
		want       bool
	}{
		{"**/*.txt", "./hello.txt", true},
		{"**/*.txt", "../up/hello.txt", true},
		{"**/*.txt", "pkg/data/hello.txt", true},
		{"**/*.txt", "hello.txt", false}, // no "/": as in wrangler
		{"**/*.txt", "./hello.txt.js", false},
		{"**/*.txt", "./helloXtxt", false}, // "." is literal
		{"**/*.wasm?module", "./add.wasm?module", true},
		{"**/*.wasm?module", "./add.wasmXmodule", false}, // "?" is literal
		{"**/*.wasm", "./add.wasm?module", false},
		{"*.bin", "./deep/dir/x.bin", true}, // "*" crosses "/" too
		{"**/[ab].bin", "./[ab].bin", true}, // brackets are literal
		{"**/[ab].bin", "./a.bin", false},
		{`**/\*.md`, "./*.md", true},
		{`**/\*.md`, "./x.md", false},
		{"**/été.txt", "./été.txt", true},
	}
	for _, tt := range tests {
		if got := globRegexp(tt.glob).MatchString(tt.spec); got != tt.want {
			t.Errorf("glob %q matches %q = %v, want %v", tt.glob, tt.spec, got, tt.want)
		}
	}
}

func TestParseRules(t *testing.T) {
	tests := []struct {
		name        string
		user        []Rule
		wantActive  []string // Type:first glob
		wantRemoved []string
	}{
		{
			name:       "defaults",
			wantActive: []string{"Text:**/*.txt", "Data:**/*.bin", "CompiledWasm:**/*.wasm"},
		},
		{
			name:       "fallthrough keeps the default of the type",
			user:       []Rule{{Type: RuleText, Globs: []string{"**/*.md"}, Fallthrough: true}},
			wantActive: []string{"Text:**/*.md", "Text:**/*.txt", "Data:**/*.bin", "CompiledWasm:**/*.wasm"},
		},
		{
			name:        "no fallthrough hides the default of the type",
			user:        []Rule{{Type: RuleText, Globs: []string{"**/*.md"}}},
			wantActive:  []string{"Text:**/*.md", "Data:**/*.bin", "CompiledWasm:**/*.wasm"},
			wantRemoved: []string{"Text:**/*.txt"},
		},
		{
			name: "a later user rule of a completed type is hidden too",
			user: []Rule{
				{Type: RuleData, Globs: []string{"**/*.dat"}},
				{Type: RuleData, Globs: []string{"**/*.raw"}},
				{Type: RuleESModule, Globs: []string{"**/*.jsm"}},
			},
			wantActive:  []string{"Data:**/*.dat", "ESModule:**/*.jsm", "Text:**/*.txt", "CompiledWasm:**/*.wasm"},
			wantRemoved: []string{"Data:**/*.raw", "Data:**/*.bin"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rs, err := parseRules(tt.user)
			if err != nil {
				t.Fatal(err)
			}
			if got := ruleNames(rs.active); strings.Join(got, " ") != strings.Join(tt.wantActive, " ") {
				t.Errorf("active = %q, want %q", got, tt.wantActive)
			}
			if got := ruleNames(rs.removed); strings.Join(got, " ") != strings.Join(tt.wantRemoved, " ") {
				t.Errorf("removed = %q, want %q", got, tt.wantRemoved)
			}
		})
	}
}

func ruleNames(ms []ruleMatcher) []string {
	var out []string
	for _, m := range ms {
		out = append(out, m.rule.Type+":"+m.rule.Globs[0])
	}
	return out
}

func TestParseRulesErrors(t *testing.T) {
	tests := []struct {
		rule Rule
		want string
	}{
		{Rule{Type: "PythonModule", Globs: []string{"**/*.py"}}, `rules[0]: type "PythonModule" is not supported`},
		{Rule{Type: RuleText}, "rules[0]: no globs"},
	}
	for _, tt := range tests {
		_, err := parseRules([]Rule{tt.rule})
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("parseRules(%+v) = %v, want %q", tt.rule, err, tt.want)
		}
	}
}

func TestModuleRules(t *testing.T) {
	dir := fixture(t, "rules")
	b := mustBuild(t, Options{
		Dir:   dir,
		Entry: "src/index.js",
		Rules: []Rule{{Type: RuleText, Globs: []string{"**/*.md"}, Fallthrough: true}},
	})

	// Data and CompiledWasm modules, ordered by name whatever the import
	// order; add.wasm and add.wasm?module are one module.
	wantModules := []struct{ name, typ string }{
		{"src/add.wasm", RuleCompiledWasm},
		{"src/alpha.bin", RuleData},
		{"src/zeta.bin", RuleData},
	}
	if len(b.Modules) != len(wantModules) {
		t.Fatalf("modules = %+v, want %+v", b.Modules, wantModules)
	}
	for i, w := range wantModules {
		m := b.Modules[i]
		content, err := os.ReadFile(filepath.Join(dir, w.name))
		if err != nil {
			t.Fatal(err)
		}
		if m.Name != w.name || m.Type != w.typ || !bytes.Equal(m.Bytes, content) {
			t.Errorf("module %d = %s %s %q, want %s %s %q", i, m.Name, m.Type, m.Bytes, w.name, w.typ, content)
		}
	}

	vm := run(t, b, "")
	got := evalJSON(t, vm, "__dwk_entry.default")
	want := `{"text":"hello, \"text\"\n","page":"<p>page</p>\n","sql":"SELECT 1;\n","notes":"# notes\n",` +
		`"zeta":{"specifier":"dwk:module/2"},"alpha":{"specifier":"dwk:module/1"},` +
		`"add":{"specifier":"dwk:module/0"},"addModule":{"specifier":"dwk:module/0"}}`
	if got != want {
		t.Errorf("exports = %s\nwant %s", got, want)
	}
}

func TestModuleRulesOrderAndFallthrough(t *testing.T) {
	tests := []struct {
		name    string
		entry   string
		rules   []Rule
		want    string   // the default export as JSON, or
		wantErr []string // the errors
	}{
		{
			name:  "a user rule comes before the defaults",
			entry: "src/override.js",
			rules: []Rule{{Type: RuleData, Globs: []string{"**/hello.txt"}, Fallthrough: true}},
			want:  `{"hello":{"specifier":"dwk:module/0"},"page":"<p>page</p>\n"}`,
		},
		{
			name:  "without fallthrough the default Text rule is hidden",
			entry: "src/override.js",
			rules: []Rule{{Type: RuleText, Globs: []string{"**/*.md"}}},
			wantErr: []string{
				`src/override.js:2:19: "./hello.txt" matches the module rule {"type":"Text","globs":["**/*.txt","**/*.html","**/*.sql"]}, which is ignored because an earlier Text rule does not have fallthrough = true`,
				`src/override.js:3:18: "./page.html" matches the module rule {"type":"Text","globs":["**/*.txt","**/*.html","**/*.sql"]}, which is ignored because an earlier Text rule does not have fallthrough = true`,
			},
		},
		{
			name:  "an ESModule rule loads any extension as JavaScript",
			entry: "src/jsrule.js",
			rules: []Rule{{Type: RuleESModule, Globs: []string{"**/*.jsm"}}},
			want:  `{"answer":42,"hello":"hello, \"text\"\n"}`,
		},
		{
			name:    "without it esbuild has no loader",
			entry:   "src/jsrule.js",
			wantErr: []string{`src/jsrule.js:1:31: No loader is configured for ".jsm" files: src/answer.jsm`},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := fixture(t, "rules")
			opts := Options{Dir: dir, Entry: tt.entry, Rules: tt.rules}
			if tt.wantErr != nil {
				be := buildError(t, opts)
				if got := messages(be.Errors); strings.Join(got, "\n") != strings.Join(tt.wantErr, "\n") {
					t.Errorf("errors = %q\nwant %q", got, tt.wantErr)
				}
				return
			}
			b := mustBuild(t, opts)
			vm := run(t, b, "")
			if got := evalJSON(t, vm, "__dwk_entry.default"); got != tt.want {
				t.Errorf("exports = %s, want %s", got, tt.want)
			}
		})
	}
}

func TestRuleFileMissing(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, "index.js", "import x from \"./gone.bin\";\nexport default x;\n")
	be := buildError(t, Options{Dir: dir, Entry: "index.js"})
	want := `index.js:1:15: could not resolve "./gone.bin" (matched by the Data module rule)`
	if got := messages(be.Errors); len(got) != 1 || got[0] != want {
		t.Errorf("errors = %q, want [%q]", got, want)
	}
}
