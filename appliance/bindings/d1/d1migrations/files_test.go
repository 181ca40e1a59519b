package d1migrations

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// writeFiles creates each named file (a slash path) under dir.
func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, body := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func names(files []File) []string {
	out := []string{}
	for _, f := range files {
		out = append(out, f.Name)
	}
	return out
}

func TestFind(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"10_c.sql": "", "1_a.sql": "", "9_b.sql": "", "0002_x.sql": "", "0002_a.sql": "",
		"init.sql": "", "notes.txt": "", ".hidden.sql": "",
		"0003_drizzle/migration.sql": "", "0001_drizzle/migration.sql": "", "0001_drizzle/snapshot.json": "",
		"deep/er/0005_d.sql": "", ".git/0004_no.sql": "",
	})
	tests := []struct {
		pattern string
		want    []string
	}{
		{"", []string{"1_a.sql", "0002_a.sql", "0002_x.sql", "9_b.sql", "10_c.sql", "init.sql"}},
		{"*.sql", []string{"1_a.sql", "0002_a.sql", "0002_x.sql", "9_b.sql", "10_c.sql", "init.sql"}},
		{"*/migration.sql", []string{"0001_drizzle/migration.sql", "0003_drizzle/migration.sql"}},
		{"**/*.sql", []string{
			"0001_drizzle/migration.sql", "1_a.sql", "0002_a.sql", "0002_x.sql", "0003_drizzle/migration.sql",
			"9_b.sql", "10_c.sql", "deep/er/0005_d.sql", "init.sql",
		}},
		{"deep/**/*.sql", []string{"deep/er/0005_d.sql"}},
		{"./[01]*.sql", []string{"1_a.sql", "0002_a.sql", "0002_x.sql", "10_c.sql"}},
	}
	for _, tt := range tests {
		files, err := Find(dir, tt.pattern)
		if err != nil {
			t.Fatalf("Find(%q): %v", tt.pattern, err)
		}
		if got := names(files); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("Find(%q) = %q, want %q", tt.pattern, got, tt.want)
		}
		for _, f := range files {
			if got, want := f.Path, filepath.Join(dir, filepath.FromSlash(f.Name)); got != want {
				t.Errorf("Find(%q): %s has Path %s, want %s", tt.pattern, f.Name, got, want)
			}
		}
	}
}

func TestFindErrors(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"file": ""})
	tests := []struct {
		dir, pattern, want string
	}{
		{filepath.Join(dir, "missing"), "", "no migrations directory"},
		{filepath.Join(dir, "file"), "", "is a file"},
		{dir, "[", "migrations pattern"},
	}
	for _, tt := range tests {
		_, err := Find(tt.dir, tt.pattern)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("Find(%s, %q) = %v, want an error with %q", tt.dir, tt.pattern, err, tt.want)
		}
	}
}

func TestCompare(t *testing.T) {
	tests := []struct {
		a, b string
		want int
	}{
		{"1_a.sql", "10_a.sql", -1},
		{"0010_a.sql", "9_a.sql", 1},
		{"0001_b.sql", "0001_a.sql", 1},
		{"0001_a.sql", "init.sql", -1},
		{"b.sql", "a.sql", 1},
		{"0001_a", "0001_a/migration.sql", -1},
		{"0002_a.sql", "0002_a.sql", 0},
	}
	for _, tt := range tests {
		got := Compare(tt.a, tt.b)
		if got < 0 {
			got = -1
		} else if got > 0 {
			got = 1
		}
		if got != tt.want {
			t.Errorf("Compare(%q, %q) = %d, want %d", tt.a, tt.b, got, tt.want)
		}
	}
}

func TestStatements(t *testing.T) {
	tests := []struct {
		script string
		want   []string
		err    error
	}{
		{"CREATE TABLE a (x);\n-- note\nINSERT INTO a VALUES ('x;y');\n", []string{"CREATE TABLE a (x);", "INSERT INTO a VALUES ('x;y');"}, nil},
		{"PRAGMA foreign_keys=OFF;\nBEGIN TRANSACTION;\nCREATE TABLE a (x);\nCOMMIT;\n", []string{"PRAGMA foreign_keys=OFF;", "CREATE TABLE a (x);"}, nil},
		{"BEGIN TRANSACTION;\nCOMMIT;\nBEGIN TRANSACTION;\nCOMMIT;\n", nil, ErrTransactions},
		{"CREATE TRIGGER t AFTER INSERT ON a BEGIN SELECT 1; SELECT 2; END;", []string{"CREATE TRIGGER t AFTER INSERT ON a BEGIN SELECT 1; SELECT 2; END;"}, nil},
		{"-- only a comment\n", nil, nil},
	}
	for _, tt := range tests {
		got, err := Statements(tt.script)
		if err != tt.err {
			t.Errorf("Statements(%q) error = %v, want %v", tt.script, err, tt.err)
			continue
		}
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("Statements(%q) = %q, want %q", tt.script, got, tt.want)
		}
	}
}
