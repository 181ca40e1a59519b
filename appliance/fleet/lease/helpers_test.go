package lease

import (
	"context"
	"io"
	"log/slog"
	"sync"
	"testing"
	"time"

	"github.com/dwk/fleet/appliance/fleet/coord"
	"github.com/dwk/fleet/appliance/libsql/hranaclient"
	"github.com/dwk/fleet/appliance/libsql/libsqladmin"
	"github.com/dwk/fleet/appliance/process/clock/clocktest"
	"github.com/dwk/fleet/test/libsqlserver"
)

// env is one libSQL server shared by a test's managers, with one
// coordination namespace.
type env struct {
	srv   *libsqlserver.Server
	store *coord.Store
}

func newEnv(t testing.TB) *env {
	t.Helper()
	srv := libsqlserver.Start(t)
	return &env{srv: srv, store: openStore(t, srv)}
}

// openStore creates a fresh coordination namespace and opens a store on it.
func openStore(t testing.TB, srv *libsqlserver.Server) *coord.Store {
	t.Helper()
	ctx := ctxFor(t)
	admin, err := libsqladmin.New(libsqladmin.Config{URL: srv.AdminURL, AdminKey: srv.AdminKey})
	if err != nil {
		t.Fatal(err)
	}
	ns := libsqlserver.Namespace("lease")
	if err := admin.Create(ctx, ns); err != nil {
		t.Fatal(err)
	}
	c, err := hranaclient.New(hranaclient.Config{URL: srv.URL, AuthToken: srv.AuthToken, Namespace: ns})
	if err != nil {
		t.Fatal(err)
	}
	st, err := coord.Open(ctx, c, coord.Options{SweepInterval: -1, Logger: quiet()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close(context.Background()) })
	return st
}

// storeWithOwnCounter opens another store on the env's namespace with a
// client of its own, so its round trips can be counted alone.
func (e *env) storeWithOwnCounter(t testing.TB) *coord.Store {
	t.Helper()
	c, err := hranaclient.New(hranaclient.Config{URL: e.srv.URL, AuthToken: e.srv.AuthToken, Namespace: e.store.Client().Namespace()})
	if err != nil {
		t.Fatal(err)
	}
	st, err := coord.Open(ctxFor(t), c, coord.Options{SweepInterval: -1, Logger: quiet()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close(context.Background()) })
	return st
}

// manager opens a manager for member on st; tweak adjusts its config.
func manager(t testing.TB, st *coord.Store, member string, tweak func(*Config)) *Manager {
	t.Helper()
	cfg := Config{Coord: st, Member: member, Addr: member + ".internal:9000", TTL: time.Second, Logger: quiet()}
	if tweak != nil {
		tweak(&cfg)
	}
	m := New(cfg)
	if err := m.Open(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		m.Close(ctx)
	})
	return m
}

func quiet() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }

func ctxFor(t testing.TB) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// newFakeClock returns a clock that moves only when told to.
func newFakeClock() *clocktest.Fake { return clocktest.NewFake(time.Unix(1_900_000_000, 0)) }

// atomicCounter hands out distinct numbers to parallel benchmark loops.
type atomicCounter struct {
	mu sync.Mutex
	n  int
}

func (c *atomicCounter) next() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.n++
	return c.n
}
