package dwkaffinity

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/caddyserver/caddy/v2"
	"github.com/caddyserver/caddy/v2/modules/caddyhttp"
	"github.com/caddyserver/caddy/v2/modules/caddyhttp/reverseproxy"

	"github.com/dwk/fleet/appliance/fleet/objectid"
	"github.com/dwk/fleet/caddy/internal/fleetview"
)

const testSecret = "0123456789abcdef0123456789abcdef"

// fakeLeases answers Holder from a map keyed by object id; ids missing
// from known are "unknown".
type fakeLeases struct {
	holders map[objectid.ID]string
	known   bool
	calls   int
}

var _ fleetview.Leases = (*fakeLeases)(nil)

func (f *fakeLeases) Holder(_ context.Context, _ string, id objectid.ID) (string, bool) {
	f.calls++
	h, ok := f.holders[id]
	return h, ok || f.known
}

func newPolicy(t testing.TB) *Policy {
	t.Helper()
	p := &Policy{Secret: testSecret, Rules: []Rule{
		{Namespace: "Counter", Path: "/counter/{name}/..."},
		{Namespace: "ChatRoom", Header: "X-Room"},
	}}
	ctx, cancel := caddy.NewContext(caddy.Context{Context: context.Background()})
	t.Cleanup(cancel)
	if err := p.Provision(ctx); err != nil {
		t.Fatal(err)
	}
	if err := p.Validate(); err != nil {
		t.Fatal(err)
	}
	return p
}

// pool returns provisioned-looking upstreams for dials.
func pool(dials ...string) reverseproxy.UpstreamPool {
	out := make(reverseproxy.UpstreamPool, len(dials))
	for i, d := range dials {
		out[i] = &reverseproxy.Upstream{Host: new(reverseproxy.Host), Dial: d}
	}
	return out
}

// request returns a request prepared as Caddy's server prepares them, with
// view attached when not nil.
func request(target string, view *fleetview.View) (*http.Request, *caddy.Replacer) {
	r := httptest.NewRequest(http.MethodGet, target, nil)
	repl := caddy.NewReplacer()
	r = caddyhttp.PrepareRequest(r, repl, nil, &caddyhttp.Server{})
	if view != nil {
		fleetview.Attach(r, view)
	}
	return r, repl
}

var members = []fleetview.Member{
	{ID: "replica-a", Dial: "10.0.0.1:8788"},
	{ID: "replica-b", Dial: "10.0.0.2:8788"},
	{ID: "replica-c", Dial: "10.0.0.3:8788"},
}

func memberIDs(ms []fleetview.Member) []string {
	var out []string
	for _, m := range ms {
		out = append(out, m.ID)
	}
	return out
}

func dialOf(id string) string {
	for _, m := range members {
		if m.ID == id {
			return m.Dial
		}
	}
	return ""
}

func TestPlacementMatchesRuntime(t *testing.T) {
	p := newPolicy(t)
	view := &fleetview.View{Members: fleetview.NewSnapshot(members), Leases: &fakeLeases{known: true}}
	pl := pool("10.0.0.1:8788", "10.0.0.2:8788", "10.0.0.3:8788")
	for _, name := range []string{"a", "b", "c", "d", "e", "f", "g", "h"} {
		id := objectid.FromName([]byte(testSecret), "Counter", name)
		want := dialOf(objectid.Pick(id, memberIDs(members)))
		r, repl := request("/counter/"+name+"/increment", view)
		got := p.Select(pl, r, nil)
		if got == nil || got.Dial != want {
			t.Errorf("object %q: Select = %v, want %s (objectid.Pick over member ids)", name, got, want)
		}
		if v, _ := repl.GetString(PlaceholderObjectID); v != id.String() {
			t.Errorf("object id placeholder = %q, want %s", v, id)
		}
		if v, _ := repl.GetString(PlaceholderSelectedBy); v != ByPlacement {
			t.Errorf("selected_by = %q, want %s", v, ByPlacement)
		}
	}
}

func TestLeaseHolderWins(t *testing.T) {
	p := newPolicy(t)
	id := objectid.FromName([]byte(testSecret), "ChatRoom", "lobby")
	placed := objectid.Pick(id, memberIDs(members))
	holder := "replica-a"
	if holder == placed {
		holder = "replica-b"
	}
	leases := &fakeLeases{holders: map[objectid.ID]string{id: holder}}
	view := &fleetview.View{Members: fleetview.NewSnapshot(members), Leases: leases}
	pl := pool("10.0.0.1:8788", "10.0.0.2:8788", "10.0.0.3:8788")

	r, repl := request("/chat", view)
	r.Header.Set("X-Room", "lobby")
	if got := p.Select(pl, r, nil); got == nil || got.Dial != dialOf(holder) {
		t.Fatalf("Select = %v, want the holder %s at %s", got, holder, dialOf(holder))
	}
	if v, _ := repl.GetString(PlaceholderSelectedBy); v != ByLease {
		t.Errorf("selected_by = %q, want %s", v, ByLease)
	}
	if v, _ := repl.GetString(PlaceholderObjectNamespace); v != "ChatRoom" {
		t.Errorf("object namespace = %q, want ChatRoom", v)
	}

	// A retry of the same request skips the holder it already tried (it
	// answered "draining") and goes to the placement choice of the rest.
	rest := []string{}
	for _, m := range members {
		if m.ID != holder {
			rest = append(rest, m.ID)
		}
	}
	if got := p.Select(pl, r, nil); got == nil || got.Dial != dialOf(objectid.Pick(id, rest)) {
		t.Errorf("retry Select = %v, want %s", got, dialOf(objectid.Pick(id, rest)))
	}
}

func TestHolderNotReadyFallsBackToPlacement(t *testing.T) {
	p := newPolicy(t)
	id := objectid.FromName([]byte(testSecret), "Counter", "x")
	tests := []struct {
		name   string
		leases *fakeLeases
	}{
		{"holder draining (not among ready members)", &fakeLeases{holders: map[objectid.ID]string{id: "replica-gone"}}},
		{"no lease", &fakeLeases{known: true}},
		{"lookup failed", &fakeLeases{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			view := &fleetview.View{Members: fleetview.NewSnapshot(members), Leases: tt.leases}
			r, _ := request("/counter/x", view)
			got := p.Select(pool("10.0.0.1:8788", "10.0.0.2:8788", "10.0.0.3:8788"), r, nil)
			if want := dialOf(objectid.Pick(id, memberIDs(members))); got == nil || got.Dial != want {
				t.Errorf("Select = %v, want placement %s", got, want)
			}
		})
	}
}

func TestWithoutViewRanksDials(t *testing.T) {
	p := newPolicy(t)
	id := objectid.FromName([]byte(testSecret), "Counter", "x")
	dials := []string{"h1:80", "h2:80", "h3:80"}
	r, _ := request("/counter/x", nil)
	if got := p.Select(pool(dials...), r, nil); got == nil || got.Dial != objectid.Pick(id, dials) {
		t.Errorf("Select = %v, want %s", got, objectid.Pick(id, dials))
	}
}

func TestStatelessRequestsSpreadAndRetryElsewhere(t *testing.T) {
	p := newPolicy(t)
	pl := pool("h1:80", "h2:80", "h3:80")
	seen := map[string]bool{}
	for range 200 {
		r, repl := request("/static/app.js", nil)
		up := p.Select(pl, r, nil)
		if up == nil {
			t.Fatal("Select = nil")
		}
		seen[up.Dial] = true
		if v, _ := repl.GetString(PlaceholderSelectedBy); v != ByLeastConn {
			t.Fatalf("selected_by = %q, want %s", v, ByLeastConn)
		}
		if v, _ := repl.GetString(PlaceholderObjectID); v != "" {
			t.Fatalf("object id placeholder = %q, want empty", v)
		}
	}
	if len(seen) != 3 {
		t.Errorf("ties went to %d upstreams, want all 3", len(seen))
	}

	r, _ := request("/static/app.js", nil)
	got := map[string]bool{}
	for range 3 {
		got[p.Select(pl, r, nil).Dial] = true
	}
	if len(got) != 3 {
		t.Errorf("three attempts of one request went to %v, want three different upstreams", got)
	}
	// Every upstream tried: start over rather than fail.
	if up := p.Select(pl, r, nil); up == nil {
		t.Error("fourth attempt: Select = nil, want an upstream")
	}
}

func TestEmptyPool(t *testing.T) {
	p := newPolicy(t)
	for _, target := range []string{"/counter/x", "/other"} {
		r, _ := request(target, &fleetview.View{Members: fleetview.NewSnapshot(nil)})
		if up := p.Select(nil, r, nil); up != nil {
			t.Errorf("%s: Select(empty) = %v, want nil", target, up)
		}
	}
}

func TestJSONConfig(t *testing.T) {
	t.Setenv("DWK_TEST_SECRET", testSecret)
	ctx, cancel := caddy.NewContext(caddy.Context{Context: context.Background()})
	defer cancel()
	raw := `{"secret": "{env.DWK_TEST_SECRET}", "rules": [{"namespace": "Counter", "path": "/counter/{name}/..."}]}`
	mod, err := ctx.LoadModuleByID("http.reverse_proxy.selection_policies.dwk", json.RawMessage(raw))
	if err != nil {
		t.Fatal(err)
	}
	p := mod.(*Policy)
	if string(p.secret) != testSecret {
		t.Errorf("secret = %q, want the expanded placeholder", p.secret)
	}

	for _, bad := range []string{
		`{"rules": []}`,
		`{"secret": "{env.DWK_TEST_UNSET_VARIABLE}"}`,
		`{"secret": "s", "rules": [{"namespace": "N", "path": "/no-name"}]}`,
		`{"secret": "s", "unknown": 1}`,
	} {
		if _, err := ctx.LoadModuleByID("http.reverse_proxy.selection_policies.dwk", json.RawMessage(bad)); err == nil {
			t.Errorf("config %s loaded, want an error", bad)
		}
	}
}
