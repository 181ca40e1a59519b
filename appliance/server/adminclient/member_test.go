package adminclient

import (
	"testing"

	"github.com/dwk/fleet/appliance/fleet/membership"
)

func TestMemberURL(t *testing.T) {
	for _, c := range []struct {
		admin, internal string
		tls             bool
		want            string
	}{
		{"", "10.0.0.5:8788", false, ""},
		{"127.0.0.1:9000", "127.0.0.1:8788", false, "http://127.0.0.1:9000"},
		{"127.0.0.1:9000", "127.0.0.1:8788", true, "http://127.0.0.1:9000"},
		{":8789", "10.0.0.5:8788", false, "http://10.0.0.5:8789"},
		{"0.0.0.0:8789", "10.0.0.5:8788", true, "https://10.0.0.5:8789"},
		{"[::]:8789", "[fd00::5]:8788", false, "http://[fd00::5]:8789"},
		{"not an address", "10.0.0.5:8788", false, ""},
	} {
		if got := MemberURL(membership.Member{Admin: c.admin, Internal: c.internal}, c.tls); got != c.want {
			t.Errorf("MemberURL(admin %q, internal %q, tls %v) = %q, want %q", c.admin, c.internal, c.tls, got, c.want)
		}
	}
}
