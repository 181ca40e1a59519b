package dwkupstreams

import (
	"strings"
	"testing"
	"time"

	"github.com/caddyserver/caddy/v2"
	"github.com/caddyserver/caddy/v2/caddyconfig/caddyfile"
)

// decodeModule decodes JSON into a new Upstreams as Caddy's module loader
// does: strictly, through the caddy.Module interface.
func decodeModule(raw string) (*Upstreams, error) {
	var m caddy.Module = new(Upstreams)
	err := caddy.StrictUnmarshalJSON([]byte(raw), &m)
	return m.(*Upstreams), err
}

func TestJSONDecoding(t *testing.T) {
	u, err := decodeModule(`{"url": "http://x", "fleet": "f", "lease_cache_ttl": "2s", "lease_timeout": 100000000}`)
	if err != nil {
		t.Fatal(err)
	}
	if u.URL != "http://x" || u.Fleet != "f" || time.Duration(u.LeaseCacheTTL) != 2*time.Second || time.Duration(u.LeaseTimeout) != 100*time.Millisecond {
		t.Errorf("decoded %+v", u)
	}
	tests := []struct{ raw, want string }{
		{`{"url": "http://x", "lease_ttl": "2s"}`, "lease_ttl was renamed lease_cache_ttl"},
		{`{"url": "http://x", "bogus": 1}`, `unknown field "bogus"`},
		{`[]`, "cannot unmarshal"},
	}
	for _, tt := range tests {
		if _, err := decodeModule(tt.raw); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("decode %s: err = %v, want one containing %q", tt.raw, err, tt.want)
		}
	}
}

func TestCaddyfileRenamedOption(t *testing.T) {
	var u Upstreams
	err := u.UnmarshalCaddyfile(caddyfile.NewTestDispenser("dwk {\n lease_ttl 2s\n}"))
	if err == nil || !strings.Contains(err.Error(), "lease_ttl was renamed lease_cache_ttl") {
		t.Errorf("lease_ttl in a Caddyfile: err = %v, want it to name lease_cache_ttl", err)
	}
}
