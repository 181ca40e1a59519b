package d1test

import (
	"errors"
	"strings"
	"testing"

	"github.com/dwk/fleet/appliance/worker"
)

// testExec checks how Exec splits a script, counts statements and stops at
// the first failure. In the scripts, {T} stands for a fresh table (id
// INTEGER PRIMARY KEY, v TEXT) and {L} for a second one the trigger logs into.
func testExec(t *testing.T, f *fixture) {
	const none = -1
	tests := []struct {
		name     string
		script   string
		count    int
		errIndex int
		rows     int64 // rows in {T} afterwards
	}{
		{"one", "INSERT INTO {T} (v) VALUES ('a')", 1, none, 1},
		{"several", "INSERT INTO {T} (v) VALUES ('a'); INSERT INTO {T} (v) VALUES ('b');\n", 2, none, 2},
		{"no final semicolon", "INSERT INTO {T} (v) VALUES ('a');INSERT INTO {T} (v) VALUES ('b')", 2, none, 2},
		{"semicolons in strings and comments",
			"INSERT INTO {T} (v) VALUES ('x;y'); -- c;d\n/* ; */ INSERT INTO {T} (v) VALUES ('it''s;');", 2, none, 2},
		{"semicolon in quoted identifier", `INSERT INTO {T} ("v") VALUES ('a'); SELECT 1 AS "a;b"`, 2, none, 1},
		{"empty statements", ";; INSERT INTO {T} (v) VALUES ('a');;;", 1, none, 1},
		{"empty script", "", 0, none, 0},
		{"only comments", "-- nothing;\n/* at all; */", 0, none, 0},
		{"selects are run", "SELECT 1; SELECT * FROM {T}; VALUES (1), (2)", 3, none, 0},
		{"multi-line", "INSERT INTO {T} (v)\nVALUES ('a');\n\nINSERT INTO {T} (v)\n  VALUES ('b');", 2, none, 2},
		{"trigger body",
			"CREATE TRIGGER {T}_log AFTER INSERT ON {T} BEGIN INSERT INTO {L} (v) VALUES ('1;'); INSERT INTO {L} (v) VALUES (NEW.v); END;" +
				" INSERT INTO {T} (v) VALUES ('a');", 2, none, 1},
		{"failure stops the script", "INSERT INTO {T} (v) VALUES ('a'); INSERT INTO no_such_table_d1test VALUES (1); INSERT INTO {T} (v) VALUES ('c')",
			1, 1, 1},
		{"syntax error first", "SELEC 1; INSERT INTO {T} (v) VALUES ('a')", 0, 0, 0},
		{"constraint failure", "INSERT INTO {T} (id, v) VALUES (1, 'a'); INSERT INTO {T} (id, v) VALUES (1, 'b'); INSERT INTO {T} (id, v) VALUES (2, 'c')",
			1, 1, 1},
		{"parameters refused", "INSERT INTO {T} (v) VALUES ('a'); INSERT INTO {T} (v) VALUES (?)", 1, 1, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tbl := f.table(t, "exec", "id INTEGER PRIMARY KEY, v TEXT")
			logTbl := f.table(t, "log", "v TEXT")
			script := strings.NewReplacer("{T}", tbl, "{L}", logTbl).Replace(tt.script)
			res, err := f.db.Exec(t.Context(), script)
			if res.Count != tt.count {
				t.Errorf("Count = %d, want %d", res.Count, tt.count)
			}
			switch {
			case tt.errIndex == none && err != nil:
				t.Errorf("Exec: %v", err)
			case tt.errIndex != none && err == nil:
				t.Errorf("Exec succeeded, want an error at statement %d", tt.errIndex)
			case tt.errIndex != none:
				wantD1Error(t, err, tt.errIndex)
			}
			if got := f.count(t, tbl); got != tt.rows {
				t.Errorf("rows in table = %d, want %d", got, tt.rows)
			}
			if strings.Contains(tt.script, "{L}") {
				if got := f.count(t, logTbl); got != 2*tt.rows {
					t.Errorf("rows the trigger logged = %d, want %d", got, 2*tt.rows)
				}
			}
			if res.Duration < 0 {
				t.Errorf("Duration = %v, want >= 0", res.Duration)
			}
		})
	}
}

// testExecTransaction checks explicit transactions in Exec scripts: a
// complete one commits, and one left open never leaks into later calls.
func testExecTransaction(t *testing.T, f *fixture) {
	ctx := t.Context()
	tbl := f.table(t, "exectx", "id INTEGER PRIMARY KEY, v TEXT")
	res, err := f.db.Exec(ctx, "BEGIN; INSERT INTO "+tbl+" (v) VALUES ('a'); INSERT INTO "+tbl+" (v) VALUES ('b'); COMMIT;")
	if err != nil || res.Count != 4 {
		t.Fatalf("Exec of a complete transaction = %d statements, %v; want 4, nil", res.Count, err)
	}
	if _, err := f.db.Exec(ctx, "BEGIN; INSERT INTO "+tbl+" (v) VALUES ('open')"); err == nil {
		t.Errorf("Exec leaving a transaction open succeeded, want an error")
	} else {
		var de *worker.D1Error
		if !errors.As(err, &de) {
			t.Errorf("error %v (%T), want a *worker.D1Error", err, err)
		}
	}
	if _, err := f.db.Prepare("INSERT INTO " + tbl + " (v) VALUES (?)").Bind("after").Run(ctx); err != nil {
		t.Fatalf("insert after the open transaction: %v", err)
	}
	r := f.all(t, "SELECT v FROM "+tbl+" ORDER BY id")
	if want := [][]any{{"a"}, {"b"}, {"after"}}; !equalRows(r.Rows, want) {
		t.Errorf("rows = %v, want %v", r.Rows, want)
	}
}
