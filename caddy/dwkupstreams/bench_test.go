package dwkupstreams

import (
	"testing"

	"github.com/caddyserver/caddy/v2"

	"github.com/dwk/fleet/appliance/fleet/membership"
)

// BenchmarkGetUpstreams is the source's cost per proxy attempt with three
// ready members: served from memory, one small allocation per upstream.
func BenchmarkGetUpstreams(b *testing.B) {
	ms := &fakeMembers{}
	ms.set(nil, member("a", membership.StateReady), member("b", membership.StateReady), member("c", membership.StateReady))
	u := &Upstreams{URL: "http://x", Fleet: "f", Refresh: caddy.Duration(1 << 40)}
	u.log = discard()
	u.fillDefaults()
	if err := u.start(b.Context(), ms, fakeLeases{}); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { u.Cleanup() })
	r := prepared()
	b.ReportAllocs()
	for b.Loop() {
		if ups, err := u.GetUpstreams(r); err != nil || len(ups) != 3 {
			b.Fatal(len(ups), err)
		}
	}
}
