package dwkaffinity

import (
	"reflect"
	"testing"

	"github.com/caddyserver/caddy/v2/caddyconfig/caddyfile"
)

func TestUnmarshalCaddyfile(t *testing.T) {
	d := caddyfile.NewTestDispenser(`dwk {
		secret {env.DWK_FLEET_SECRET}
		path   /counter/{name}/... Counter
		header X-Room ChatRoom
		query  room   ChatRoom
	}`)
	var p Policy
	if err := p.UnmarshalCaddyfile(d); err != nil {
		t.Fatal(err)
	}
	want := Policy{Secret: "{env.DWK_FLEET_SECRET}", Rules: []Rule{
		{Namespace: "Counter", Path: "/counter/{name}/..."},
		{Namespace: "ChatRoom", Header: "X-Room"},
		{Namespace: "ChatRoom", Query: "room"},
	}}
	if !reflect.DeepEqual(p, want) {
		t.Errorf("got %+v\nwant %+v", p, want)
	}

	for _, bad := range []string{
		"dwk extra",
		"dwk {\n secret\n}",
		"dwk {\n secret a b\n}",
		"dwk {\n path /counter/{name}\n}",
		"dwk {\n path /counter/x Counter\n}",
		"dwk {\n bogus x\n}",
	} {
		var p Policy
		if err := p.UnmarshalCaddyfile(caddyfile.NewTestDispenser(bad)); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}
