package bundle

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
)

func TestBuildErrors(t *testing.T) {
	tests := []struct {
		name    string
		fixture string
		entry   string
		want    []string // every error, formatted
		notes   []string // the first error's notes
	}{
		{
			name:    "syntax errors in two files, both reported",
			fixture: "broken",
			entry:   "src/index.js",
			want: []string{
				`src/a.js:3:7: Expected identifier but found "="`,
				`src/b.js:2:13: Unexpected ";"`,
			},
		},
		{
			name:    "a missing package suggests an alias, not an external",
			fixture: "broken",
			entry:   "src/missing.js",
			want:    []string{`src/missing.js:1:15: Could not resolve "no-such-package"`},
			notes:   []string{aliasNote},
		},
		{
			name:    "top-level await",
			fixture: "tla",
			entry:   "src/index.js",
			want: []string{"src/index.js:1:16: top-level await: dwk cannot run it yet (a Worker runs as one classic script, " +
				"which cannot wait at the top level); move the await into a handler or initialise lazily"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			be := buildError(t, Options{Dir: fixture(t, tt.fixture), Entry: tt.entry})
			if got := messages(be.Errors); strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
				t.Errorf("errors:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
			}
			if tt.notes != nil {
				if got := be.Errors[0].Notes; strings.Join(got, "\n") != strings.Join(tt.notes, "\n") {
					t.Errorf("notes = %q, want %q", got, tt.notes)
				}
			}
			for _, w := range tt.want {
				if !strings.Contains(be.Error(), w) {
					t.Errorf("Error() = %q, want it to contain %q", be.Error(), w)
				}
			}
		})
	}
}

func TestWarnings(t *testing.T) {
	want := []string{`src/index.js:3:20: Duplicate key "a" in object literal`}

	b := mustBuild(t, Options{Dir: fixture(t, "warn"), Entry: "src/index.js"})
	if got := messages(b.Warnings); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("warnings = %q, want %q", got, want)
	}

	// A failed build reports its warnings too, after its errors.
	dir := fixture(t, "warn")
	writeFile(t, dir, "src/main.js", "import \"./index.js\";\nimport \"./bad.js\";\n")
	writeFile(t, dir, "src/bad.js", "\nconst = 1;\n")
	be := buildError(t, Options{Dir: dir, Entry: "src/main.js"})
	wantErr := "bundle: 1 error\n" +
		`src/bad.js:2:7: Expected identifier but found "="` + "\n" +
		`src/index.js:3:20: warning: Duplicate key "a" in object literal`
	if got := be.Error(); !strings.HasPrefix(got, wantErr) {
		t.Errorf("Error() = %q\nwant it to start %q", got, wantErr)
	}
}

func TestOptionErrors(t *testing.T) {
	tests := []struct {
		name string
		opts Options
		want string
	}{
		{"no dir", Options{Entry: "x.js"}, "bundle: no project directory (Dir)"},
		{"no entry", Options{Dir: "testdata/warn"}, "bundle: no entry module (Entry)"},
		{"missing entry", Options{Dir: "testdata/warn", Entry: "src/gone.js"}, "bundle: entry "},
		{"bad rule", Options{Dir: "testdata/warn", Entry: "src/index.js", Rules: []Rule{{Type: "Python", Globs: []string{"*"}}}},
			`bundle: rules[0]: type "Python" is not supported`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Build(t.Context(), tt.opts)
			if err == nil || !strings.HasPrefix(err.Error(), tt.want) {
				t.Errorf("Build error = %v, want it to start %q", err, tt.want)
			}
		})
	}
}

func TestMessageString(t *testing.T) {
	tests := []struct {
		m    Message
		want string
	}{
		{Message{File: "src/a.ts", Line: 3, Column: 7, Text: "bad"}, "src/a.ts:3:7: bad"},
		{Message{Text: "no position"}, "no position"},
	}
	for _, tt := range tests {
		if got := tt.m.String(); got != tt.want {
			t.Errorf("String() = %q, want %q", got, tt.want)
		}
	}
}

func TestCancelledBuild(t *testing.T) {
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	_, err := Build(ctx, Options{Dir: fixture(t, "syntax"), Entry: "src/index.js"})
	if !errors.Is(err, context.Canceled) {
		t.Errorf("Build error = %v, want it to wrap context.Canceled", err)
	}
}

func TestAllErrorsReportedInOrder(t *testing.T) {
	dir := t.TempDir()
	var imports, want []string
	for i := range 15 {
		name := fmt.Sprintf("f%02d.js", i)
		writeFile(t, dir, name, "\nconst = 1;\n")
		imports = append(imports, `import "./`+name+`";`)
		want = append(want, name+`:2:7: Expected identifier but found "="`)
	}
	writeFile(t, dir, "index.js", strings.Join(imports, "\n"))
	be := buildError(t, Options{Dir: dir, Entry: "index.js"})
	if got := messages(be.Errors); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("errors:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
