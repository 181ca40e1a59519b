package jsworker_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/dwk/fleet/appliance/jsworker"
	"github.com/dwk/fleet/appliance/jsworker/bundle"
	"github.com/dwk/fleet/appliance/jsworker/jsrt/jsrttest"
	"github.com/dwk/fleet/appliance/worker"
)

// load bundles the project in testdata/dir and loads it.
func load(t *testing.T, dir string, cfg jsworker.Config) *jsworker.Worker {
	t.Helper()
	return loadB(t, dir, cfg)
}

func loadB(t testing.TB, dir string, cfg jsworker.Config) *jsworker.Worker {
	t.Helper()
	abs, _ := filepath.Abs(filepath.Join("testdata", dir))
	b, err := bundle.Build(context.Background(), bundle.Options{Dir: abs, Entry: "src/index.ts"})
	if err != nil {
		t.Fatalf("bundle %s: %v", dir, err)
	}
	s, err := jsworker.Compile(b)
	if err != nil {
		t.Fatalf("compile %s: %v", dir, err)
	}
	cfg.Script = s
	if cfg.Name == "" {
		cfg.Name = dir
	}
	if cfg.Logger == nil {
		cfg.Logger = jsrttest.Logger(t)
	}
	w, err := jsworker.Load(cfg)
	if err != nil {
		t.Fatalf("load %s: %v", dir, err)
	}
	t.Cleanup(w.Close)
	return w
}

func do(t *testing.T, w *jsworker.Worker, env *worker.Env, method, target, body string) *http.Response {
	t.Helper()
	r := httptest.NewRequest(method, target, strings.NewReader(body))
	r.Header.Set("User-Agent", "tester")
	rec := httptest.NewRecorder()
	w.Fetch(rec, r, env)
	return rec.Result()
}

func TestFetchHandler(t *testing.T) {
	w := load(t, "hello", jsworker.Config{
		Bindings: jsworker.Bindings{Vars: []string{"GREETING"}, JSONVars: map[string]string{"LIMITS": `{"max": 3}`}},
		CPULimit: time.Second, // ample for every case under -race on busy cores; /loop must hit it
	})
	env := worker.NewEnv("hello", worker.Bindings{Vars: map[string]string{"GREETING": "hi"}})
	for _, tc := range []struct {
		method, target, body string
		status               int
		want                 string
		header, headerValue  string
	}{
		{"GET", "http://example.com/a?b=1", "", 200, "hi GET /a?b=1 max=3 ua=tester", "X-Test", "1"},
		{"POST", "http://example.com/echo", "abc", 201, "ABC", "X-Len", "3"},
		{"GET", "http://example.com/regexp", "", 200, "true 7", "", ""},
		{"GET", "http://example.com/throw", "", 500, "Internal Server Error\n", "", ""},
		{"GET", "http://example.com/loop", "", 500, "Internal Server Error\n", "", ""},
		{"GET", "http://example.com/again", "", 200, "hi GET /again max=3 ua=tester", "Content-Type", "text/plain;charset=UTF-8"},
	} {
		resp := do(t, w, env, tc.method, tc.target, tc.body)
		got, _ := io.ReadAll(resp.Body)
		if resp.StatusCode != tc.status || string(got) != tc.want {
			t.Errorf("%s %s: got %d %q, want %d %q", tc.method, tc.target, resp.StatusCode, got, tc.status, tc.want)
		}
		if tc.header != "" && resp.Header.Get(tc.header) != tc.headerValue {
			t.Errorf("%s %s: header %s = %q, want %q", tc.method, tc.target, tc.header, resp.Header.Get(tc.header), tc.headerValue)
		}
	}
}

func TestServiceWorkerSyntax(t *testing.T) {
	w := load(t, "sw", jsworker.Config{Bindings: jsworker.Bindings{Vars: []string{"GREETING"}}})
	env := worker.NewEnv("sw", worker.Bindings{Vars: map[string]string{"GREETING": "hi"}})
	resp := do(t, w, env, "PUT", "http://example.com/x", "")
	got, _ := io.ReadAll(resp.Body)
	if want := "hi from a service worker: PUT"; resp.StatusCode != 200 || string(got) != want {
		t.Errorf("got %d %q, want 200 %q", resp.StatusCode, got, want)
	}
}
