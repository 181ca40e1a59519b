package dwkstorage

import (
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/caddyserver/caddy/v2"
	"github.com/caddyserver/caddy/v2/caddyconfig/caddyfile"
)

func TestUnmarshalCaddyfile(t *testing.T) {
	d := caddyfile.NewTestDispenser(`dwk {
		url        http://127.0.0.1:8080
		auth_token {env.DWK_LIBSQL_TOKEN}
		fleet      prod
		namespace  coord-prod
		prefix     edge
		secret     {env.DWK_FLEET_SECRET}
		timeout    3s
		lock_ttl   20s
		lock_wait  10m
	}`)
	var s Storage
	if err := s.UnmarshalCaddyfile(d); err != nil {
		t.Fatal(err)
	}
	want := &Storage{
		URL: "http://127.0.0.1:8080", AuthToken: "{env.DWK_LIBSQL_TOKEN}", Fleet: "prod", Namespace: "coord-prod",
		Prefix: "edge", Secret: "{env.DWK_FLEET_SECRET}", Timeout: caddy.Duration(3 * time.Second),
		LockTTL: caddy.Duration(20 * time.Second), LockWait: caddy.Duration(10 * time.Minute),
	}
	got, _ := json.Marshal(&s)
	exp, _ := json.Marshal(want)
	if string(got) != string(exp) {
		t.Errorf("got  %s\nwant %s", got, exp)
	}
	for _, bad := range []string{
		"dwk extra",
		"dwk {\n url\n}",
		"dwk {\n url a b\n}",
		"dwk {\n lock_ttl soon\n}",
		"dwk {\n root /var/lib/caddy\n}",
	} {
		var s Storage
		if err := s.UnmarshalCaddyfile(caddyfile.NewTestDispenser(bad)); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}

func TestValidate(t *testing.T) {
	ok := Storage{URL: "http://127.0.0.1:8080", Fleet: "prod", Secret: "s"}
	if err := ok.Validate(); err != nil {
		t.Fatal(err)
	}
	for name, mut := range map[string]func(*Storage){
		"no url":        func(s *Storage) { s.URL = "" },
		"no fleet":      func(s *Storage) { s.Fleet = "" },
		"no secret":     func(s *Storage) { s.Secret = "" },
		"short ttl":     func(s *Storage) { s.LockTTL = caddy.Duration(100 * time.Millisecond) },
		"negative wait": func(s *Storage) { s.LockWait = -1 },
	} {
		s := ok
		mut(&s)
		if err := s.Validate(); !errors.Is(err, ErrConfig) {
			t.Errorf("%s: Validate = %v, want ErrConfig", name, err)
		}
	}
}
