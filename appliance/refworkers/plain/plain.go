// Package plain is the smallest reference worker, "plain": every request
// gets "hello". It is the Go side of the benchmarks that measure a
// runtime's cost per request (the JavaScript runtime's, say). (A custom
// build's own "hello", as in examples/custom-worker, is another worker.)
//
// Routes: any path under the routes dwk.json gives it.
package plain

import (
	"io"
	"net/http"

	"github.com/dwk/fleet/appliance/worker"
)

func init() {
	worker.RegisterWorker("plain", Worker{})
}

// Worker answers every request with "hello".
type Worker struct{}

// Fetch implements worker.Fetcher.
func (Worker) Fetch(w http.ResponseWriter, r *http.Request, env *worker.Env) {
	w.Header().Set("Content-Type", "text/plain;charset=UTF-8")
	io.WriteString(w, "hello\n")
}
