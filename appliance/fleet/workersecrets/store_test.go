package workersecrets

import (
	"bytes"
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/dwk/fleet/appliance/fleet/coord"
	"github.com/dwk/fleet/appliance/libsql/hranaclient"
	"github.com/dwk/fleet/appliance/libsql/libsqladmin"
	"github.com/dwk/fleet/appliance/process/clock/clocktest"
	"github.com/dwk/fleet/appliance/worker"
	"github.com/dwk/fleet/test/libsqlserver"
)

func TestPutLoadDelete(t *testing.T) {
	ctx := ctxFor(t)
	cs := openCoord(t, libsqlserver.Start(t))
	s := mustStore(t, cs, "fleet-secret")

	empty, err := s.Load(ctx)
	if err != nil || empty.Generation != 0 || len(empty.Workers) != 0 {
		t.Fatalf("Load of an empty store = %+v, %v", empty, err)
	}
	put := func(w, name, v string) {
		t.Helper()
		if err := s.Put(ctx, w, name, worker.Secret(v)); err != nil {
			t.Fatal(err)
		}
	}
	put("api", "API_TOKEN", "one")
	put("api", "DB_PASSWORD", "pw")
	put("web", "API_TOKEN", "web-one")
	put("api", "API_TOKEN", "two")

	snap, err := s.Load(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if snap.Generation == 0 || len(snap.Unreadable) != 0 {
		t.Fatalf("snapshot %+v", snap)
	}
	for _, tc := range []struct{ w, name, want string }{
		{"api", "API_TOKEN", "two"}, {"api", "DB_PASSWORD", "pw"}, {"web", "API_TOKEN", "web-one"},
	} {
		if got := snap.Workers[tc.w][tc.name]; got.Reveal() != tc.want {
			t.Errorf("%s %s = %q; want %q", tc.w, tc.name, got.Reveal(), tc.want)
		}
	}
	names, err := s.Names(ctx, "api")
	if err != nil || !slices.Equal(names, []string{"API_TOKEN", "DB_PASSWORD"}) {
		t.Errorf("Names(api) = %q, %v", names, err)
	}

	// What the libSQL server holds is sealed.
	raw, err := cs.Get(ctx, secretKey("api", "API_TOKEN"))
	if err != nil || !raw.Exists() || bytes.Contains(raw.Value, []byte("two")) {
		t.Errorf("stored bytes %q, %v: want a sealed value", raw.Value, err)
	}

	if err := s.Delete(ctx, "api", "API_TOKEN"); err != nil {
		t.Fatal(err)
	}
	if err := s.Delete(ctx, "api", "API_TOKEN"); !errors.Is(err, ErrNotStored) {
		t.Errorf("second delete = %v; want ErrNotStored", err)
	}
	after, err := s.Load(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := after.Workers["api"]["API_TOKEN"]; ok || after.Generation <= snap.Generation {
		t.Errorf("after delete: %v, generation %d (was %d)", after.Workers, after.Generation, snap.Generation)
	}
	if after.Workers["web"]["API_TOKEN"].Reveal() != "web-one" {
		t.Error("deleting api's secret touched web's")
	}
}

func TestRefusesBadInput(t *testing.T) {
	ctx := ctxFor(t)
	cs := openCoord(t, libsqlserver.Start(t))
	s := mustStore(t, cs, "fleet-secret")
	for _, tc := range []struct{ w, name, v string }{
		{"", "API_TOKEN", "v"}, {"api", "BAD-NAME", "v"}, {"api", "API_TOKEN", ""},
		{"api", "API_TOKEN", string(make([]byte, MaxValueBytes+1))},
	} {
		if err := s.Put(ctx, tc.w, tc.name, worker.Secret(tc.v)); !errors.Is(err, ErrInvalid) {
			t.Errorf("Put(%q, %q, %d bytes) = %v; want ErrInvalid", tc.w, tc.name, len(tc.v), err)
		}
	}
	snap, err := s.Load(ctx)
	if err != nil || snap.Generation != 0 {
		t.Errorf("a refused put wrote: %+v, %v", snap, err)
	}
}

func TestUnreadableUnderAnotherSecret(t *testing.T) {
	ctx := ctxFor(t)
	cs := openCoord(t, libsqlserver.Start(t))
	if err := mustStore(t, cs, "old-secret").Put(ctx, "api", "API_TOKEN", "v"); err != nil {
		t.Fatal(err)
	}
	snap, err := mustStore(t, cs, "new-secret").Load(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(snap.Workers) != 0 || len(snap.Unreadable) != 1 {
		t.Fatalf("snapshot %+v; want one unreadable secret and no value", snap)
	}
	u := snap.Unreadable[0]
	if u.Worker != "api" || u.Name != "API_TOKEN" || !errors.Is(u.Err, ErrWrongSecret) {
		t.Errorf("unreadable %+v", u)
	}
}

func TestFollowAppliesChanges(t *testing.T) {
	ctx := ctxFor(t)
	cs := openCoord(t, libsqlserver.Start(t))
	s := mustStore(t, cs, "fleet-secret")
	start, err := s.Load(ctx)
	if err != nil {
		t.Fatal(err)
	}
	clk := clocktest.NewFake(time.Unix(0, 0))
	applied := make(chan Snapshot, 10)
	fctx, stop := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		s.Follow(fctx, start, FollowOptions{Interval: time.Second, Clock: clk}, func(snap Snapshot) { applied <- snap })
	}()
	defer func() { stop(); <-done }()

	// A poll with no change applies nothing.
	clk.WaitCalls(t, 1)
	clk.Advance(time.Second)
	clk.WaitCalls(t, 2)
	if len(applied) != 0 {
		t.Fatalf("a poll without a change applied %+v", <-applied)
	}

	if err := s.Put(ctx, "api", "API_TOKEN", "one"); err != nil {
		t.Fatal(err)
	}
	clk.Advance(time.Second)
	clk.WaitCalls(t, 3)
	select {
	case snap := <-applied:
		if snap.Workers["api"]["API_TOKEN"].Reveal() != "one" {
			t.Errorf("applied %v; want the value put", snap.Workers)
		}
	default:
		t.Fatal("a put was not applied at the next poll")
	}

	if err := s.Delete(ctx, "api", "API_TOKEN"); err != nil {
		t.Fatal(err)
	}
	clk.Advance(time.Second)
	clk.WaitCalls(t, 4)
	select {
	case snap := <-applied:
		if _, ok := snap.Workers["api"]["API_TOKEN"]; ok {
			t.Error("a deleted secret is still applied")
		}
	default:
		t.Fatal("a delete was not applied at the next poll")
	}
}

func mustStore(t *testing.T, cs *coord.Store, secret string) *Store {
	t.Helper()
	s, err := New(cs, []byte(secret), "prod")
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// openCoord returns a coordination store on a new namespace of srv.
func openCoord(t testing.TB, srv *libsqlserver.Server) *coord.Store {
	t.Helper()
	ctx := ctxFor(t)
	admin, err := libsqladmin.New(libsqladmin.Config{URL: srv.AdminURL, AdminKey: srv.AdminKey})
	if err != nil {
		t.Fatal(err)
	}
	ns := libsqlserver.Namespace("secrets")
	if err := admin.Create(ctx, ns); err != nil {
		t.Fatal(err)
	}
	c, err := hranaclient.New(hranaclient.Config{URL: srv.URL, AuthToken: srv.AuthToken, Namespace: ns})
	if err != nil {
		t.Fatal(err)
	}
	s, err := coord.Open(ctx, c, coord.Options{SweepInterval: -1})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		if err := s.Close(ctx); err != nil {
			t.Error(err)
		}
		if err := admin.Delete(ctx, ns); err != nil {
			t.Error(err)
		}
	})
	return s
}

func ctxFor(t testing.TB) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	t.Cleanup(cancel)
	return ctx
}
