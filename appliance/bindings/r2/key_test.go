package r2

import (
	"errors"
	"strings"
	"testing"

	"github.com/dwk/fleet/appliance/worker"
)

func TestValidateKey(t *testing.T) {
	tests := []struct {
		name string
		key  string
		ok   bool
	}{
		{"simple", "a", true},
		{"unicode", "日本語/🙂", true},
		{"max length", strings.Repeat("k", MaxKeyBytes), true},
		{"empty", "", false},
		{"too long", strings.Repeat("k", MaxKeyBytes+1), false},
		{"invalid utf-8", "a\xffb", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := ValidateKey(tt.key)
			if got := err == nil; got != tt.ok {
				t.Fatalf("ValidateKey ok = %v, want %v (err %v)", got, tt.ok, err)
			}
			if err != nil && !errors.Is(err, worker.ErrR2KeyInvalid) {
				t.Errorf("err = %v, want ErrR2KeyInvalid", err)
			}
		})
	}
}

func TestListLimit(t *testing.T) {
	tests := []struct {
		in, want int
		ok       bool
	}{
		{0, 1000, true}, {1, 1, true}, {1000, 1000, true}, {5000, 1000, true}, {-1, 0, false},
	}
	for _, tt := range tests {
		got, err := ListLimit(tt.in)
		if (err == nil) != tt.ok || got != tt.want {
			t.Errorf("ListLimit(%d) = %d, %v; want %d, ok %v", tt.in, got, err, tt.want, tt.ok)
		}
	}
}
