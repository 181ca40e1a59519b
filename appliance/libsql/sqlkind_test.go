package libsql

import "testing"

func TestClassify(t *testing.T) {
	tests := []struct {
		sql  string
		want stmtKind
	}{
		{"SELECT 1", stmtKind{}},
		{"  -- c\n /* x */ insert into t values (1)", stmtKind{insert: true, iud: true}},
		{"REPLACE INTO t VALUES (1)", stmtKind{insert: true, iud: true}},
		{"update t set a = 1", stmtKind{iud: true}},
		{"DELETE FROM t", stmtKind{iud: true}},
		{"WITH x(a) AS (SELECT 1), \"insert\" AS (SELECT 2) INSERT INTO t SELECT * FROM x", stmtKind{insert: true, iud: true}},
		{"WITH RECURSIVE r(i) AS (SELECT 1 UNION ALL SELECT i+1 FROM r WHERE i < 3) SELECT * FROM r", stmtKind{}},
		{"WITH d AS (DELETE FROM t) SELECT 1", stmtKind{}},
		{"PRAGMA foreign_keys = ON", stmtKind{pragma: true, foreignKeys: true}},
		{"pragma main.journal_mode=DELETE", stmtKind{pragma: true, forbidden: "changing PRAGMA journal_mode is not allowed: the server keeps every database in WAL mode"}},
		{"PRAGMA journal_mode", stmtKind{pragma: true}},
		{"ATTACH 'x.db' AS x", stmtKind{attach: true, forbidden: "ATTACH is not supported: a statement may only use its own namespace"}},
		{"vacuum into '/tmp/x'", stmtKind{forbidden: "VACUUM INTO is not supported: a statement may not write files outside its namespace"}},
		{"VACUUM", stmtKind{}},
		{`VACUUM "main" INTO 'f'`, stmtKind{forbidden: "VACUUM INTO is not supported: a statement may not write files outside its namespace"}},
		{"", stmtKind{}},
		{"/* unterminated", stmtKind{}},
		{"'unterminated", stmtKind{}},
	}
	for _, tt := range tests {
		if got := classify(tt.sql); got != tt.want {
			t.Errorf("classify(%q) = %+v, want %+v", tt.sql, got, tt.want)
		}
	}
}

func TestClassifyForeignKeys(t *testing.T) {
	for _, sql := range []string{"PRAGMA foreign_keys = ON", "pragma FOREIGN_KEYS=off", "PRAGMA main.foreign_keys"} {
		if k := classify(sql); !k.foreignKeys || !k.pragma {
			t.Errorf("classify(%q) = %+v, want foreignKeys", sql, k)
		}
	}
	if k := classify("PRAGMA table_info(t)"); k.foreignKeys {
		t.Errorf("table_info classified as foreign_keys")
	}
}
