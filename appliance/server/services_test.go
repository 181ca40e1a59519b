package server

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dwk/fleet/appliance/bindings/queue"
	"github.com/dwk/fleet/appliance/config"
	"github.com/dwk/fleet/appliance/process/metrics"
	"github.com/dwk/fleet/appliance/worker"
)

// noStores is a stores with nothing in it, for workers that bind none.
type noStores struct{}

var _ stores = noStores{}

func (noStores) D1(string) (worker.D1Backend, error)   { return nil, fmt.Errorf("no d1") }
func (noStores) R2(string) (worker.R2Bucket, error)    { return nil, fmt.Errorf("no r2") }
func (noStores) KV(string) (worker.KVNamespace, error) { return nil, fmt.Errorf("no kv") }
func (noStores) Broker() queue.Broker                  { return nil }
func (noStores) Objects() ObjectNamespaces             { return nil }

type svcCaller struct{}

func (svcCaller) Fetch(w http.ResponseWriter, r *http.Request, env *worker.Env) {
	svc := env.Service("CALLEE")
	if strings.HasSuffix(r.URL.Path, "/rpc") {
		sum, err := worker.Call[[]int, int](r.Context(), svc, r.URL.Query().Get("method"), []int{2, 3, 4})
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadGateway)
			return
		}
		fmt.Fprintf(w, "sum %d", sum)
		return
	}
	if strings.HasSuffix(r.URL.Path, "/pass") {
		svc.ServeHTTP(w, r)
		return
	}
	req, _ := http.NewRequestWithContext(r.Context(), http.MethodGet, "http://callee/anything/"+r.URL.Query().Get("n"), nil)
	resp, err := svc.Fetch(r.Context(), req)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadGateway)
		return
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	w.WriteHeader(resp.StatusCode)
	fmt.Fprintf(w, "caller %s got %s", env.Worker(), b)
}

// svcCallee answers with its Env's worker and the path, and runs a
// WaitUntil task that reports on done.
type svcCallee struct{ done chan string }

func (c svcCallee) Fetch(w http.ResponseWriter, r *http.Request, env *worker.Env) {
	path := r.URL.Path
	if err := worker.WaitUntil(r.Context(), func(context.Context) { c.done <- path }); err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.WriteHeader(http.StatusAccepted)
	fmt.Fprintf(w, "%s at %s", env.Worker(), path)
}

// Methods makes the callee a worker.RPCWorker: Sum adds its argument.
func (c svcCallee) Methods(env *worker.Env) worker.Methods {
	return worker.Methods{"Sum": worker.Typed(func(_ context.Context, xs []int) (int, error) {
		n := 0
		for _, x := range xs {
			n += x
		}
		return n, nil
	})}
}

type svcCronOnly struct{}

func (svcCronOnly) Scheduled(context.Context, worker.ScheduledEvent, *worker.Env) error { return nil }

var (
	registerSvcOnce sync.Once
	calleeDone      = make(chan string, 10)
)

func registerSvcWorkers() {
	registerSvcOnce.Do(func() {
		worker.RegisterWorker("svctest-caller", svcCaller{})
		worker.RegisterWorker("svctest-callee", svcCallee{done: calleeDone})
		worker.RegisterWorker("svctest-cronly", svcCronOnly{})
	})
}

func svcConfig(target string) *config.Config {
	return &config.Config{Workers: []config.Worker{
		{Name: "svctest-caller", Routes: []string{"/caller/"}, Bindings: config.Bindings{Services: map[string]string{"CALLEE": target}}},
		{Name: "svctest-callee", Routes: []string{"/callee/"}},
		{Name: "svctest-cronly"},
	}}
}

func TestServiceBinding(t *testing.T) {
	registerSvcWorkers()
	a, err := assemble(svcConfig("svctest-callee"), noStores{}, newLiveEnvs(), metrics.New("t"), nil, nil, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ path, want, calleePath string }{
		{"/caller/x?n=7", "caller svctest-caller got svctest-callee at /anything/7", "/anything/7"},
		{"/caller/pass", "svctest-callee at /caller/pass", "/caller/pass"},
	} {
		rec := httptest.NewRecorder()
		a.handler.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, tc.path, nil))
		if rec.Code != http.StatusAccepted || rec.Body.String() != tc.want {
			t.Errorf("GET %s = %d %q, want 202 %q", tc.path, rec.Code, rec.Body.String(), tc.want)
		}
		// The callee's WaitUntil work is tracked by the replica.
		select {
		case got := <-calleeDone:
			if got != tc.calleePath {
				t.Errorf("callee task saw %q, want %q", got, tc.calleePath)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("GET %s: the callee's WaitUntil task did not run", tc.path)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := a.background.Drain(ctx); err != nil {
		t.Fatal(err)
	}
}

// TestServiceBindingRPC: a worker calls another's method through its
// service binding; an unknown method comes back as a coded error; and a
// client's request never reaches the methods, whatever it sends.
func TestServiceBindingRPC(t *testing.T) {
	registerSvcWorkers()
	a, err := assemble(svcConfig("svctest-callee"), noStores{}, newLiveEnvs(), metrics.New("t"), nil, nil, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ method, want string }{
		{"Sum", "sum 9"},
		{"Nope", `method Nope: no_such_method: worker svctest-callee has no method "Nope"`},
	} {
		rec := httptest.NewRecorder()
		a.handler.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/caller/rpc?method="+tc.method, nil))
		if got := strings.TrimSpace(rec.Body.String()); got != tc.want {
			t.Errorf("call %s: %d %q, want %q", tc.method, rec.Code, got, tc.want)
		}
	}
	rec := httptest.NewRecorder()
	req := httptest.NewRequest(http.MethodPost, "/callee/x", strings.NewReader("[1]"))
	req.Header.Set("Dwk-Rpc-Method", "Sum")
	a.handler.ServeHTTP(rec, req)
	if rec.Code != http.StatusAccepted || !strings.Contains(rec.Body.String(), "at /callee/x") {
		t.Errorf("a client request naming a method: %d %q, want the callee's Fetch", rec.Code, rec.Body.String())
	}
	<-calleeDone
}

func TestServiceBindingNeedsFetch(t *testing.T) {
	registerSvcWorkers()
	_, err := assemble(svcConfig("svctest-cronly"), noStores{}, newLiveEnvs(), metrics.New("t"), nil, nil, slog.New(slog.DiscardHandler))
	if err == nil || !strings.Contains(err.Error(), `"svctest-cronly", which has no Fetch handler`) {
		t.Fatalf("assemble = %v, want an error naming the target without Fetch", err)
	}
}
