package dwkstorage

import (
	"context"
	"log/slog"
	"testing"
	"time"

	"github.com/dwk/fleet/appliance/fleet/coord"
	"github.com/dwk/fleet/appliance/libsql/hranaclient"
	"github.com/dwk/fleet/appliance/libsql/libsqladmin"
	"github.com/dwk/fleet/test/libsqlserver"
)

// testSecret is the fleet secret of the tests.
const testSecret = "fleet secret of the tests"

func ctxFor(t testing.TB) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	t.Cleanup(cancel)
	return ctx
}

// database is one coordination database on a real libSQL server.
type database struct {
	cfg hranaclient.Config
}

// newDatabase starts a libSQL server and creates a namespace on it.
func newDatabase(t testing.TB) *database {
	t.Helper()
	srv := libsqlserver.Start(t)
	admin, err := libsqladmin.New(libsqladmin.Config{URL: srv.AdminURL, AdminKey: srv.AdminKey})
	if err != nil {
		t.Fatal(err)
	}
	ns := libsqlserver.Namespace("dwkstorage")
	if err := admin.Create(ctxFor(t), ns); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		if err := admin.Delete(ctx, ns); err != nil {
			t.Errorf("delete namespace %s: %v", ns, err)
		}
	})
	return &database{cfg: hranaclient.Config{URL: srv.URL, AuthToken: srv.AuthToken, Namespace: ns}}
}

// open opens a coordination store of its own on the database, as each
// replica has; the test closes it at the latest.
func (d *database) open(t testing.TB) *coord.Store {
	t.Helper()
	c, err := hranaclient.New(d.cfg)
	if err != nil {
		t.Fatal(err)
	}
	st, err := coord.Open(ctxFor(t), c, coord.Options{SweepInterval: -1})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { closeStore(t, st) })
	return st
}

func closeStore(t testing.TB, st *coord.Store) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := st.Close(ctx); err != nil {
		t.Error(err)
	}
}

// fixed is a Source of one open store.
type fixed struct{ st *coord.Store }

func (f fixed) Store(context.Context) (*coord.Store, error) { return f.st, nil }

var _ Source = fixed{}

// newKV returns a storage over st that the test closes.
func newKV(t testing.TB, st *coord.Store, o Options) *KV {
	t.Helper()
	if o.Secret == nil {
		o.Secret = []byte(testSecret)
	}
	if o.Logger == nil {
		o.Logger = testLogger(t)
	}
	k, err := New(fixed{st}, o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if err := k.Close(ctx); err != nil {
			t.Errorf("close storage: %v", err)
		}
	})
	return k
}

// testLogger logs to the test's output.
func testLogger(t testing.TB) *slog.Logger {
	return slog.New(slog.NewTextHandler(t.Output(), nil))
}
