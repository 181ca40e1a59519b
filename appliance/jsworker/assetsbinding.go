package jsworker

import (
	"context"
	"net/http"

	"github.com/dwk/fleet/appliance/jsworker/assets"
	"github.com/dwk/fleet/appliance/process/inprocess"
	"github.com/dwk/fleet/appliance/worker"
)

// Assets configures a worker's static assets (wrangler's assets).
type Assets struct {
	// Server serves the assets directory.
	Server *assets.Server
	// Binding is the env name of the assets' fetcher (assets.binding);
	// empty for none.
	Binding string
	// WorkerFirst sends every request to the worker first
	// (run_worker_first = true); the worker reaches the assets through
	// Binding.
	WorkerFirst bool
	// WorkerFirstRoutes send the paths they match to the worker first
	// (run_worker_first as a list of patterns).
	WorkerFirstRoutes assets.Routes
}

// serveAsset answers r from the assets unless the worker comes first for
// it; it reports whether it answered.
func (a *Assets) serveAsset(w http.ResponseWriter, r *http.Request) bool {
	if a == nil || a.WorkerFirst || a.WorkerFirstRoutes.Match(r.URL.Path) {
		return false
	}
	return a.Server.Serve(w, r)
}

// assetsService is the assets binding: a service whose fetch serves the
// assets, 404 for what they lack.
type assetsService struct{ s *assets.Server }

var _ worker.Service = assetsService{}

func (a assetsService) Fetch(ctx context.Context, req *http.Request) (*http.Response, error) {
	return inprocess.RoundTrip(ctx, a.s, req)
}

func (a assetsService) ServeHTTP(w http.ResponseWriter, r *http.Request) { a.s.ServeHTTP(w, r) }
