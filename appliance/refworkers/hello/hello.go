// Package hello is the smallest reference worker: every request gets
// "hello". It is the Go side of the benchmarks that measure a runtime's
// cost per request (the JavaScript runtime's, say), and a template for a
// new worker.
//
// Routes: any path under the routes dwk.json gives it.
package hello

import (
	"io"
	"net/http"

	"github.com/dwk/fleet/appliance/worker"
)

func init() {
	worker.RegisterWorker("hello", Worker{})
}

// Worker answers every request with "hello".
type Worker struct{}

// Fetch implements worker.Fetcher.
func (Worker) Fetch(w http.ResponseWriter, r *http.Request, env *worker.Env) {
	w.Header().Set("Content-Type", "text/plain;charset=UTF-8")
	io.WriteString(w, "hello\n")
}
