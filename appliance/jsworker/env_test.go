package jsworker_test

import (
	"encoding/json"
	"net/http/httptest"
	"slices"
	"testing"

	"github.com/dwk/fleet/appliance/jsworker"
	"github.com/dwk/fleet/appliance/worker"
)

// TestEnvFollowsSecrets checks that a worker handed a new Env (its
// secrets changed while it runs) sees the new values at once, a secret
// its configuration never named included, and no longer sees a removed
// one, in env and in the importable env.
func TestEnvFollowsSecrets(t *testing.T) {
	w := load(t, "secrets", jsworker.Config{Bindings: jsworker.Bindings{Secrets: []string{"API_TOKEN"}}})
	first := worker.NewEnv("secrets", worker.Bindings{Secrets: map[string]worker.Secret{"API_TOKEN": "one"}})
	later := first.WithSecrets(map[string]worker.Secret{"API_TOKEN": "two", "EXTRA": "x"})
	gone := first.WithSecrets(map[string]worker.Secret{})

	type answer struct {
		Token, Extra string
		Imported     []string
	}
	ask := func(env *worker.Env, token string) answer {
		t.Helper()
		r := httptest.NewRequest("GET", "http://example.com/", nil)
		r.Header.Set("X-Token", token)
		r.Header.Set("X-Extra", "x")
		rec := httptest.NewRecorder()
		w.Fetch(rec, r, env)
		var a answer
		if err := json.Unmarshal(rec.Body.Bytes(), &a); err != nil {
			t.Fatalf("answer %d %q: %v", rec.Code, rec.Body, err)
		}
		return a
	}
	for _, tc := range []struct {
		name  string
		env   *worker.Env
		token string
		want  answer
	}{
		{"first", first, "one", answer{"true", "unset", []string{"API_TOKEN"}}},
		{"changed and added", later, "two", answer{"true", "true", []string{"API_TOKEN", "EXTRA"}}},
		{"old value refused", later, "one", answer{"false", "true", []string{"API_TOKEN", "EXTRA"}}},
		{"removed", gone, "two", answer{"unset", "unset", []string{}}},
		{"first again", first, "one", answer{"true", "unset", []string{"API_TOKEN"}}},
	} {
		got := ask(tc.env, tc.token)
		if got.Token != tc.want.Token || got.Extra != tc.want.Extra || !slices.Equal(got.Imported, tc.want.Imported) {
			t.Errorf("%s: got %+v, want %+v", tc.name, got, tc.want)
		}
	}
}
