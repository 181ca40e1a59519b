package jsworker_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/dwk/fleet/appliance/jsworker"
	"github.com/dwk/fleet/appliance/worker"
)

// BenchmarkFetchHello is a hello fetch handler called as the host calls
// it, without the network: the adapter's cost per request.
func BenchmarkFetchHello(b *testing.B) {
	w := loadB(b, "bench", jsworker.Config{})
	fetchHello(b, w)
}

// BenchmarkFetchHelloCores runs BenchmarkFetchHello's handler on one core
// (one isolate) and on every core (one isolate each): how the isolate
// model spreads a worker's stateless requests over cores.
func BenchmarkFetchHelloCores(b *testing.B) {
	max := runtime.GOMAXPROCS(0)
	defer runtime.GOMAXPROCS(max)
	for _, n := range []int{1, max} {
		b.Run(fmt.Sprintf("cores=%d", n), func(b *testing.B) {
			runtime.GOMAXPROCS(n)
			w := loadB(b, "bench", jsworker.Config{Name: fmt.Sprintf("bench-%d", n), Isolates: n})
			fetchHello(b, w)
		})
	}
}

func fetchHello(b *testing.B, w *jsworker.Worker) {
	env := worker.NewEnv("bench", worker.Bindings{})
	b.ReportAllocs()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			r, _ := http.NewRequest("GET", "http://example.com/", nil)
			rec := httptest.NewRecorder()
			w.Fetch(rec, r, env)
			if rec.Code != 200 {
				b.Fatalf("status %d", rec.Code)
			}
		}
	})
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "req/s")
}

// BenchmarkObjectGet is a read of one object's storage through a stub's
// fetch, called as the host calls the worker: the adapter's cost per
// object request, both isolates' sides included.
func BenchmarkObjectGet(b *testing.B) {
	w, env := objectWorker(b, "bench-objects")
	for i := range 16 {
		r := httptest.NewRequest("POST", fmt.Sprintf("http://x/put?box=b%d", i), strings.NewReader("v"))
		rec := httptest.NewRecorder()
		w.Fetch(rec, r, env)
	}
	b.ReportAllocs()
	b.ResetTimer()
	var n atomic.Int64
	b.RunParallel(func(pb *testing.PB) {
		box := fmt.Sprintf("http://x/get?box=b%d", n.Add(1)%16)
		for pb.Next() {
			rec := httptest.NewRecorder()
			r, _ := http.NewRequest("GET", box, nil)
			w.Fetch(rec, r, env)
			if rec.Code != 200 {
				b.Fatalf("status %d: %s", rec.Code, rec.Body)
			}
		}
	})
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "req/s")
}
