package worker

import (
	"slices"
	"testing"
)

func TestWithSecrets(t *testing.T) {
	old := NewEnv("api", Bindings{Vars: map[string]string{"MODE": "prod"}, Secrets: map[string]Secret{"A": "1", "B": "2"}})
	cur := old.WithSecrets(map[string]Secret{"A": "3", "C": "4"})

	if got := cur.SecretNames(); !slices.Equal(got, []string{"A", "C"}) {
		t.Errorf("SecretNames = %q; want [A C]", got)
	}
	if v, _ := cur.Secret("A"); v.Reveal() != "3" {
		t.Errorf("A = %q; want 3", v.Reveal())
	}
	if _, ok := cur.Secret("B"); ok {
		t.Error("B is still bound")
	}
	if v, _ := cur.Var("MODE"); v != "prod" || cur.Worker() != "api" {
		t.Errorf("the other bindings were not kept: MODE=%q worker %q", v, cur.Worker())
	}
	if v, _ := old.Secret("A"); v.Reveal() != "1" || len(old.SecretNames()) != 2 {
		t.Error("WithSecrets changed the Env it was called on")
	}
}
