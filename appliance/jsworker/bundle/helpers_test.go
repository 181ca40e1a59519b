package bundle

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dop251/goja"
	"github.com/dop251/goja/parser"
)

// fixtureNodeModules is what testdata calls node_modules, which the
// repository's .gitignore would drop.
const fixtureNodeModules = "_node_modules"

// fixture copies testdata/name into a new directory, renaming each
// _node_modules to node_modules, and returns the copy's path. Tests build
// copies so that a build command may write and two copies may be
// compared.
func fixture(t *testing.T, name string) string {
	t.Helper()
	src := filepath.Join("testdata", name)
	dst := filepath.Join(t.TempDir(), name)
	err := filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, path)
		if err != nil {
			return err
		}
		parts := strings.Split(rel, string(filepath.Separator))
		for i, p := range parts {
			if p == fixtureNodeModules {
				parts[i] = "node_modules"
			}
		}
		target := filepath.Join(dst, filepath.Join(parts...))
		info, err := d.Info()
		if err != nil {
			return err
		}
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(target, data, info.Mode().Perm())
	})
	if err != nil {
		t.Fatalf("copy fixture %s: %v", name, err)
	}
	return dst
}

// mustBuild builds opts and fails the test on an error.
func mustBuild(t *testing.T, opts Options) *Bundle {
	t.Helper()
	b, err := Build(context.Background(), opts)
	if err != nil {
		t.Fatalf("Build: %v", err)
	}
	return b
}

// buildError builds opts and returns the *BuildError it must fail with.
func buildError(t *testing.T, opts Options) *BuildError {
	t.Helper()
	_, err := Build(context.Background(), opts)
	var be *BuildError
	if !errors.As(err, &be) {
		t.Fatalf("Build error = %v, want a *BuildError", err)
	}
	return be
}

// importStub stands in for the runtime's __dwk_import: it records each
// specifier in globalThis.imported and returns an object naming it,
// unless globalThis.provided has an object for it.
const importStub = `
globalThis.imported = [];
globalThis.provided = globalThis.provided || {};
globalThis.__dwk_import = function (spec) {
	imported.push(spec);
	return provided[spec] || { specifier: spec };
};
`

// compile parses and compiles b's script as the runtime would: goja
// follows the script's sourceMappingURL line, so its loader must hand over
// b.SourceMap.
func compile(t *testing.T, b *Bundle) *goja.Program {
	t.Helper()
	ast, err := goja.Parse(ScriptName, string(b.Script), parser.WithSourceMapLoader(func(path string) ([]byte, error) {
		if path != ScriptName+".map" {
			return nil, fmt.Errorf("source map %q requested, want %s.map", path, ScriptName)
		}
		return b.SourceMap, nil
	}))
	if err != nil {
		t.Fatalf("goja cannot parse the script: %v", err)
	}
	prg, err := goja.CompileAST(ast, false)
	if err != nil {
		t.Fatalf("goja cannot compile the script: %v", err)
	}
	return prg
}

// run runs b's script in a plain goja runtime after prelude and
// importStub, and returns the runtime.
func run(t *testing.T, b *Bundle, prelude string) *goja.Runtime {
	t.Helper()
	prg := compile(t, b)
	vm := goja.New()
	if _, err := vm.RunString(prelude + importStub); err != nil {
		t.Fatalf("prelude: %v", err)
	}
	if _, err := vm.RunProgram(prg); err != nil {
		t.Fatalf("run script: %v", err)
	}
	return vm
}

// eval evaluates expr and returns its value exported to Go; a promise is
// awaited (goja runs its jobs before RunString returns).
func eval(t *testing.T, vm *goja.Runtime, expr string) any {
	t.Helper()
	v, err := vm.RunString(expr)
	if err != nil {
		t.Fatalf("%s: %v", expr, err)
	}
	if p, ok := v.Export().(*goja.Promise); ok {
		switch p.State() {
		case goja.PromiseStateFulfilled:
			return p.Result().Export()
		case goja.PromiseStateRejected:
			t.Fatalf("%s: rejected: %v", expr, p.Result())
		default:
			t.Fatalf("%s: still pending", expr)
		}
	}
	return v.Export()
}

// evalJSON evaluates expr (awaiting a promise) and returns it as JSON.
func evalJSON(t *testing.T, vm *goja.Runtime, expr string) string {
	t.Helper()
	v, err := vm.RunString("Promise.resolve(" + expr + ").then((v) => JSON.stringify(v))")
	if err != nil {
		t.Fatalf("%s: %v", expr, err)
	}
	p := v.Export().(*goja.Promise)
	if p.State() != goja.PromiseStateFulfilled {
		t.Fatalf("%s: %v %v", expr, p.State(), p.Result())
	}
	return p.Result().String()
}

// messages returns ms formatted, one string each.
func messages(ms []Message) []string {
	out := make([]string, len(ms))
	for i, m := range ms {
		out[i] = m.String()
	}
	return out
}

// writeFile writes content to dir/name, making directories.
func writeFile(t *testing.T, dir, name, content string) {
	t.Helper()
	path := filepath.Join(dir, filepath.FromSlash(name))
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}
