package dwkaffinity

import (
	"testing"

	"github.com/caddyserver/caddy/v2/modules/caddyhttp"

	"github.com/dwk/fleet/caddy/internal/fleetview"
)

// BenchmarkSelectObject is the policy's cost per request for an object
// request with a cached lease answer: rule matching, the id (two
// HMAC-SHA256), the lease lookup and placement (one SHA-256 per member).
func BenchmarkSelectObject(b *testing.B) {
	p := newPolicy(b)
	view := &fleetview.View{Members: fleetview.NewSnapshot(members), Leases: &fakeLeases{known: true}}
	pl := pool("10.0.0.1:8788", "10.0.0.2:8788", "10.0.0.3:8788")
	r, _ := request("/counter/some-object/increment", view)
	b.ReportAllocs()
	for b.Loop() {
		caddyhttp.SetVar(r.Context(), stateVar, nil) // a new request
		if p.Select(pl, r, nil) == nil {
			b.Fatal("no upstream")
		}
	}
}
