package dwkstorage

import (
	"slices"
	"testing"
)

func TestSplit(t *testing.T) {
	for _, tc := range []struct {
		key  string
		want []string
	}{
		{"", nil},
		{"/", nil},
		{"a", []string{"a"}},
		{"a/b/c.crt", []string{"a", "b", "c.crt"}},
		{"/a//b/", []string{"a", "b"}},
		{"a/./b/../c", []string{"a", "c"}},
		{"../../a", []string{"a"}},
	} {
		if got := split(tc.key); !slices.Equal(got, tc.want) {
			t.Errorf("split(%q) = %q, want %q", tc.key, got, tc.want)
		}
	}
	ks := keyspace{prefix: "p"}
	if got := ks.parts(ks.data([]string{"a", "b"})); !slices.Equal(got, []string{"a", "b"}) {
		t.Errorf("parts(data(a, b)) = %q", got)
	}
}
