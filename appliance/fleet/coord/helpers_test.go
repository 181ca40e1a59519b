package coord

import (
	"context"
	"testing"
	"time"

	"github.com/dwk/fleet/appliance/libsql/hrana"
	"github.com/dwk/fleet/appliance/libsql/hranaclient"
	"github.com/dwk/fleet/appliance/libsql/libsqladmin"
	"github.com/dwk/fleet/test/libsqlserver"
)

// server is one libSQL server shared by the subtests of a test; each store
// gets a namespace of its own.
type server struct {
	srv   *libsqlserver.Server
	admin *libsqladmin.Client
}

func startServer(t testing.TB) *server {
	t.Helper()
	srv := libsqlserver.Start(t)
	admin, err := libsqladmin.New(libsqladmin.Config{URL: srv.AdminURL, AdminKey: srv.AdminKey})
	if err != nil {
		t.Fatal(err)
	}
	return &server{srv: srv, admin: admin}
}

// client returns a Hrana client for a new namespace.
func (s *server) client(t testing.TB) *hranaclient.Client {
	t.Helper()
	ns := libsqlserver.Namespace("coord")
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := s.admin.Create(ctx, ns); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		if err := s.admin.Delete(ctx, ns); err != nil {
			t.Errorf("delete namespace %s: %v", ns, err)
		}
	})
	c, err := hranaclient.New(hranaclient.Config{URL: s.srv.URL, AuthToken: s.srv.AuthToken, Namespace: ns})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// open opens a store on a new namespace.
func (s *server) open(t testing.TB, o Options) *Store {
	t.Helper()
	return openWith(t, s.client(t), o)
}

func openWith(t testing.TB, c *hranaclient.Client, o Options) *Store {
	t.Helper()
	st, err := Open(ctxFor(t), c, o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if err := st.Close(ctx); err != nil {
			t.Error(err)
		}
	})
	return st
}

func ctxFor(t testing.TB) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	t.Cleanup(cancel)
	return ctx
}

func mustCommit(t testing.TB, a *Atomic) Versionstamp {
	t.Helper()
	res, err := a.Commit(ctxFor(t))
	if err != nil {
		t.Fatalf("Commit: %v", err)
	}
	if !res.OK || res.Versionstamp == 0 {
		t.Fatalf("Commit = %+v, want OK with a versionstamp", res)
	}
	return res.Versionstamp
}

func mustGet(t testing.TB, s *Store, k []any) Entry {
	t.Helper()
	e, err := s.Get(ctxFor(t), k)
	if err != nil {
		t.Fatalf("Get(%v): %v", k, err)
	}
	return e
}

// rawRows counts coord_kv rows, expired ones included.
func rawRows(t testing.TB, s *Store) int64 {
	t.Helper()
	res, err := s.Client().Execute(ctxFor(t), hrana.NewStmt(`SELECT count(*) FROM coord_kv`))
	if err != nil {
		t.Fatal(err)
	}
	return res.Rows[0][0].Int
}
