package bundle

import (
	"encoding/json"
	"errors"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/dop251/goja"
	"github.com/go-sourcemap/sourcemap"
)

func TestSourceMapMapsBackToProjectFiles(t *testing.T) {
	for _, minify := range []bool{false, true} {
		t.Run("minify="+strconv.FormatBool(minify), func(t *testing.T) {
			dir := fixture(t, "sourcemap")
			b := mustBuild(t, Options{Dir: dir, Entry: "src/index.ts", Minify: minify})

			wantTail := "//# sourceMappingURL=" + ScriptName + ".map\n"
			if !strings.HasSuffix(string(b.Script), wantTail) {
				t.Errorf("script ends %q, want %q", b.Script[max(0, len(b.Script)-60):], wantTail)
			}
			var m struct {
				Sources        []string `json:"sources"`
				SourcesContent []string `json:"sourcesContent"`
			}
			if err := json.Unmarshal(b.SourceMap, &m); err != nil {
				t.Fatal(err)
			}
			if got, want := strings.Join(m.Sources, " "), "src/index.ts src/fail.ts"; got != want {
				t.Errorf("sources = %q, want %q", got, want)
			}
			if m.SourcesContent != nil {
				t.Errorf("sourcesContent = %q, want none", m.SourcesContent)
			}

			smap, err := sourcemap.Parse(ScriptName+".map", b.SourceMap)
			if err != nil {
				t.Fatal(err)
			}
			tests := []struct {
				name       string
				generated  string // text whose start in the script is mapped
				wantSource string
				wantLine   int
			}{
				{"the throw", "throw new Error", "src/fail.ts", 6},
				{"the call in a handler", "NAME)", "src/index.ts", 11},
			}
			for _, tt := range tests {
				line, col := offsetOf(t, b.Script, tt.generated)
				source, _, gotLine, _, ok := smap.Source(line, col)
				if !ok || source != tt.wantSource || gotLine != tt.wantLine {
					t.Errorf("%s at worker.js:%d:%d maps to %s:%d (%v), want %s:%d",
						tt.name, line, col, source, gotLine, ok, tt.wantSource, tt.wantLine)
				}
			}

			// goja reads the map itself (the script's last line names it), so
			// its stack traces already point into the project.
			vm := run(t, b, "")
			_, err = vm.RunString(`__dwk_entry.default.run({ NAME: "x" })`)
			var ex *goja.Exception
			if !errors.As(err, &ex) {
				t.Fatalf("run() error = %v, want an exception", err)
			}
			stack := ex.String()
			if !regexp.MustCompile(`src/fail\.ts:6:\d+`).MatchString(stack) ||
				!regexp.MustCompile(`src/index\.ts:11:\d+`).MatchString(stack) {
				t.Errorf("stack:\n%s\nwant frames at src/fail.ts:6 and src/index.ts:11", stack)
			}
		})
	}
}

// offsetOf returns the 1-based line and 0-based column where text first
// occurs in script.
func offsetOf(t *testing.T, script []byte, text string) (line, col int) {
	t.Helper()
	i := strings.Index(string(script), text)
	if i < 0 {
		t.Fatalf("script lacks %q", text)
	}
	before := string(script[:i])
	return strings.Count(before, "\n") + 1, i - (strings.LastIndex(before, "\n") + 1)
}
