package d1

import "testing"

func TestSQLLiteral(t *testing.T) {
	tests := []struct {
		v    any
		want string
	}{
		{nil, "NULL"},
		{int64(-3), "-3"},
		{2.0, "2.0"},
		{1e300, "1e+300"},
		{0.1, "0.1"},
		{[]byte{}, "X''"},
		{"a'b", "'a''b'"},
		{"\\n\n", `replace('\n\012','\012',char(10))`},
		{"\\n\\012\n", `replace('\n\012(\n0)','(\n0)',char(10))`},
	}
	for _, tt := range tests {
		if got := sqlLiteral(tt.v); got != tt.want {
			t.Errorf("sqlLiteral(%#v) = %s, want %s", tt.v, got, tt.want)
		}
	}
}
