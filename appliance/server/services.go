package server

import (
	"context"
	"fmt"
	"net/http"
	"sort"
	"sync/atomic"

	"github.com/dwk/fleet/appliance/process/inprocess"
	"github.com/dwk/fleet/appliance/worker"
)

// services holds each worker's fetch handler for service bindings. It is
// filled while the workers are assembled and read-only once they serve, so
// a binding may name a worker assembled after the one that binds it.
type services struct {
	handlers map[string]http.Handler
	// wanted records, per target worker, who binds it, for check.
	wanted map[string][]string
}

func newServices() *services {
	return &services{handlers: map[string]http.Handler{}, wanted: map[string][]string{}}
}

// add makes h the handler that service bindings to workerName call.
func (s *services) add(workerName string, h http.Handler) { s.handlers[workerName] = h }

// binding returns the service binding name (of worker from) to target.
func (s *services) binding(from, name, target string) worker.Service {
	s.wanted[target] = append(s.wanted[target], fmt.Sprintf("worker %q binding %s", from, name))
	return serviceBinding{s: s, target: target}
}

// check reports a binding whose target has no Fetch handler.
func (s *services) check() error {
	targets := make([]string, 0, len(s.wanted))
	for t := range s.wanted {
		targets = append(targets, t)
	}
	sort.Strings(targets)
	for _, t := range targets {
		if _, ok := s.handlers[t]; !ok {
			return fmt.Errorf("%s: service binding to worker %q, which has no Fetch handler in this binary", s.wanted[t][0], t)
		}
	}
	return nil
}

// serviceBinding is worker.Service over a worker's handler in process.
type serviceBinding struct {
	s      *services
	target string
}

var _ worker.Service = serviceBinding{}

// Fetch and ServeHTTP called from an object's event open its gates
// (worker.Await) until the target has answered (Fetch: sent its headers).
func (b serviceBinding) Fetch(ctx context.Context, req *http.Request) (*http.Response, error) {
	var resp *http.Response
	err := worker.Await(ctx, func() error {
		var err error
		resp, err = inprocess.RoundTrip(ctx, b.s.handlers[b.target], req)
		return err
	})
	if err != nil {
		if resp != nil {
			resp.Body.Close()
		}
		return nil, fmt.Errorf("service %s: %w", b.target, err)
	}
	return resp, nil
}

func (b serviceBinding) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	called := false
	err := worker.Await(r.Context(), func() error {
		called = true
		b.s.handlers[b.target].ServeHTTP(w, r)
		return nil
	})
	if err != nil && !called {
		worker.WriteError(w, fmt.Errorf("service %s: %w", b.target, err))
	}
}

// rpcHandler serves the worker's methods (worker.RPCWorker) to calls made
// with worker.Call through a service binding, and everything else with h.
// Only calls in process carry the method (in the request's context). The
// methods are bound to the worker's current Env, and bound again when it
// changes.
func rpcHandler(w any, env *liveEnv, name string, h http.Handler) http.Handler {
	rw, _ := w.(worker.RPCWorker)
	var bound atomic.Pointer[boundMethods]
	methods := func() worker.Methods {
		e := env.get()
		if b := bound.Load(); b != nil && b.env == e {
			return b.ms
		}
		var ms worker.Methods
		if rw != nil {
			ms = rw.Methods(e)
		}
		bound.Store(&boundMethods{env: e, ms: ms})
		return ms
	}
	methods()
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if method, ok := worker.RPCMethod(r.Context()); ok {
			worker.ServeMethods(w, r, methods(), "worker "+name, method)
			return
		}
		h.ServeHTTP(w, r)
	})
}

// boundMethods are a worker's methods bound to one Env.
type boundMethods struct {
	env *worker.Env
	ms  worker.Methods
}
