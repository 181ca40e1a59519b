package worker

import (
	"context"
	"fmt"
	"net/http"
)

// Service is a service binding: another worker of the same fleet, bound by
// name in dwk.json (bindings.services) and called without going through
// its routes. Every replica runs every worker of the fleet's config, so a
// call never leaves the replica: the target's Fetch runs in process, with
// its own Env, and its WaitUntil work is tracked like a request's.
type Service interface {
	// Fetch sends req to the worker and returns its response as soon as
	// the worker has sent its headers; the body streams. The caller closes
	// it. A protocol upgrade (WebSocket) cannot be made this way: use
	// ServeHTTP.
	Fetch(ctx context.Context, req *http.Request) (*http.Response, error)
	// ServeHTTP passes a live request to the worker, upgrades included:
	// its response goes straight to w.
	ServeHTTP(w http.ResponseWriter, r *http.Request)
}

// Service returns the service binding name, or one that fails with
// ErrUnbound.
func (e *Env) Service(name string) Service {
	if s, ok := e.b.Services[name]; ok {
		return s
	}
	return unboundService{e.unbound("service", name)}
}

type unboundService struct{ err error }

var _ Service = unboundService{}

func (u unboundService) Fetch(context.Context, *http.Request) (*http.Response, error) {
	return nil, u.err
}

func (u unboundService) ServeHTTP(w http.ResponseWriter, _ *http.Request) {
	http.Error(w, fmt.Sprint(u.err), http.StatusInternalServerError)
}
