package d1test

import (
	"slices"
	"testing"
)

// testStatements covers Prepare, Bind, All, First, Run and Raw.
func testStatements(t *testing.T, f *fixture) {
	ctx := t.Context()
	tbl := f.table(t, "stmt", "id INTEGER PRIMARY KEY, name TEXT NOT NULL, score REAL")
	insert := f.db.Prepare("INSERT INTO " + tbl + " (name, score) VALUES (?, ?)")
	for i, name := range []string{"ada", "bob", "cy"} {
		meta, err := insert.Bind(name, float64(i)+0.5).Run(ctx)
		if err != nil {
			t.Fatalf("Run insert %s: %v", name, err)
		}
		if got, want := meta.LastRowID, int64(i+1); got != want {
			t.Errorf("insert %s: LastRowID = %d, want %d", name, got, want)
		}
	}

	all, err := f.db.Prepare("SELECT id, name, score FROM " + tbl + " ORDER BY id").All(ctx)
	if err != nil {
		t.Fatalf("All: %v", err)
	}
	if got, want := all.Columns, []string{"id", "name", "score"}; !slices.Equal(got, want) {
		t.Errorf("All columns = %q, want %q", got, want)
	}
	wantRows := [][]any{{int64(1), "ada", 0.5}, {int64(2), "bob", 1.5}, {int64(3), "cy", 2.5}}
	if !equalRows(all.Rows, wantRows) {
		t.Errorf("All rows = %v, want %v", all.Rows, wantRows)
	}
	if got := all.Maps(); len(got) != 3 || !equalRow(got[1], map[string]any{"id": int64(2), "name": "bob", "score": 1.5}) {
		t.Errorf("All maps = %v, want bob second", got)
	}

	firstTests := []struct {
		name string
		id   any
		want map[string]any
	}{
		{"found", 2, map[string]any{"name": "bob", "score": 1.5}},
		{"found int64", int64(3), map[string]any{"name": "cy", "score": 2.5}},
		{"none", 99, nil},
	}
	for _, tt := range firstTests {
		got, err := f.db.Prepare("SELECT name, score FROM " + tbl + " WHERE id = ?").Bind(tt.id).First(ctx)
		if err != nil {
			t.Errorf("First %s: %v", tt.name, err)
			continue
		}
		if (got == nil) != (tt.want == nil) || !equalRow(got, tt.want) {
			t.Errorf("First %s = %v, want %v", tt.name, got, tt.want)
		}
	}

	raw, err := f.db.Prepare("SELECT name, id FROM " + tbl + " WHERE id >= ? ORDER BY id DESC").Bind(2).Raw(ctx)
	if err != nil {
		t.Fatalf("Raw: %v", err)
	}
	if want := [][]any{{"cy", int64(3)}, {"bob", int64(2)}}; !equalRows(raw, want) {
		t.Errorf("Raw = %v, want %v", raw, want)
	}

	numbered, err := f.db.Prepare("SELECT ?2 AS b, ?1 AS a, ?2 AS b2").Bind("one", "two").Raw(ctx)
	if err != nil {
		t.Fatalf("Raw with ?NNN: %v", err)
	}
	if want := [][]any{{"two", "one", "two"}}; !equalRows(numbered, want) {
		t.Errorf("?NNN parameters = %v, want %v", numbered, want)
	}

	meta, err := f.db.Prepare("DELETE FROM " + tbl + " WHERE score > ?").Bind(1).Run(ctx)
	if err != nil {
		t.Fatalf("Run delete: %v", err)
	}
	if meta.Changes != 2 {
		t.Errorf("delete Changes = %d, want 2", meta.Changes)
	}
	if got := f.count(t, tbl); got != 1 {
		t.Errorf("rows after delete = %d, want 1", got)
	}
}

// testBindReturnsCopy checks that D1Statement is a value: binding one
// prepared statement twice gives two independent statements.
func testBindReturnsCopy(t *testing.T, f *fixture) {
	ctx := t.Context()
	p := f.db.Prepare("SELECT ? AS v")
	one, two := p.Bind(1), p.Bind("two")
	for _, tt := range []struct {
		name string
		got  func() (map[string]any, error)
		want any
	}{
		{"first bind", func() (map[string]any, error) { return one.First(ctx) }, int64(1)},
		{"second bind", func() (map[string]any, error) { return two.First(ctx) }, "two"},
		{"first bind again", func() (map[string]any, error) { return one.First(ctx) }, int64(1)},
	} {
		row, err := tt.got()
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if !equalValue(row["v"], tt.want) {
			t.Errorf("%s: v = %v (%T), want %v", tt.name, row["v"], row["v"], tt.want)
		}
	}
	if got := p.Bind(7).Query(); got.SQL != "SELECT ? AS v" || len(got.Args) != 1 || got.Args[0] != int64(7) {
		t.Errorf("Query() = %+v, want the SQL and int64(7)", got)
	}
}

// testColumns checks column names: reported without rows, in order,
// duplicates kept.
func testColumns(t *testing.T, f *fixture) {
	tbl := f.table(t, "cols", "a INTEGER, b TEXT, c BLOB")
	tests := []struct {
		name string
		sql  string
		want []string
	}{
		{"no rows", "SELECT a, b, c FROM " + tbl + " WHERE 0", []string{"a", "b", "c"}},
		{"star on empty table", "SELECT * FROM " + tbl, []string{"a", "b", "c"}},
		{"aliases", "SELECT a AS x, b AS y FROM " + tbl, []string{"x", "y"}},
		{"duplicates", "SELECT 1 AS a, 2 AS a", []string{"a", "a"}},
		{"no result columns", "UPDATE " + tbl + " SET a = 1", []string{}},
	}
	for _, tt := range tests {
		r := f.all(t, tt.sql)
		if !slices.Equal(r.Columns, tt.want) {
			t.Errorf("%s: columns = %q, want %q", tt.name, r.Columns, tt.want)
		}
		if len(r.Rows) != 0 && tt.name != "duplicates" {
			t.Errorf("%s: %d rows, want none", tt.name, len(r.Rows))
		}
	}
	dup := f.all(t, "SELECT 1 AS a, 2 AS a")
	if want := [][]any{{int64(1), int64(2)}}; !equalRows(dup.Rows, want) {
		t.Errorf("duplicate columns rows = %v, want %v", dup.Rows, want)
	}
}
