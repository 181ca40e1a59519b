package config

import (
	"strings"
	"testing"
)

func TestServiceBindings(t *testing.T) {
	ok := `{"workers": [{"name": "a", "bindings": {"services": {"B": "b"}}}, {"name": "b"}]}`
	if err := decodeValidate(t, ok); err != nil {
		t.Fatalf("valid service binding: %v", err)
	}
	bad := `{"workers": [{"name": "a", "bindings": {"vars": {"X": "1"}, "services": {"NOPE": "missing", "EMPTY": "", "X": "a"}}}]}`
	got := strings.Join(problemPaths(t, decodeValidate(t, bad)), ",")
	for _, want := range []string{"workers[0].bindings.services.NOPE", "workers[0].bindings.services.EMPTY", "workers[0].bindings.services.X"} {
		if !strings.Contains(got, want) {
			t.Errorf("no problem at %s; got %s", want, got)
		}
	}
}
