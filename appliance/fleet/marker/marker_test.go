package marker

import (
	"errors"
	"testing"
)

func TestCheck(t *testing.T) {
	m := New("prod", 1, "test")
	tests := []struct {
		name   string
		m      Marker
		fleet  string
		schema int
		want   error
	}{
		{"ok", m, "prod", 1, nil},
		{"older schema ok", m, "prod", 2, nil},
		{"other fleet", m, "staging", 1, ErrOtherFleet},
		{"newer schema", m, "prod", 0, ErrSchemaNewer},
		{"local mode", Marker{Fleet: "prod", Mode: "local", ID: "x"}, "prod", 1, ErrWrongMode},
	}
	for _, tt := range tests {
		if err := tt.m.Check(tt.fleet, tt.schema); !errors.Is(err, tt.want) {
			t.Errorf("%s: err = %v, want %v", tt.name, err, tt.want)
		}
	}
}

func TestRoundTripAndSame(t *testing.T) {
	m := New("prod", 1, "test")
	back, err := Decode(m.Encode())
	if err != nil || back != m {
		t.Fatalf("Decode(Encode) = %+v, %v; want %+v", back, err, m)
	}
	if err := Same(m, back); err != nil {
		t.Errorf("Same of one marker: %v", err)
	}
	if err := Same(m, New("prod", 1, "test")); !errors.Is(err, ErrMismatch) {
		t.Errorf("Same of two provisionings: %v, want ErrMismatch", err)
	}
	if _, err := Decode([]byte(`{"fleet":""}`)); !errors.Is(err, ErrCorrupt) {
		t.Errorf("Decode of empty marker: %v", err)
	}
}
