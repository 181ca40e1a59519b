package d1

import "testing"

func TestSkipSpace(t *testing.T) {
	tests := []struct{ in, want string }{
		{"", ""},
		{"  \t\r\n\f", ""},
		{";; ;", ""},
		{"-- only a comment", ""},
		{"/* only a comment */", ""},
		{"/* unterminated", ""},
		{"-- c\nSELECT 1", "SELECT 1"},
		{"/* a */ ; -- b\n /**/SELECT 1;", "SELECT 1;"},
		{"- 1", "- 1"},
		{"/ 2", "/ 2"},
		{"\vSELECT", "\vSELECT"}, // not SQLite whitespace
	}
	for _, tt := range tests {
		if got := SkipSpace(tt.in); got != tt.want {
			t.Errorf("SkipSpace(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestClassify(t *testing.T) {
	tests := []struct {
		sql      string
		keyword  string
		readOnly bool
		txn      bool
	}{
		{"SELECT 1", "SELECT", true, false},
		{"  -- c\n select * from t", "SELECT", true, false},
		{"VALUES (1)", "VALUES", true, false},
		{"WITH x AS (SELECT 1) SELECT * FROM x", "WITH", false, false},
		{"INSERT INTO t VALUES (1)", "INSERT", false, false},
		{"begin immediate", "BEGIN", false, true},
		{"COMMIT", "COMMIT", false, true},
		{"end transaction", "END", false, true},
		{"ROLLBACK TO s", "ROLLBACK", false, true},
		{"SAVEPOINT s", "SAVEPOINT", false, true},
		{"RELEASE s", "RELEASE", false, true},
		{"SELECTED", "SELECTED", false, false},
		{"(SELECT 1)", "", false, false},
		{"", "", false, false},
	}
	for _, tt := range tests {
		if got := FirstKeyword(tt.sql); got != tt.keyword {
			t.Errorf("FirstKeyword(%q) = %q, want %q", tt.sql, got, tt.keyword)
		}
		if got := ReadOnly(tt.sql); got != tt.readOnly {
			t.Errorf("ReadOnly(%q) = %v, want %v", tt.sql, got, tt.readOnly)
		}
		if got := TransactionControl(tt.sql); got != tt.txn {
			t.Errorf("TransactionControl(%q) = %v, want %v", tt.sql, got, tt.txn)
		}
	}
}
