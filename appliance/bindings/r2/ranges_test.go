package r2

import (
	"errors"
	"testing"

	"github.com/dwk/fleet/appliance/worker"
)

func TestResolveRange(t *testing.T) {
	tests := []struct {
		name string
		r    *worker.R2Range
		size int64
		want worker.R2Range
		ok   bool
	}{
		{"nil", nil, 10, worker.R2Range{Offset: 0, Length: 10}, true},
		{"zero", &worker.R2Range{}, 10, worker.R2Range{Offset: 0, Length: 10}, true},
		{"zero on empty", &worker.R2Range{}, 0, worker.R2Range{}, true},
		{"offset", &worker.R2Range{Offset: 3}, 10, worker.R2Range{Offset: 3, Length: 7}, true},
		{"offset length", &worker.R2Range{Offset: 3, Length: 4}, 10, worker.R2Range{Offset: 3, Length: 4}, true},
		{"length past end", &worker.R2Range{Offset: 8, Length: 4}, 10, worker.R2Range{Offset: 8, Length: 2}, true},
		{"length only", &worker.R2Range{Length: 4}, 10, worker.R2Range{Offset: 0, Length: 4}, true},
		{"last byte", &worker.R2Range{Offset: 9}, 10, worker.R2Range{Offset: 9, Length: 1}, true},
		{"suffix", &worker.R2Range{Suffix: 3}, 10, worker.R2Range{Offset: 7, Length: 3}, true},
		{"suffix longer than body", &worker.R2Range{Suffix: 30}, 10, worker.R2Range{Offset: 0, Length: 10}, true},
		{"suffix on empty", &worker.R2Range{Suffix: 3}, 0, worker.R2Range{}, true},
		{"offset at end", &worker.R2Range{Offset: 10}, 10, worker.R2Range{}, false},
		{"offset past end", &worker.R2Range{Offset: 11, Length: 1}, 10, worker.R2Range{}, false},
		{"offset on empty", &worker.R2Range{Length: 1}, 0, worker.R2Range{}, false},
		{"negative", &worker.R2Range{Offset: -1}, 10, worker.R2Range{}, false},
		{"suffix and offset", &worker.R2Range{Offset: 1, Suffix: 1}, 10, worker.R2Range{}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ResolveRange(tt.r, tt.size)
			if (err == nil) != tt.ok {
				t.Fatalf("err = %v, want ok %v", err, tt.ok)
			}
			if err != nil && !errors.Is(err, worker.ErrRangeNotSatisfiable) {
				t.Errorf("err = %v, want ErrRangeNotSatisfiable", err)
			}
			if got != tt.want {
				t.Errorf("got %+v, want %+v", got, tt.want)
			}
		})
	}
}

func TestRangeHeader(t *testing.T) {
	tests := []struct {
		r    *worker.R2Range
		want string
	}{
		{nil, ""},
		{&worker.R2Range{}, ""},
		{&worker.R2Range{Offset: 5}, "bytes=5-"},
		{&worker.R2Range{Offset: 5, Length: 10}, "bytes=5-14"},
		{&worker.R2Range{Length: 1}, "bytes=0-0"},
		{&worker.R2Range{Suffix: 7}, "bytes=-7"},
	}
	for _, tt := range tests {
		if got := RangeHeader(tt.r); got != tt.want {
			t.Errorf("RangeHeader(%+v) = %q, want %q", tt.r, got, tt.want)
		}
	}
}
