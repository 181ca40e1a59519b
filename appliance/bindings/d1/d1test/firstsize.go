package d1test

import (
	"errors"
	"strings"
	"testing"

	"github.com/dwk/fleet/appliance/worker"
)

// testFirstColumn checks first(column): the column's value in the first
// row, nil for no rows, ErrD1ColumnNotFound for a column not returned.
func testFirstColumn(t *testing.T, f *fixture) {
	tbl := f.table(t, "firstcol", "id INTEGER PRIMARY KEY, v TEXT, b BLOB")
	f.exec(t, "INSERT INTO "+tbl+" VALUES (1, 'one', x'01'), (2, 'two', NULL)")
	ctx := t.Context()
	tests := []struct {
		sql, column string
		args        []any
		want        any
	}{
		{"SELECT v FROM " + tbl + " ORDER BY id", "v", nil, "one"},
		{"SELECT id, v FROM " + tbl + " WHERE id = ?", "id", []any{2}, int64(2)},
		{"SELECT b FROM " + tbl + " WHERE id = 1", "b", nil, []byte{1}},
		{"SELECT b FROM " + tbl + " WHERE id = 2", "b", nil, nil},
		{"SELECT count(*) AS n FROM " + tbl, "n", nil, int64(2)},
		{"SELECT v FROM " + tbl + " WHERE id < 0", "v", nil, nil},
	}
	for _, tt := range tests {
		got, err := f.db.Prepare(tt.sql).Bind(tt.args...).FirstColumn(ctx, tt.column)
		if err != nil || !equalValue(got, tt.want) {
			t.Errorf("FirstColumn(%q, %q) = %#v, %v; want %#v", tt.sql, tt.column, got, err, tt.want)
		}
	}
	for _, sql := range []string{"SELECT v FROM " + tbl, "SELECT v FROM " + tbl + " WHERE id < 0"} {
		_, err := f.db.Prepare(sql).FirstColumn(ctx, "nope")
		if !errors.Is(err, worker.ErrD1ColumnNotFound) || !strings.Contains(err.Error(), `"nope"`) {
			t.Errorf("FirstColumn(%q, nope) = %v, want ErrD1ColumnNotFound naming the column", sql, err)
		}
		wantD1Error(t, err, 0)
	}
}

// testSizeAfter checks meta.size_after: positive, growing when a batch
// writes a lot, and the same on every result of one batch.
func testSizeAfter(t *testing.T, f *fixture) {
	tbl := f.table(t, "sizeafter", "id INTEGER PRIMARY KEY, b BLOB")
	ctx := t.Context()
	before := f.all(t, "SELECT count(*) FROM "+tbl).Meta.SizeAfter
	if before <= 0 {
		t.Fatalf("SizeAfter of a read = %d, want > 0", before)
	}
	ins := f.db.Prepare("INSERT INTO " + tbl + " (b) VALUES (zeroblob(?))")
	rs, err := f.db.Batch(ctx, ins.Bind(512<<10), ins.Bind(512<<10), f.db.Prepare("SELECT count(*) FROM "+tbl))
	if err != nil {
		t.Fatal(err)
	}
	after := rs[0].Meta.SizeAfter
	for i, r := range rs {
		if r.Meta.SizeAfter != after {
			t.Errorf("batch result %d: SizeAfter = %d, result 0 says %d", i, r.Meta.SizeAfter, after)
		}
	}
	// Free pages of dropped tables may be reused, so the growth can be
	// less than what was written; the database holds it all, though.
	if after < 1<<20 || after <= before {
		t.Errorf("SizeAfter = %d after writing 1 MiB, was %d; want more, and at least 1 MiB", after, before)
	}
	m, err := f.db.Prepare("DELETE FROM " + tbl).Run(ctx)
	if err != nil || m.SizeAfter <= 0 {
		t.Errorf("Run(DELETE): SizeAfter = %d, %v; want > 0", m.SizeAfter, err)
	}
}
