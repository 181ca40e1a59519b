package lbbench

import (
	"context"
	"testing"
	"time"

	"github.com/dwk/fleet/test/procs"
)

// TestRunSmoke runs every side briefly, so the benchmark keeps working;
// it checks that requests succeed, never how fast they are.
func TestRunSmoke(t *testing.T) {
	if testing.Short() {
		t.Skip("starts dwk libsql and the front door")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	r, err := Run(ctx, Options{DWK: procs.Binary(t), Duration: 200 * time.Millisecond, Concurrency: 4, Sockets: 20})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Latency) != 4 || len(r.Sockets) != 3 {
		t.Fatalf("report has %d latency and %d socket results", len(r.Latency), len(r.Sockets))
	}
	for _, l := range r.Latency {
		if l.Errors > 0 || l.Requests == 0 {
			t.Errorf("%s: %d requests, %d errors (%s)", l.Name, l.Requests, l.Errors, l.FirstError)
		}
	}
	for _, row := range r.Rows {
		t.Log(row)
	}
}
