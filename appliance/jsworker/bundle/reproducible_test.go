package bundle

import (
	"bytes"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestReproducible(t *testing.T) {
	rules := []Rule{{Type: RuleText, Globs: []string{"**/*.md"}, Fallthrough: true}}
	tests := []struct {
		fixture, entry string
		nodeCompat     bool
	}{
		{"rules", "src/index.js", false},
		{"virtual", "src/index.ts", true},
		{"ts", "src/index.ts", false},
		{"packages", "src/index.js", false},
	}
	for _, tt := range tests {
		for _, minify := range []bool{false, true} {
			name := tt.fixture
			if minify {
				name += "/minify"
			}
			t.Run(name, func(t *testing.T) {
				build := func(dir string) *Bundle {
					return mustBuild(t, Options{Dir: dir, Entry: tt.entry, NodeCompat: tt.nodeCompat, Rules: rules, Minify: minify})
				}
				dirA := fixture(t, tt.fixture) // two copies in two temporary
				dirB := fixture(t, tt.fixture) // directories of their own
				first, again, elsewhere := build(dirA), build(dirA), build(dirB)
				for _, other := range []struct {
					name string
					b    *Bundle
				}{{"the same directory", again}, {"another directory", elsewhere}} {
					if !bytes.Equal(first.Script, other.b.Script) {
						t.Errorf("script differs when built in %s", other.name)
					}
					if !bytes.Equal(first.SourceMap, other.b.SourceMap) {
						t.Errorf("source map differs when built in %s", other.name)
					}
					if !reflect.DeepEqual(first.Modules, other.b.Modules) {
						t.Errorf("modules differ when built in %s", other.name)
					}
					if first.Hash != other.b.Hash {
						t.Errorf("hash %s, built in %s %s", first.Hash, other.name, other.b.Hash)
					}
				}
				for _, out := range [][]byte{first.Script, first.SourceMap} {
					if bytes.Contains(out, []byte(filepath.Dir(dirA))) {
						t.Errorf("output contains the project's absolute path %s", dirA)
					}
				}
				if len(first.Hash) != 64 {
					t.Errorf("hash = %q, want 64 hex digits", first.Hash)
				}
			})
		}
	}
}

func TestHashCoversEverything(t *testing.T) {
	base := &Bundle{Script: []byte("s"), SourceMap: []byte("m"), Modules: []Module{{Name: "a.bin", Type: RuleData, Bytes: []byte("x")}}}
	tests := []struct {
		name string
		b    *Bundle
	}{
		{"script", &Bundle{Script: []byte("t"), SourceMap: base.SourceMap, Modules: base.Modules}},
		{"source map", &Bundle{Script: base.Script, SourceMap: []byte("n"), Modules: base.Modules}},
		{"module bytes", &Bundle{Script: base.Script, SourceMap: base.SourceMap, Modules: []Module{{Name: "a.bin", Type: RuleData, Bytes: []byte("y")}}}},
		{"module name", &Bundle{Script: base.Script, SourceMap: base.SourceMap, Modules: []Module{{Name: "b.bin", Type: RuleData, Bytes: []byte("x")}}}},
		{"module type", &Bundle{Script: base.Script, SourceMap: base.SourceMap, Modules: []Module{{Name: "a.bin", Type: RuleCompiledWasm, Bytes: []byte("x")}}}},
		{"field boundaries", &Bundle{Script: []byte("sm"), SourceMap: nil, Modules: base.Modules}},
	}
	for _, tt := range tests {
		if hash(tt.b) == hash(base) {
			t.Errorf("changing the %s leaves the hash unchanged", tt.name)
		}
	}
}

func TestInputs(t *testing.T) {
	tests := []struct {
		fixture string
		opts    Options
		want    []string // relative to the fixture
	}{
		{
			fixture: "rules",
			opts:    Options{Entry: "src/index.js", Rules: []Rule{{Type: RuleText, Globs: []string{"**/*.md"}, Fallthrough: true}}},
			want: []string{
				"src/add.wasm", "src/alpha.bin", "src/hello.txt", "src/index.js", "src/notes.md",
				"src/page.html", "src/schema.sql", "src/zeta.bin",
			},
		},
		{
			fixture: "ts",
			opts:    Options{Entry: "src/index.ts", Tsconfig: "tsconfig.json"},
			want: []string{
				"node_modules/tinyjsx/jsx-runtime.js", "src/index.ts", "src/legacy.cts", "src/math.mts",
				"src/view.tsx", "tsconfig.json",
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.fixture, func(t *testing.T) {
			opts := tt.opts
			opts.Dir = fixture(t, tt.fixture)
			b := mustBuild(t, opts)
			var want []string
			for _, rel := range tt.want {
				want = append(want, filepath.Join(opts.Dir, filepath.FromSlash(rel)))
			}
			if !reflect.DeepEqual(b.Inputs, want) {
				t.Errorf("inputs:\n%s\nwant:\n%s", strings.Join(b.Inputs, "\n"), strings.Join(want, "\n"))
			}
		})
	}
}

func TestConcurrentBuilds(t *testing.T) {
	dir := fixture(t, "virtual")
	want := mustBuild(t, Options{Dir: dir, Entry: "src/index.ts", NodeCompat: true}).Hash
	const n = 4
	hashes := make(chan string, n)
	errs := make(chan error, n)
	for range n {
		go func() {
			b, err := Build(t.Context(), Options{Dir: dir, Entry: "src/index.ts", NodeCompat: true})
			if err != nil {
				errs <- err
				return
			}
			hashes <- b.Hash
		}()
	}
	for range n {
		select {
		case err := <-errs:
			t.Errorf("Build: %v", err)
		case got := <-hashes:
			if got != want {
				t.Errorf("hash %s, want %s", got, want)
			}
		}
	}
}
