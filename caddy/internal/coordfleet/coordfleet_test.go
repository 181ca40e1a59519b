package coordfleet

import (
	"context"
	"errors"
	"net"
	"slices"
	"testing"
	"time"

	"github.com/dwk/fleet/appliance/fleet/coord"
	"github.com/dwk/fleet/appliance/fleet/lease"
	"github.com/dwk/fleet/appliance/fleet/membership"
	"github.com/dwk/fleet/appliance/fleet/objectid"
	"github.com/dwk/fleet/appliance/libsql/hranaclient"
	"github.com/dwk/fleet/appliance/libsql/libsqladmin"
	"github.com/dwk/fleet/caddy/internal/leasecache"
	"github.com/dwk/fleet/test/libsqlserver"
)

func ctxFor(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	t.Cleanup(cancel)
	return ctx
}

func TestUnreachableThenClosed(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	dead := ln.Addr().String()
	ln.Close()
	c, err := NewConn(hranaclient.Config{URL: "http://" + dead, Namespace: "ns"}, time.Second, nil)
	if err != nil {
		t.Fatal(err)
	}
	ctx := ctxFor(t)
	if _, err := NewMembers(c).List(ctx); !errors.Is(err, coord.ErrUnavailable) {
		t.Errorf("List against a dead server = %v, want ErrUnavailable", err)
	}
	if err := c.Close(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Store(ctx); !errors.Is(err, ErrClosed) {
		t.Errorf("Store after Close = %v, want ErrClosed", err)
	}
}

// TestReadsWhatReplicasWrite writes member records and leases the way
// replicas do (membership.Registry, lease.Manager) and reads them back.
func TestReadsWhatReplicasWrite(t *testing.T) {
	ctx := ctxFor(t)
	srv := libsqlserver.Start(t)
	admin, err := libsqladmin.New(libsqladmin.Config{URL: srv.AdminURL, AdminKey: srv.AdminKey})
	if err != nil {
		t.Fatal(err)
	}
	ns := libsqlserver.Namespace("coordfleet")
	if err := admin.Create(ctx, ns); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { admin.Delete(context.Background(), ns) })
	cfg := hranaclient.Config{URL: srv.URL, AuthToken: srv.AuthToken, Namespace: ns}

	// The load balancer's side, opened lazily.
	conn, err := NewConn(cfg, 5*time.Second, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	members, leases := NewMembers(conn), NewLeases(conn)

	// The replicas' side.
	wc, err := hranaclient.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	st, err := coord.Open(ctx, wc, coord.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close(context.Background())
	reg := membership.NewRegistry(st, nil)
	for _, m := range []membership.Member{
		{ID: "m2", State: membership.StateDraining, Internal: "10.0.0.2:8788"},
		{ID: "m1", State: membership.StateReady, Internal: "10.0.0.1:8788"},
	} {
		if err := reg.Put(ctx, m, time.Minute); err != nil {
			t.Fatal(err)
		}
	}
	got, err := members.List(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, m := range got {
		ids = append(ids, m.ID+"/"+string(m.State)+"/"+m.Internal)
	}
	if want := []string{"m1/ready/10.0.0.1:8788", "m2/draining/10.0.0.2:8788"}; !slices.Equal(ids, want) {
		t.Errorf("members %v, want %v", ids, want)
	}

	secret := []byte("secret")
	held := leasecache.Key{Namespace: "Counter", ID: objectid.FromName(secret, "Counter", "held")}
	free := leasecache.Key{Namespace: "Counter", ID: objectid.FromName(secret, "Counter", "free")}
	corrupt := leasecache.Key{Namespace: "Counter", ID: objectid.FromName(secret, "Counter", "corrupt")}
	m := lease.New(lease.Config{Coord: st, Member: "m1", Addr: "10.0.0.1:8788"})
	if err := m.Open(ctx); err != nil {
		t.Fatal(err)
	}
	defer m.Close(context.Background())
	if _, err := m.Acquire(ctx, held.Namespace, held.ID.String()); err != nil {
		t.Fatal(err)
	}
	// A lease whose holder has closed names it still, under a liveness
	// epoch that ended: no holder.
	ended := leasecache.Key{Namespace: "Counter", ID: objectid.FromName(secret, "Counter", "ended")}
	gone := lease.New(lease.Config{Coord: st, Member: "m9", Addr: "10.0.0.9:8788"})
	if err := gone.Open(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := gone.Acquire(ctx, ended.Namespace, ended.ID.String()); err != nil {
		t.Fatal(err)
	}
	if err := gone.Close(ctx); err != nil {
		t.Fatal(err)
	}
	ck := lease.KeyFor(corrupt.Namespace, corrupt.ID.String())
	if _, err := st.Atomic().Set(ck, []byte("not json"), time.Minute).Commit(ctx); err != nil {
		t.Fatal(err)
	}
	hs, err := leases.Holders(ctx, []leasecache.Key{held, free, corrupt, ended})
	if err != nil {
		t.Fatal(err)
	}
	if h, err := leases.Holder(ctx, ended.Namespace, ended.ID.String()); err != nil || h != "" {
		t.Errorf("holder of a lease whose holder closed = %q, %v; want none", h, err)
	}
	if want := []string{"m1", "", "", ""}; !slices.Equal(hs, want) {
		t.Errorf("holders %q, want %q", hs, want)
	}
}
