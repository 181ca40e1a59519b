package d1test

import (
	"errors"
	"math"
	"testing"

	"github.com/dwk/fleet/appliance/worker"
)

// testErrors checks statements that must fail, each with a *worker.D1Error
// for statement 0, and that the database stays usable after each.
func testErrors(t *testing.T, f *fixture) {
	tbl := f.table(t, "errs", "id INTEGER PRIMARY KEY, v TEXT NOT NULL UNIQUE, n INTEGER CHECK (n >= 0)")
	f.exec(t, "INSERT INTO "+tbl+" (id, v, n) VALUES (1, 'one', 1)")
	tests := []struct {
		name string
		sql  string
		args []any
	}{
		{"syntax error", "SELEC 1", nil},
		{"incomplete", "SELECT * FROM " + tbl + " WHERE", nil},
		{"unknown table", "SELECT * FROM no_such_table_d1test", nil},
		{"unknown column", "SELECT nope FROM " + tbl, nil},
		{"unknown function", "SELECT no_such_function_d1test(1)", nil},
		{"primary key violation", "INSERT INTO " + tbl + " (id, v) VALUES (1, 'x')", nil},
		{"unique violation", "INSERT INTO " + tbl + " (id, v) VALUES (2, 'one')", nil},
		{"not null violation", "INSERT INTO " + tbl + " (id, v) VALUES (3, ?)", []any{nil}},
		{"check violation", "INSERT INTO " + tbl + " (id, v, n) VALUES (4, 'four', ?)", []any{-1}},
		{"datatype mismatch", "INSERT INTO " + tbl + " (id, v) VALUES ('not an integer', 'x')", nil},
		{"too many arguments", "SELECT ?", []any{1, 2}},
		{"too few arguments", "SELECT ?, ?", []any{1}},
		{"missing argument", "SELECT * FROM " + tbl + " WHERE id = ?", nil},
		{"argument for no parameter", "SELECT 1", []any{1}},
		{"two statements", "SELECT 1; SELECT 2", nil},
		{"empty", "", nil},
		{"only a comment", "-- nothing here", nil},
		{"begin", "BEGIN", nil},
		{"commit", "COMMIT", nil},
		{"rollback", "ROLLBACK", nil},
		{"savepoint", "SAVEPOINT s", nil},
	}
	for _, tt := range tests {
		_, err := f.db.Prepare(tt.sql).Bind(tt.args...).All(t.Context())
		if err == nil {
			t.Errorf("%s: %q succeeded, want an error", tt.name, tt.sql)
			continue
		}
		var de *worker.D1Error
		if !errors.As(err, &de) || de.Index != 0 {
			t.Errorf("%s: error %v (%T), want a *worker.D1Error for statement 0", tt.name, err, err)
		}
	}
	r := f.all(t, "SELECT id, v, n FROM "+tbl)
	if want := [][]any{{int64(1), "one", int64(1)}}; !equalRows(r.Rows, want) {
		t.Errorf("after the failures: %v, want %v", r.Rows, want)
	}
}

// testBindErrors checks values Bind cannot store, through worker.D1 and
// straight through the backend.
func testBindErrors(t *testing.T, f *fixture) {
	ctx := t.Context()
	tests := []struct {
		name string
		arg  any
	}{
		{"struct", struct{}{}},
		{"map", map[string]int{"a": 1}},
		{"pointer", new(int)},
		{"slice of int", []int{1}},
		{"uint64 overflow", uint64(math.MaxUint64)},
		{"uint overflow", uint(math.MaxUint64)},
		{"channel", make(chan int)},
	}
	for _, tt := range tests {
		_, err := f.db.Prepare("SELECT ?").Bind(tt.arg).First(ctx)
		if !errors.Is(err, worker.ErrD1BindType) {
			t.Errorf("%s via Bind: error %v, want ErrD1BindType", tt.name, err)
		}
		_, err = f.backend.Batch(ctx, []worker.D1Query{
			{SQL: "SELECT 1"},
			{SQL: "SELECT ?", Args: []any{tt.arg}},
		})
		if err == nil {
			t.Errorf("%s via backend: no error", tt.name)
			continue
		}
		wantD1Error(t, err, 1)
		if !errors.Is(err, worker.ErrD1BindType) {
			t.Errorf("%s via backend: error %v, want ErrD1BindType", tt.name, err)
		}
	}
}

// testForeignKeys checks that foreign keys are enforced, as D1 does.
func testForeignKeys(t *testing.T, f *fixture) {
	parent := f.table(t, "parent", "id INTEGER PRIMARY KEY")
	child := f.table(t, "child", "id INTEGER PRIMARY KEY, parent_id INTEGER NOT NULL REFERENCES "+parent+" (id)")
	f.exec(t, "INSERT INTO "+parent+" (id) VALUES (1)")
	tests := []struct {
		name string
		sql  string
		ok   bool
	}{
		{"child of existing parent", "INSERT INTO " + child + " (id, parent_id) VALUES (1, 1)", true},
		{"child of missing parent", "INSERT INTO " + child + " (id, parent_id) VALUES (2, 99)", false},
		{"delete referenced parent", "DELETE FROM " + parent + " WHERE id = 1", false},
	}
	for _, tt := range tests {
		_, err := f.db.Prepare(tt.sql).Run(t.Context())
		if (err == nil) != tt.ok {
			t.Errorf("%s: error = %v, want success %v", tt.name, err, tt.ok)
		}
	}
}
