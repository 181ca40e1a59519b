package wrangler

import (
	"strings"
	"testing"
	"time"
)

func TestLimits(t *testing.T) {
	for _, tc := range []struct {
		src     string
		want    time.Duration
		problem string
	}{
		{"", 0, ""},
		{"[limits]\ncpu_ms = 50\n", 50 * time.Millisecond, ""},
		{"[limits]\ncpu_ms = 0\n", 0, "limits.cpu_ms"},
		{"[limits]\ncpu_ms = 400000\n", 0, "limits.cpu_ms"},
		{"[limits]\nsubrequests = 10\n", 0, ""},
		{"[limits]\ncpu = 10\n", 0, `unknown key "cpu"`},
	} {
		p, err := load(t, "wrangler.toml", "name = \"w\"\nmain = \"src/index.js\"\ncompatibility_date = \"2025-01-01\"\n"+tc.src, Options{})
		if tc.problem != "" {
			if err == nil || !strings.Contains(err.Error(), tc.problem) {
				t.Errorf("%q: got %v, want an error naming %s", tc.src, err, tc.problem)
			}
			continue
		}
		if err != nil {
			t.Errorf("%q: %v", tc.src, err)
			continue
		}
		if p.CPULimit != tc.want {
			t.Errorf("%q: CPULimit = %v, want %v", tc.src, p.CPULimit, tc.want)
		}
	}
}
