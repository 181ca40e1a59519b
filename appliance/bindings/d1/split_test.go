package d1

import (
	"slices"
	"strings"
	"testing"

	"modernc.org/libc"
	sqlite3 "modernc.org/sqlite/lib"
)

var splitTests = []struct {
	name   string
	script string
	want   []string
}{
	{"empty", "", nil},
	{"only space and comments", " -- a;\n /* b; */ ;; ", nil},
	{"one without semicolon", "SELECT 1", []string{"SELECT 1"}},
	{"two", "SELECT 1; SELECT 2;", []string{"SELECT 1;", "SELECT 2;"}},
	{"empty statements dropped", ";;SELECT 1;;;SELECT 2", []string{"SELECT 1;", "SELECT 2"}},
	{"semicolon in string", "INSERT INTO t VALUES ('a;b'); SELECT 'it''s;';",
		[]string{"INSERT INTO t VALUES ('a;b');", "SELECT 'it''s;';"}},
	{"semicolon in quoted identifiers", `SELECT "a;b", [c;d], ` + "`e;f`" + ` FROM t; SELECT 2`,
		[]string{`SELECT "a;b", [c;d], ` + "`e;f`" + ` FROM t;`, "SELECT 2"}},
	{"semicolon in comments", "SELECT 1 -- x;y\n + 1; /* ; */ SELECT 2;",
		[]string{"SELECT 1 -- x;y\n + 1;", "SELECT 2;"}},
	{"trigger body", "CREATE TRIGGER tr AFTER INSERT ON t BEGIN INSERT INTO u VALUES (1); UPDATE u SET x = 2; END; SELECT 1;",
		[]string{"CREATE TRIGGER tr AFTER INSERT ON t BEGIN INSERT INTO u VALUES (1); UPDATE u SET x = 2; END;", "SELECT 1;"}},
	{"temp trigger with CASE END", "create temporary trigger tr after delete on t begin select case when 1 then 2 end; end;select 3",
		[]string{"create temporary trigger tr after delete on t begin select case when 1 then 2 end; end;", "select 3"}},
	{"table named trigger", "CREATE TABLE trigger (x); SELECT 1;", []string{"CREATE TABLE trigger (x);", "SELECT 1;"}},
	{"explain create trigger", "EXPLAIN CREATE TRIGGER tr AFTER INSERT ON t BEGIN SELECT 1; END; SELECT 2",
		[]string{"EXPLAIN CREATE TRIGGER tr AFTER INSERT ON t BEGIN SELECT 1; END;", "SELECT 2"}},
	{"unterminated string", "SELECT 1; SELECT 'a;", []string{"SELECT 1;", "SELECT 'a;"}},
	{"unterminated trigger", "CREATE TRIGGER tr AFTER INSERT ON t BEGIN SELECT 1;",
		[]string{"CREATE TRIGGER tr AFTER INSERT ON t BEGIN SELECT 1;"}},
	{"unicode identifiers", "SELECT 1 AS ünï; SELECT '世界;'", []string{"SELECT 1 AS ünï;", "SELECT '世界;'"}},
}

func TestSplit(t *testing.T) {
	for _, tt := range splitTests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Split(tt.script); !slices.Equal(got, tt.want) {
				t.Errorf("Split(%q)\n got %q\nwant %q", tt.script, got, tt.want)
			}
		})
	}
}

// FuzzSplitMatchesSQLite checks Split against SQLite's own sqlite3_complete:
// every statement Split ends at a semicolon is complete (unless it is the
// unterminated last one), and no shorter prefix of it that ends at a
// semicolon is.
func FuzzSplitMatchesSQLite(f *testing.F) {
	for _, tt := range splitTests {
		f.Add(tt.script)
	}
	tls := libc.NewTLS()
	defer tls.Close()
	complete := func(s string) bool {
		p, err := libc.CString(s)
		if err != nil {
			f.Fatal(err)
		}
		defer libc.Xfree(tls, p)
		return sqlite3.Xsqlite3_complete(tls, p) != 0
	}
	f.Fuzz(func(t *testing.T, script string) {
		if strings.IndexByte(script, 0) >= 0 {
			t.Skip("SQLite reads C strings")
		}
		stmts := Split(script)
		for i, stmt := range stmts {
			if !strings.HasSuffix(stmt, ";") {
				continue
			}
			// The last statement may be left open by an unterminated string
			// or trigger body; then SQLite calls the whole script incomplete.
			mustBeComplete := i < len(stmts)-1 || complete(script)
			if mustBeComplete && !complete(stmt) {
				t.Errorf("Split(%q) gave %q, which SQLite calls incomplete", script, stmt)
			}
			for i := range len(stmt) - 1 {
				if stmt[i] == ';' && complete(stmt[:i+1]) {
					t.Errorf("Split(%q) gave %q, but SQLite calls its prefix %q complete", script, stmt, stmt[:i+1])
				}
			}
		}
	})
}
