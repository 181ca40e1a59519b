package dwkupstreams

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/caddyserver/caddy/v2"
	"github.com/caddyserver/caddy/v2/modules/caddyhttp"

	"github.com/dwk/fleet/appliance/fleet/membership"
	"github.com/dwk/fleet/appliance/fleet/objectid"
	"github.com/dwk/fleet/caddy/internal/fleetview"
	"github.com/dwk/fleet/caddy/internal/leasecache"
	"github.com/dwk/fleet/test/wait"
)

// fakeMembers is an in-memory membership.Lister.
type fakeMembers struct {
	mu    sync.Mutex
	ms    []membership.Member
	err   error
	calls int
}

var _ membership.Lister = (*fakeMembers)(nil)

func (f *fakeMembers) List(context.Context) ([]membership.Member, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls++
	if f.err != nil {
		return nil, f.err
	}
	return slices.Clone(f.ms), nil
}

func (f *fakeMembers) set(err error, ms ...membership.Member) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.ms, f.err = ms, err
}

func (f *fakeMembers) ncalls() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.calls
}

// fakeLeases is an in-memory leasecache.Lookup.
type fakeLeases struct{ holders map[leasecache.Key]string }

var _ leasecache.Lookup = fakeLeases{}

func (f fakeLeases) Holders(_ context.Context, keys []leasecache.Key) ([]string, error) {
	out := make([]string, len(keys))
	for i, k := range keys {
		out[i] = f.holders[k]
	}
	return out, nil
}

func member(id string, st membership.State) membership.Member {
	return membership.Member{ID: id, State: st, Internal: id + ":8788", Public: id + ":8787"}
}

func discard() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }

// started returns a source over fakes; Cleanup runs at the end of the test.
func started(t *testing.T, u *Upstreams, ms *fakeMembers, ls fakeLeases) *Upstreams {
	t.Helper()
	u.log = discard()
	u.fillDefaults()
	if err := u.Validate(); err != nil {
		t.Fatal(err)
	}
	if err := u.start(context.Background(), ms, ls); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := u.Cleanup(); err != nil {
			t.Error(err)
		}
	})
	return u
}

func prepared() *http.Request {
	r := httptest.NewRequest(http.MethodGet, "/", nil)
	return caddyhttp.PrepareRequest(r, caddy.NewReplacer(), nil, &caddyhttp.Server{})
}

func dials(t *testing.T, u *Upstreams) []string {
	t.Helper()
	ups, err := u.GetUpstreams(prepared())
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, up := range ups {
		out = append(out, up.Dial)
	}
	return out
}

func TestReadyMembersOnly(t *testing.T) {
	ms := &fakeMembers{}
	ms.set(nil, member("c", membership.StateReady), member("a", membership.StateReady),
		member("b", membership.StateDraining), member("d", membership.StateStarting))
	u := started(t, &Upstreams{URL: "http://x", Fleet: "f", Refresh: caddy.Duration(time.Hour)}, ms, fakeLeases{})
	if got, want := dials(t, u), []string{"a:8788", "c:8788"}; !slices.Equal(got, want) {
		t.Errorf("upstreams = %v, want %v (ready members by id, internal addresses)", got, want)
	}

	pub := started(t, &Upstreams{URL: "http://x", Fleet: "f", Address: AddressPublic, Refresh: caddy.Duration(time.Hour)}, ms, fakeLeases{})
	if got, want := dials(t, pub), []string{"a:8787", "c:8787"}; !slices.Equal(got, want) {
		t.Errorf("public upstreams = %v, want %v", got, want)
	}
}

func TestAttachesFleetView(t *testing.T) {
	id := objectid.FromName([]byte("s"), "Counter", "x")
	ms := &fakeMembers{}
	ms.set(nil, member("a", membership.StateReady), member("b", membership.StateReady))
	ls := fakeLeases{holders: map[leasecache.Key]string{{Namespace: "Counter", ID: id}: "b"}}
	u := started(t, &Upstreams{URL: "http://x", Fleet: "f", Refresh: caddy.Duration(time.Hour)}, ms, ls)

	r := prepared()
	if _, err := u.GetUpstreams(r); err != nil {
		t.Fatal(err)
	}
	v := fleetview.From(r)
	if v == nil {
		t.Fatal("no fleet view attached to the request")
	}
	if id, ok := v.Members.IDOf("b:8788"); !ok || id != "b" {
		t.Errorf("IDOf(b:8788) = %q, %v", id, ok)
	}
	if h, ok := v.Leases.Holder(context.Background(), "Counter", id); !ok || h != "b" {
		t.Errorf("Holder = %q, %v; want b, true", h, ok)
	}
}

func TestDrainingMemberLeavesWithinRefresh(t *testing.T) {
	ms := &fakeMembers{}
	ms.set(nil, member("a", membership.StateReady), member("b", membership.StateReady))
	u := started(t, &Upstreams{URL: "http://x", Fleet: "f", Refresh: caddy.Duration(20 * time.Millisecond)}, ms, fakeLeases{})
	if got := dials(t, u); len(got) != 2 {
		t.Fatalf("upstreams = %v, want 2", got)
	}
	ms.set(nil, member("a", membership.StateReady), member("b", membership.StateDraining))
	wait.For(t, "b to leave rotation", func() bool { return slices.Equal(dials(t, u), []string{"a:8788"}) })

	// A failing store keeps the last listing.
	ms.set(errors.New("down"))
	n := ms.ncalls()
	wait.For(t, "a failed listing", func() bool { return ms.ncalls() > n+1 })
	if got := dials(t, u); !slices.Equal(got, []string{"a:8788"}) {
		t.Errorf("upstreams while listings fail = %v, want the last listing", got)
	}
}

func TestNoListingYet(t *testing.T) {
	ms := &fakeMembers{}
	ms.set(errors.New("down"))
	u := started(t, &Upstreams{URL: "http://x", Fleet: "f", Refresh: caddy.Duration(20 * time.Millisecond)}, ms, fakeLeases{})
	if _, err := u.GetUpstreams(prepared()); !errors.Is(err, ErrNoListing) {
		t.Fatalf("GetUpstreams = %v, want ErrNoListing", err)
	}
	ms.set(nil, member("a", membership.StateReady))
	wait.For(t, "the first listing", func() bool {
		_, err := u.GetUpstreams(prepared())
		return err == nil
	})
}

func TestResetCacheListsEarly(t *testing.T) {
	ms := &fakeMembers{}
	ms.set(nil, member("a", membership.StateReady))
	u := started(t, &Upstreams{URL: "http://x", Fleet: "f", Refresh: caddy.Duration(time.Hour)}, ms, fakeLeases{})
	n := ms.ncalls()
	if err := u.ResetCache(prepared()); err != nil {
		t.Fatal(err)
	}
	wait.For(t, "an early listing", func() bool { return ms.ncalls() > n })
}

func TestCleanupStopsListing(t *testing.T) {
	ms := &fakeMembers{}
	ms.set(nil, member("a", membership.StateReady))
	u := &Upstreams{URL: "http://x", Fleet: "f", Refresh: caddy.Duration(10 * time.Millisecond)}
	u.log = discard()
	u.fillDefaults()
	if err := u.start(context.Background(), ms, fakeLeases{}); err != nil {
		t.Fatal(err)
	}
	wait.For(t, "a background listing", func() bool { return ms.ncalls() > 2 })
	if err := u.Cleanup(); err != nil {
		t.Fatal(err)
	}
	n := ms.ncalls()
	time.Sleep(50 * time.Millisecond) // five intervals: no listing may start
	if got := ms.ncalls(); got != n {
		t.Errorf("%d listings after Cleanup", got-n)
	}
}

func TestValidate(t *testing.T) {
	tests := []struct {
		u  *Upstreams
		ok bool
	}{
		{&Upstreams{URL: "http://x", Fleet: "f"}, true},
		{&Upstreams{URL: "http://x", Namespace: "ns"}, true},
		{&Upstreams{Fleet: "f"}, false},
		{&Upstreams{URL: "http://x"}, false},
		{&Upstreams{URL: "http://x", Fleet: "f", Address: "both"}, false},
		{&Upstreams{URL: "http://x", Fleet: "f", Refresh: caddy.Duration(time.Millisecond)}, false},
		{&Upstreams{URL: "http://x", Fleet: "f", LeaseCacheTTL: -1}, false},
	}
	for i, tt := range tests {
		if err := tt.u.Validate(); (err == nil) != tt.ok {
			t.Errorf("case %d: Validate = %v, want ok=%v", i, err, tt.ok)
		}
	}
}

// TestJSONConfig loads the module the way Caddy does, against a libSQL
// address that refuses connections: loading succeeds, upstreams are
// missing until a listing works.
func TestJSONConfig(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	dead := ln.Addr().String()
	ln.Close()
	t.Setenv("DWK_TEST_TOKEN", "tok")
	ctx, cancel := caddy.NewContext(caddy.Context{Context: context.Background()})
	raw := `{"url": "http://` + dead + `", "auth_token": "{env.DWK_TEST_TOKEN}", "fleet": "prod", "timeout": "200ms", "refresh": "50ms"}`
	mod, err := ctx.LoadModuleByID("http.reverse_proxy.upstreams.dwk", json.RawMessage(raw))
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	u := mod.(*Upstreams)
	if u.AuthToken != "tok" || u.Namespace != "" || u.namespace() != "dwk-coord-prod" || u.Address != AddressInternal {
		t.Errorf("provisioned %+v", u)
	}
	if _, err := u.GetUpstreams(prepared()); !errors.Is(err, ErrNoListing) {
		t.Errorf("GetUpstreams = %v, want ErrNoListing", err)
	}
	cancel() // unloads the config: Caddy calls Cleanup
	if u.cancel == nil {
		t.Fatal("refresher never started")
	}

	for _, bad := range []string{
		`{"fleet": "prod"}`,
		`{"url": "http://x", "fleet": "prod", "address": "nowhere"}`,
		`{"url": "http://x", "fleet": "prod", "bogus": true}`,
		`{"url": "ftp://x", "fleet": "prod"}`,
	} {
		ctx, cancel := caddy.NewContext(caddy.Context{Context: context.Background()})
		if _, err := ctx.LoadModuleByID("http.reverse_proxy.upstreams.dwk", json.RawMessage(bad)); err == nil {
			t.Errorf("config %s loaded, want an error", bad)
		}
		cancel()
	}
}
