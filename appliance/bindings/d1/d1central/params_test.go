package d1central

import (
	"slices"
	"testing"
)

func TestScanParams(t *testing.T) {
	tests := []struct {
		sql     string
		count   int
		names   []string
		named   bool
		unknown bool
	}{
		{"SELECT 1", 0, nil, false, false},
		{"SELECT ?", 1, []string{""}, false, false},
		{"SELECT ?, ?", 2, []string{"", ""}, false, false},
		{"SELECT ?2 AS b, ?1 AS a, ?2", 2, []string{"?1", "?2"}, false, false},
		{"SELECT ?5", 5, []string{"", "", "", "", "?5"}, false, false},
		{"SELECT ?3, ?", 4, []string{"", "", "?3", ""}, false, false},
		{"SELECT :a, @b, $c, :a", 3, []string{":a", "@b", "$c"}, true, false},
		{"SELECT :a, ?", 2, []string{":a", ""}, false, false},
		{"SELECT $a::b(x y)", 0, nil, false, true},
		{"SELECT $a::b(xy), ?", 2, []string{"$a::b(xy)", ""}, false, false},
		{"SELECT '?', \"?\", `?`, [?], x'3f' -- ?\n/* ? */", 0, nil, false, false},
		{"SELECT 'it''s ?', ?", 1, []string{""}, false, false},
		{"SELECT a$b, ? FROM t", 1, []string{""}, false, false},
		{"SELECT :, @ FROM t", 0, nil, false, false},
		{"SELECT #1", 0, nil, false, false},
		{"SELECT ?0", 0, nil, false, true},
		{"SELECT ?99999", 0, nil, false, true},
		{"SELECT 'unterminated ?", 0, nil, false, false},
		{"SELECT ? /* unterminated ?", 1, []string{""}, false, false},
	}
	for _, tt := range tests {
		p := scanParams(tt.sql)
		if p.count != tt.count || !slices.Equal(p.names, tt.names) || p.named() != tt.named || p.unknown != tt.unknown {
			t.Errorf("scanParams(%q) = count %d names %q named %v unknown %v; want %d %q %v %v",
				tt.sql, p.count, p.names, p.named(), p.unknown, tt.count, tt.names, tt.named, tt.unknown)
		}
	}
}
