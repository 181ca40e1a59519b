package bundle

import (
	"strings"
	"testing"
)

func TestModuleTableFinish(t *testing.T) {
	var mt moduleTable
	zeta, err := mt.add(Module{Name: "src/zeta.bin", Type: RuleData, Bytes: []byte("z")})
	if err != nil {
		t.Fatal(err)
	}
	wasm, err := mt.add(Module{Name: "src/add.wasm", Type: RuleCompiledWasm, Bytes: []byte("w")})
	if err != nil {
		t.Fatal(err)
	}
	unused, err := mt.add(Module{Name: "src/unused.bin", Type: RuleData, Bytes: []byte("u")})
	if err != nil {
		t.Fatal(err)
	}
	_ = unused // loaded, then dropped by tree-shaking: not in the script

	script := `a("` + zeta + `");b('` + wasm + `');c("` + zeta + `")`
	got, modules, err := mt.finish([]byte(script))
	if err != nil {
		t.Fatal(err)
	}
	pad := strings.Repeat(" ", len(zeta)-len(ModulePrefix+"0"))
	want := `a("dwk:module/1"` + pad + `);b('dwk:module/0'` + pad + `);c("dwk:module/1"` + pad + `)`
	if string(got) != want {
		t.Errorf("script = %q\nwant %q", got, want)
	}
	if len(got) != len(script) {
		t.Errorf("script length %d, want %d (columns must not move)", len(got), len(script))
	}
	var names []string
	for _, m := range modules {
		names = append(names, m.Name)
	}
	if strings.Join(names, " ") != "src/add.wasm src/zeta.bin" {
		t.Errorf("modules = %q, want [src/add.wasm src/zeta.bin]", names)
	}
}

func TestModuleTableUnknownPlaceholder(t *testing.T) {
	var mt moduleTable
	_, _, err := mt.finish([]byte(`x("dwk:module/?0123abcd")`))
	if err == nil || !strings.Contains(err.Error(), "never loaded") {
		t.Errorf("finish error = %v, want one about a module never loaded", err)
	}
}

func TestModulesInMinifiedScript(t *testing.T) {
	dir := fixture(t, "rules")
	b := mustBuild(t, Options{
		Dir:    dir,
		Entry:  "src/index.js",
		Rules:  []Rule{{Type: RuleText, Globs: []string{"**/*.md"}, Fallthrough: true}},
		Minify: true,
	})
	vm := run(t, b, "")
	got := evalJSON(t, vm, "[__dwk_entry.default.alpha, __dwk_entry.default.add, __dwk_entry.default.zeta].map((m) => m.specifier)")
	if want := `["dwk:module/1","dwk:module/0","dwk:module/2"]`; got != want {
		t.Errorf("specifiers = %s, want %s", got, want)
	}
}

func TestKeepNames(t *testing.T) {
	no := false
	tests := []struct {
		name      string
		keepNames *bool
		want      string
	}{
		{"default keeps names", nil, `"Counter"`},
		{"keep_names = false", &no, ""}, // anything but Counter
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			writeFile(t, dir, "index.js", "class Counter {}\nexport default { name: Counter.name };\n")
			b := mustBuild(t, Options{Dir: dir, Entry: "index.js", Minify: true, KeepNames: tt.keepNames})
			got := evalJSON(t, run(t, b, ""), "__dwk_entry.default.name")
			if tt.want != "" && got != tt.want || tt.want == "" && got == `"Counter"` {
				t.Errorf("name = %s, want %q", got, tt.want)
			}
		})
	}
}
