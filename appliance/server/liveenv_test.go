package server

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

	"github.com/dwk/fleet/appliance/config"
	"github.com/dwk/fleet/appliance/process/metrics"
	"github.com/dwk/fleet/appliance/worker"
)

// tokenChecker answers whether its API_TOKEN secret equals the request's
// X-Token header ("unset" without one); its method Check does the same
// for its argument.
type tokenChecker struct{}

func (tokenChecker) Fetch(w http.ResponseWriter, r *http.Request, env *worker.Env) {
	fmt.Fprint(w, checkToken(env, r.Header.Get("X-Token")))
}

func (tokenChecker) Methods(env *worker.Env) worker.Methods {
	return worker.Methods{"Check": worker.Typed(func(_ context.Context, token string) (string, error) {
		return checkToken(env, token), nil
	})}
}

func checkToken(env *worker.Env, token string) string {
	s, ok := env.Secret("API_TOKEN")
	if !ok {
		return "unset"
	}
	return fmt.Sprint(s.Reveal() == token)
}

var registerTokenOnce sync.Once

// TestStoredSecretsReachNewEvents: a stored secret overrides the
// configured one for every event that starts after setStored (requests,
// RPC, objects' Envs), and deleting it brings the configured value back.
func TestStoredSecretsReachNewEvents(t *testing.T) {
	registerTokenOnce.Do(func() { worker.RegisterWorker("secrettest-checker", tokenChecker{}) })
	registerSvcWorkers()
	cfg := &config.Config{Workers: []config.Worker{
		{Name: "secrettest-checker", Routes: []string{"/check/"}, Bindings: config.Bindings{
			Secrets: map[string]*config.Secret{"API_TOKEN": config.Literal("from-config")},
			Objects: map[string]string{"OBJ": "SecretTestClass"},
		}},
	}}
	envs := newLiveEnvs()
	a, err := assemble(cfg, objectStores{}, envs, metrics.New("t"), nil, nil, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	objectEnv := classEnv(cfg, envs)
	fetch := func(token string) string {
		rec := httptest.NewRecorder()
		req := httptest.NewRequest(http.MethodGet, "/check/", nil)
		req.Header.Set("X-Token", token)
		a.handler.ServeHTTP(rec, req)
		return rec.Body.String()
	}
	svc := serviceOf(t, envs, "secrettest-checker")
	call := func(token string) string {
		got, err := worker.Call[string, string](context.Background(), svc, "Check", token)
		if err != nil {
			t.Fatalf("call Check: %v", err)
		}
		return got
	}
	check := func(step, token, want string) {
		t.Helper()
		if got := fetch(token); got != want {
			t.Errorf("%s: fetch with %q = %q, want %q", step, token, got, want)
		}
		if got := call(token); got != want {
			t.Errorf("%s: RPC with %q = %q, want %q", step, token, got, want)
		}
		if got := checkToken(objectEnv("SecretTestClass"), token); got != want {
			t.Errorf("%s: a new object's Env with %q = %q, want %q", step, token, got, want)
		}
	}
	log := slog.New(slog.DiscardHandler)

	check("configured", "from-config", "true")
	envs.setStored(map[string]map[string]worker.Secret{"secrettest-checker": {"API_TOKEN": "stored"}, "not-here": {"X": "y"}}, log)
	check("stored", "stored", "true")
	check("stored", "from-config", "false")
	before, _ := envs.get("secrettest-checker")
	envs.setStored(map[string]map[string]worker.Secret{"secrettest-checker": {"API_TOKEN": "stored"}}, log)
	if after, _ := envs.get("secrettest-checker"); after != before {
		t.Error("an unchanged secret swapped the Env")
	}
	envs.setStored(nil, log)
	check("deleted", "from-config", "true")
}

// serviceOf returns a service binding to the methods of the worker name,
// bound to its live Env in envs, as another worker would hold it.
func serviceOf(t *testing.T, envs *liveEnvs, name string) worker.Service {
	t.Helper()
	e, ok := envs.m[name]
	if !ok {
		t.Fatalf("no worker %s", name)
	}
	h := rpcHandler(tokenChecker{}, e, name, http.NotFoundHandler())
	s := newServices()
	s.add(name, h)
	return s.binding("tester", "CHECKER", name)
}

// objectStores is noStores with an object namespace binding that does
// nothing, for workers that bind a class.
type objectStores struct{ noStores }

func (objectStores) Objects() ObjectNamespaces { return nullObjects{} }

type nullObjects struct{}

func (nullObjects) Namespace(string, string) (worker.ObjectNamespace, error) { return nil, nil }
