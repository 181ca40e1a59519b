package worker_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/dwk/fleet/appliance/worker"
)

// clientOutage stands for a store client's error type: it says it is an
// outage by method, without importing the Worker API.
type clientOutage struct{ on bool }

func (e clientOutage) Error() string     { return "client: server unreachable" }
func (e clientOutage) Unavailable() bool { return e.on }

func TestWriteErrorTellsOutagesFromFailures(t *testing.T) {
	sentinel := worker.Outage("store: draining")
	for _, tc := range []struct {
		name  string
		err   error
		code  int
		retry string
	}{
		{"sentinel", worker.ErrUnavailable, http.StatusServiceUnavailable, worker.RetryAfter},
		{"binding outage, wrapped", fmt.Errorf("d1 statement 0: %w", sentinel), http.StatusServiceUnavailable, worker.RetryAfter},
		{"client outage, wrapped twice", fmt.Errorf("a: %w", fmt.Errorf("b: %w", clientOutage{on: true})), http.StatusServiceUnavailable, worker.RetryAfter},
		{"client error that is no outage", clientOutage{on: false}, http.StatusInternalServerError, ""},
		{"plain failure", errors.New("disk full"), http.StatusInternalServerError, ""},
		{"cancelled", context.Canceled, http.StatusInternalServerError, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rec := httptest.NewRecorder()
			worker.WriteError(rec, tc.err)
			if rec.Code != tc.code || rec.Header().Get("Retry-After") != tc.retry {
				t.Errorf("WriteError(%v) = %d, Retry-After %q; want %d, %q", tc.err, rec.Code, rec.Header().Get("Retry-After"), tc.code, tc.retry)
			}
		})
	}
	if !errors.Is(sentinel, sentinel) || errors.Is(worker.Outage("other"), sentinel) {
		t.Error("outage sentinels must compare by identity of their text")
	}
}
