package d1central

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"testing"

	"github.com/dwk/fleet/appliance/libsql/libsqladmin"
	"github.com/dwk/fleet/test/libsqlserver"
)

// env is a libSQL server for a test, with its admin API.
type env struct {
	srv   *libsqlserver.Server
	admin *libsqladmin.Client // nil if the server has no admin API
}

// startEnv starts a dwk libsql server (or uses DWK_TEST_LIBSQL_URL's).
func startEnv(t testing.TB) *env {
	t.Helper()
	e := &env{srv: libsqlserver.Start(t)}
	if e.srv.AdminURL != "" {
		admin, err := libsqladmin.New(libsqladmin.Config{URL: e.srv.AdminURL, AdminKey: e.srv.AdminKey})
		if err != nil {
			t.Fatal(err)
		}
		e.admin = admin
	}
	return e
}

// config returns a Config for a fresh, random D1 database on the server,
// created lazily through the admin API. Without an admin API every
// database is the server's default one.
func (e *env) config(t testing.TB) Config {
	t.Helper()
	cfg := Config{URL: e.srv.URL, AuthToken: e.srv.AuthToken}
	if e.admin == nil {
		t.Log("no admin API: using the server's default database")
		return cfg
	}
	ns, err := NamespaceFor("test-", randomName())
	if err != nil {
		t.Fatal(err)
	}
	cfg.Namespace = ns
	cfg.CreateNamespace = e.admin.Create
	t.Cleanup(func() {
		// A database no call reached was never created.
		if err := e.admin.Delete(context.Background(), ns); err != nil && !errors.Is(err, libsqladmin.ErrNotFound) {
			t.Logf("delete namespace %s: %v", ns, err)
		}
	})
	return cfg
}

// open opens cfg (by default a fresh database on e) and closes it when the
// test ends.
func (e *env) open(t testing.TB, mods ...func(*Config)) *DB {
	t.Helper()
	cfg := e.config(t)
	for _, m := range mods {
		m(&cfg)
	}
	return openConfig(t, cfg)
}

// openConfig opens cfg and closes the DB when the test ends.
func openConfig(t testing.TB, cfg Config) *DB {
	t.Helper()
	db, err := Open(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := db.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	})
	return db
}

func randomName() string {
	b := make([]byte, 6)
	rand.Read(b)
	return hex.EncodeToString(b)
}
