package d1test

import (
	"errors"
	"testing"

	"github.com/dwk/fleet/appliance/worker"
)

// testBatchResults checks that a batch returns one result per statement, in
// order, and that later statements see the earlier ones' writes.
func testBatchResults(t *testing.T, f *fixture) {
	ctx := t.Context()
	tbl := f.table(t, "batch", "id INTEGER PRIMARY KEY, v TEXT NOT NULL")
	insert := f.db.Prepare("INSERT INTO " + tbl + " (id, v) VALUES (?, ?)")
	rs, err := f.db.Batch(ctx,
		insert.Bind(1, "a"),
		insert.Bind(2, "b"),
		f.db.Prepare("UPDATE "+tbl+" SET v = v || '!' WHERE id = ?").Bind(2),
		f.db.Prepare("SELECT id, v FROM "+tbl+" ORDER BY id"),
	)
	if err != nil {
		t.Fatalf("Batch: %v", err)
	}
	if len(rs) != 4 {
		t.Fatalf("Batch returned %d results, want 4", len(rs))
	}
	for i, want := range []int64{1, 1, 1, 0} {
		if rs[i].Meta.Changes != want {
			t.Errorf("result %d: Changes = %d, want %d", i, rs[i].Meta.Changes, want)
		}
	}
	if rs[1].Meta.LastRowID != 2 {
		t.Errorf("result 1: LastRowID = %d, want 2", rs[1].Meta.LastRowID)
	}
	if want := [][]any{{int64(1), "a"}, {int64(2), "b!"}}; !equalRows(rs[3].Rows, want) {
		t.Errorf("select in batch = %v, want %v", rs[3].Rows, want)
	}

	empty, err := f.db.Batch(ctx)
	if err != nil || len(empty) != 0 {
		t.Errorf("empty Batch = %v, %v; want no results and no error", empty, err)
	}

	reads, err := f.db.Batch(ctx,
		f.db.Prepare("SELECT count(*) FROM "+tbl),
		f.db.Prepare("SELECT v FROM "+tbl+" WHERE id = ?").Bind(1),
	)
	if err != nil {
		t.Fatalf("read-only Batch: %v", err)
	}
	if len(reads) != 2 || !equalRows(reads[0].Rows, [][]any{{int64(2)}}) || !equalRows(reads[1].Rows, [][]any{{"a"}}) {
		t.Errorf("read-only Batch = %+v, want count 2 and v 'a'", reads)
	}
}

// testBatchAtomicity checks that a failing statement anywhere in a batch
// undoes the whole batch, and that the database works afterwards.
func testBatchAtomicity(t *testing.T, f *fixture) {
	ctx := t.Context()
	tbl := f.table(t, "atom", "id INTEGER PRIMARY KEY, v TEXT NOT NULL CHECK (v <> 'bad')")
	f.exec(t, "INSERT INTO "+tbl+" (id, v) VALUES (100, 'kept')")
	insert := f.db.Prepare("INSERT INTO " + tbl + " (id, v) VALUES (?, ?)")
	tests := []struct {
		name    string
		stmts   []worker.D1Statement
		index   int
		bindErr bool
	}{
		{"unique violation in the middle",
			[]worker.D1Statement{insert.Bind(1, "a"), insert.Bind(1, "dup"), insert.Bind(2, "b")}, 1, false},
		{"not null violation last",
			[]worker.D1Statement{insert.Bind(1, "a"), insert.Bind(2, "b"), insert.Bind(3, nil)}, 2, false},
		{"check violation",
			[]worker.D1Statement{insert.Bind(1, "a"), insert.Bind(2, "bad")}, 1, false},
		{"update before failure",
			[]worker.D1Statement{f.db.Prepare("UPDATE " + tbl + " SET v = 'changed'"), insert.Bind(100, "dup")}, 1, false},
		{"delete before failure",
			[]worker.D1Statement{f.db.Prepare("DELETE FROM " + tbl), insert.Bind(1, nil)}, 1, false},
		{"syntax error",
			[]worker.D1Statement{insert.Bind(1, "a"), f.db.Prepare("INSERT INTO " + tbl + " VALUES (")}, 1, false},
		{"unknown table",
			[]worker.D1Statement{insert.Bind(1, "a"), insert.Bind(2, "b"), f.db.Prepare("INSERT INTO no_such_table_d1test VALUES (1)")}, 2, false},
		{"wrong argument count",
			[]worker.D1Statement{insert.Bind(1, "a"), insert.Bind(2)}, 1, false},
		{"bad bind type",
			[]worker.D1Statement{insert.Bind(1, "a"), insert.Bind(2, struct{}{})}, 1, true},
		{"schema change rolled back",
			[]worker.D1Statement{f.db.Prepare("ALTER TABLE " + tbl + " ADD COLUMN extra TEXT"), insert.Bind(100, "dup")}, 1, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rs, err := f.db.Batch(ctx, tt.stmts...)
			if err == nil {
				t.Fatalf("Batch succeeded with %d results, want an error", len(rs))
			}
			wantD1Error(t, err, tt.index)
			if got := errors.Is(err, worker.ErrD1BindType); got != tt.bindErr {
				t.Errorf("errors.Is(err, ErrD1BindType) = %v, want %v (%v)", got, tt.bindErr, err)
			}
			r := f.all(t, "SELECT * FROM "+tbl)
			if want := [][]any{{int64(100), "kept"}}; !equalRows(r.Rows, want) || len(r.Columns) != 2 {
				t.Errorf("after failed batch: columns %q rows %v, want only (100, kept)", r.Columns, r.Rows)
			}
		})
	}
	if _, err := f.db.Batch(ctx, insert.Bind(1, "a"), insert.Bind(2, "b")); err != nil {
		t.Fatalf("Batch after failures: %v", err)
	}
	if got := f.count(t, tbl); got != 3 {
		t.Errorf("rows = %d, want 3", got)
	}
}
