package load

import (
	"context"
	"errors"
	"testing"
	"time"
)

func TestPercentile(t *testing.T) {
	var d []time.Duration
	for i := 1; i <= 100; i++ {
		d = append(d, time.Duration(i))
	}
	tests := []struct {
		q    float64
		want time.Duration
	}{{0.5, 50}, {0.99, 99}, {1, 100}, {0, 1}}
	for _, tt := range tests {
		if got := Percentile(d, tt.q); got != tt.want {
			t.Errorf("Percentile(%v) = %v, want %v", tt.q, got, tt.want)
		}
	}
}

func TestRunCountsErrors(t *testing.T) {
	n := 0
	r := Run(context.Background(), "x", 1, 50*time.Millisecond, func(context.Context, int) error {
		n++
		if n%2 == 0 {
			return errors.New("even")
		}
		return nil
	})
	if r.Errors == 0 || r.Requests == 0 || r.FirstError != "even" {
		t.Errorf("result %+v: want both successes and errors", r)
	}
}
