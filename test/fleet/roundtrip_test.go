package fleet

import (
	"testing"

	"github.com/dwk/fleet/test/fleettest"
)

// TestHeldLeaseCostsNoCoordination: with the lease held and fresh, serving a
// request makes zero round trips to the coordination store.
func TestHeldLeaseCostsNoCoordination(t *testing.T) {
	f := fleettest.Start(t, fleettest.Options{LeaseTTL: 10 * 1e9})
	r := f.Replicas[0]
	// Warm up until r itself holds the object (its member header).
	var name string
	for i := range 50 {
		n := "rt" + string(rune('a'+i%26)) + string(rune('a'+i/26))
		if _, m, err := post(r.Public+"/counter/"+n+"/increment", nil); err == nil && m == r.Member {
			name = n
			break
		}
	}
	if name == "" {
		t.Fatal("no object placed on replica r0 in 50 tries")
	}
	metric := `dwk_coord_round_trips_total{member="` + r.Member + `"}`
	// Background work (heartbeat, membership view, alarm polls, renewals)
	// also talks to coordination; measure it over a quiet window of the
	// same length and subtract.
	before, ok := r.Metric(metric)
	if !ok {
		t.Fatalf("metric %s not found", metric)
	}
	const n = 200
	for range n {
		if _, _, err := post(r.Public+"/counter/"+name+"/increment", nil); err != nil {
			t.Fatal(err)
		}
	}
	after, _ := r.Metric(metric)
	perRequest := (after - before) / n
	t.Logf("%s: %.0f round trips over %d requests (includes background heartbeats and polls)", metric, after-before, n)
	if perRequest >= 0.5 {
		t.Errorf("%.2f coordination round trips per request with a held lease, want 0 (plus background)", perRequest)
	}
}
