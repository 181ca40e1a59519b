package server

import (
	"testing"
	"time"

	"github.com/dwk/fleet/appliance/fleet/membership"
)

func TestAdminURL(t *testing.T) {
	for _, c := range []struct{ admin, internal, want string }{
		{"", "10.0.0.5:8788", ""},
		{"127.0.0.1:9000", "127.0.0.1:8788", "http://127.0.0.1:9000"},
		{":8789", "10.0.0.5:8788", "http://10.0.0.5:8789"},
		{"0.0.0.0:8789", "10.0.0.5:8788", "http://10.0.0.5:8789"},
		{"[::]:8789", "[fd00::5]:8788", "http://[fd00::5]:8789"},
		{"not an address", "10.0.0.5:8788", ""},
	} {
		if got := adminURL(membership.Member{Admin: c.admin, Internal: c.internal}); got != c.want {
			t.Errorf("adminURL(admin %q, internal %q) = %q, want %q", c.admin, c.internal, got, c.want)
		}
	}
}

func TestRTTRing(t *testing.T) {
	var r rttRing
	for i := range rttSamples + 5 {
		r.add(time.Duration(i) * time.Millisecond)
	}
	got := r.millis()
	if len(got) != rttSamples || got[0] != 5 || got[len(got)-1] != rttSamples+4 {
		t.Fatalf("after %d samples: %d kept, first %v, last %v; want the latest %d", rttSamples+5, len(got), got[0], got[len(got)-1], rttSamples)
	}
}
