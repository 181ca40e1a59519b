package queuecentral

import (
	"context"
	"testing"
	"time"

	"github.com/dwk/fleet/appliance/libsql/hranaclient"
	"github.com/dwk/fleet/appliance/libsql/libsqladmin"
	"github.com/dwk/fleet/test/libsqlserver"
)

// queueDB is one queue database on a real libSQL server.
type queueDB struct {
	srv *libsqlserver.Server
	ns  string
	// timeout is the clients' per-call timeout; 0: the client's default.
	timeout time.Duration
}

// newQueueDB starts a libSQL server (or uses DWK_TEST_LIBSQL_URL's) and
// creates a namespace of its own for the test.
func newQueueDB(t testing.TB) *queueDB {
	t.Helper()
	srv := libsqlserver.Start(t)
	admin, err := libsqladmin.New(libsqladmin.Config{URL: srv.AdminURL, AdminKey: srv.AdminKey})
	if err != nil {
		t.Fatal(err)
	}
	ns := libsqlserver.Namespace("queues")
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := admin.Create(ctx, ns); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		if err := admin.Delete(ctx, ns); err != nil {
			t.Errorf("delete namespace %s: %v", ns, err)
		}
	})
	return &queueDB{srv: srv, ns: ns}
}

// client returns a client of its own, as another replica would have.
func (d *queueDB) client(t testing.TB) *hranaclient.Client {
	t.Helper()
	c, err := hranaclient.New(hranaclient.Config{URL: d.srv.URL, AuthToken: d.srv.AuthToken, Namespace: d.ns, Timeout: d.timeout})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// open returns a broker on a client of its own, closed when t ends.
func (d *queueDB) open(t testing.TB, o Options) *Broker {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	b, err := Open(ctx, d.client(t), o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() })
	return b
}
