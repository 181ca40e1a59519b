package d1test

import (
	"strings"
	"testing"
)

// testMeta checks D1Meta statement by statement. Changes and LastRowID are
// exact; RowsRead and RowsWritten only have to be consistent with them,
// since backends may report the engine's own counts.
func testMeta(t *testing.T, f *fixture) {
	tbl := f.table(t, "meta", "id INTEGER PRIMARY KEY, v TEXT")
	const anyRowID = -1
	tests := []struct {
		name      string
		sql       string
		args      []any
		changes   int64
		lastRowID int64
		rows      int
	}{
		{"insert", "INSERT INTO " + tbl + " (id, v) VALUES (?, ?)", []any{7, "a"}, 1, 7, 0},
		{"insert rowid", "INSERT INTO " + tbl + " (v) VALUES (?)", []any{"b"}, 1, 8, 0},
		{"insert returning", "INSERT INTO " + tbl + " (id, v) VALUES (11, 'c') RETURNING id, v", nil, 1, 11, 1},
		{"insert many", "INSERT INTO " + tbl + " (id, v) VALUES (20, 'd'), (21, 'e')", nil, 2, 21, 0},
		{"select after insert", "SELECT * FROM " + tbl, nil, 0, 0, 5},
		{"select none", "SELECT * FROM " + tbl + " WHERE id < 0", nil, 0, 0, 0},
		{"update", "UPDATE " + tbl + " SET v = 'z' WHERE id > ?", []any{10}, 3, anyRowID, 0},
		{"update returning", "UPDATE " + tbl + " SET v = 'y' WHERE id = 7 RETURNING v", nil, 1, anyRowID, 1},
		{"update none", "UPDATE " + tbl + " SET v = 'z' WHERE id < 0", nil, 0, anyRowID, 0},
		{"upsert", "INSERT INTO " + tbl + " (id, v) VALUES (7, 'u') ON CONFLICT (id) DO UPDATE SET v = excluded.v", nil, 1, anyRowID, 0},
		{"insert or ignore, ignored", "INSERT OR IGNORE INTO " + tbl + " (id, v) VALUES (7, 'i')", nil, 0, anyRowID, 0},
		{"create index", "CREATE INDEX " + tbl + "_v ON " + tbl + " (v)", nil, 0, anyRowID, 0},
		{"delete one", "DELETE FROM " + tbl + " WHERE id = 7", nil, 1, anyRowID, 0},
		{"delete all", "DELETE FROM " + tbl, nil, 4, anyRowID, 0},
	}
	for _, tt := range tests {
		r, err := f.db.Prepare(tt.sql).Bind(tt.args...).All(t.Context())
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		m := r.Meta
		if m.Changes != tt.changes {
			t.Errorf("%s: Changes = %d, want %d", tt.name, m.Changes, tt.changes)
		}
		if tt.lastRowID != anyRowID && m.LastRowID != tt.lastRowID {
			t.Errorf("%s: LastRowID = %d, want %d", tt.name, m.LastRowID, tt.lastRowID)
		}
		if len(r.Rows) != tt.rows {
			t.Errorf("%s: %d rows, want %d", tt.name, len(r.Rows), tt.rows)
		}
		if m.RowsWritten < m.Changes {
			t.Errorf("%s: RowsWritten = %d, less than Changes %d", tt.name, m.RowsWritten, m.Changes)
		}
		if strings.HasPrefix(tt.sql, "SELECT") {
			if m.RowsWritten != 0 {
				t.Errorf("%s: RowsWritten = %d, want 0 for a SELECT", tt.name, m.RowsWritten)
			}
			if m.RowsRead < int64(len(r.Rows)) {
				t.Errorf("%s: RowsRead = %d, less than the %d rows returned", tt.name, m.RowsRead, len(r.Rows))
			}
		}
		if m.Duration < 0 {
			t.Errorf("%s: Duration = %v, want >= 0", tt.name, m.Duration)
		}
	}

	// A statement that does real work takes measurable time.
	r := f.all(t, "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 20000) SELECT sum(x) FROM c")
	if r.Meta.Duration <= 0 {
		t.Errorf("Duration of a 20,000-step query = %v, want > 0", r.Meta.Duration)
	}
	if !equalRows(r.Rows, [][]any{{int64(20000 * 20001 / 2)}}) {
		t.Errorf("sum = %v, want %d", r.Rows, 20000*20001/2)
	}
}
