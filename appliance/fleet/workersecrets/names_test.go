package workersecrets

import (
	"errors"
	"strings"
	"testing"
)

func TestValidName(t *testing.T) {
	for _, tc := range []struct {
		name string
		ok   bool
	}{
		{"API_TOKEN", true},
		{"_x1", true},
		{"a", true},
		{strings.Repeat("A", MaxNameLen), true},
		{"", false},
		{"1ABC", false},
		{"API-TOKEN", false},
		{"API TOKEN", false},
		{"ÄPI", false},
		{strings.Repeat("A", MaxNameLen+1), false},
	} {
		err := ValidName(tc.name)
		if got := err == nil; got != tc.ok {
			t.Errorf("ValidName(%q) = %v; want ok %v", tc.name, err, tc.ok)
		}
		if err != nil && !errors.Is(err, ErrInvalid) {
			t.Errorf("ValidName(%q) = %v; want it to wrap ErrInvalid", tc.name, err)
		}
	}
}

func TestValidValue(t *testing.T) {
	for _, tc := range []struct {
		n  int
		ok bool
	}{{0, false}, {1, true}, {MaxValueBytes, true}, {MaxValueBytes + 1, false}} {
		if err := validValue(make([]byte, tc.n)); (err == nil) != tc.ok {
			t.Errorf("validValue(%d bytes) = %v; want ok %v", tc.n, err, tc.ok)
		}
	}
}
