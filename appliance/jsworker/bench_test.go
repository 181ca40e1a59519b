package jsworker_test

import (
	"net/http/httptest"
	"testing"

	"github.com/dwk/fleet/appliance/jsworker"
	"github.com/dwk/fleet/appliance/worker"
)

// BenchmarkFetchHello is a hello fetch handler called as the host calls
// it, without the network: the adapter's cost per request.
func BenchmarkFetchHello(b *testing.B) {
	w := loadB(b, "bench", jsworker.Config{})
	env := worker.NewEnv("bench", worker.Bindings{})
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			r := httptest.NewRequest("GET", "http://example.com/", nil)
			rec := httptest.NewRecorder()
			w.Fetch(rec, r, env)
			if rec.Code != 200 {
				b.Fatalf("status %d", rec.Code)
			}
		}
	})
}
