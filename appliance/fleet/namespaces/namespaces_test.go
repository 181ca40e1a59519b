package namespaces

import (
	"strings"
	"testing"
)

func TestNamesFit(t *testing.T) {
	long := strings.Repeat("a", 63)
	tests := []struct{ got, want string }{
		{D1("prod", "chat"), "dwk-prod-d1-chat"},
		{Coord("prod"), "dwk-coord-prod"},
		{Queues("prod"), "dwk-queues-prod"},
	}
	for _, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("got %q, want %q", tt.got, tt.want)
		}
	}
	a, b := D1(long, long), D1(long, long[:62]+"b")
	if len(a) != MaxLen || len(b) != MaxLen || a == b {
		t.Errorf("long names %q and %q: want two distinct %d-character names", a, b, MaxLen)
	}
}
