package dwkupstreams

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/caddyserver/caddy/v2"
	"github.com/caddyserver/caddy/v2/caddyconfig/caddyfile"
)

func TestUnmarshalCaddyfile(t *testing.T) {
	d := caddyfile.NewTestDispenser(`dwk {
		url             http://127.0.0.1:8080
		auth_token      {env.DWK_LIBSQL_TOKEN}
		fleet           prod
		namespace       coord-prod
		address         public
		refresh         250ms
		timeout         1s
		lease_cache_ttl 2s
		lease_timeout   100ms
	}`)
	var u Upstreams
	if err := u.UnmarshalCaddyfile(d); err != nil {
		t.Fatal(err)
	}
	want := &Upstreams{
		URL: "http://127.0.0.1:8080", AuthToken: "{env.DWK_LIBSQL_TOKEN}", Fleet: "prod", Namespace: "coord-prod",
		Address: "public", Refresh: caddy.Duration(250 * time.Millisecond), Timeout: caddy.Duration(time.Second),
		LeaseCacheTTL: caddy.Duration(2 * time.Second), LeaseTimeout: caddy.Duration(100 * time.Millisecond),
	}
	got, _ := json.Marshal(&u)
	exp, _ := json.Marshal(want)
	if string(got) != string(exp) {
		t.Errorf("got  %s\nwant %s", got, exp)
	}
	for _, bad := range []string{
		"dwk extra",
		"dwk {\n url\n}",
		"dwk {\n url a b\n}",
		"dwk {\n refresh soon\n}",
		"dwk {\n bogus x\n}",
	} {
		var u Upstreams
		if err := u.UnmarshalCaddyfile(caddyfile.NewTestDispenser(bad)); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}
