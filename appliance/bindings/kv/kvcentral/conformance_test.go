package kvcentral

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"github.com/dwk/fleet/appliance/bindings/kv"
	"github.com/dwk/fleet/appliance/bindings/kv/kvtest"
	"github.com/dwk/fleet/appliance/fleet/coord"
	"github.com/dwk/fleet/appliance/libsql/hranaclient"
	"github.com/dwk/fleet/appliance/libsql/libsqladmin"
	"github.com/dwk/fleet/appliance/worker"
	"github.com/dwk/fleet/test/libsqlserver"
)

// openStore returns a coordination store on a new namespace of srv.
func openStore(t testing.TB, srv *libsqlserver.Server) *coord.Store {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	admin, err := libsqladmin.New(libsqladmin.Config{URL: srv.AdminURL, AdminKey: srv.AdminKey})
	if err != nil {
		t.Fatal(err)
	}
	ns := libsqlserver.Namespace("kvc")
	if err := admin.Create(ctx, ns); err != nil {
		t.Fatal(err)
	}
	c, err := hranaclient.New(hranaclient.Config{URL: srv.URL, AuthToken: srv.AuthToken, Namespace: ns})
	if err != nil {
		t.Fatal(err)
	}
	s, err := coord.Open(ctx, c, coord.Options{SweepInterval: time.Second})
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

func newNamespace(t *testing.T, s *coord.Store, name string) *Namespace {
	t.Helper()
	n, err := New(s, name, Options{})
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// TestConformance runs the Workers KV suite unchanged, every subtest on a
// KV namespace of its own in one coordination database.
func TestConformance(t *testing.T) {
	s := openStore(t, libsqlserver.Start(t))
	var seq atomic.Int64
	kvtest.Run(t, func(t *testing.T) worker.KVNamespace {
		return newNamespace(t, s, fmt.Sprintf("conf-%d", seq.Add(1)))
	})
}

func TestNamespacesAreIsolated(t *testing.T) {
	s := openStore(t, libsqlserver.Start(t))
	ctx := context.Background()
	a, ab := newNamespace(t, s, "a"), newNamespace(t, s, "ab")
	if err := a.Put(ctx, "k", []byte("in a"), nil); err != nil {
		t.Fatal(err)
	}
	if err := ab.Put(ctx, "k", []byte("in ab"), nil); err != nil {
		t.Fatal(err)
	}
	if v, err := a.Get(ctx, "k"); err != nil || string(v) != "in a" {
		t.Errorf("a.Get = %q, %v", v, err)
	}
	res, err := a.List(ctx, nil)
	if err != nil || len(res.Keys) != 1 || !res.ListComplete {
		t.Errorf("a.List = %+v, %v; want only a's key", res, err)
	}
	if err := a.Delete(ctx, "k"); err != nil {
		t.Fatal(err)
	}
	if v, err := ab.Get(ctx, "k"); err != nil || string(v) != "in ab" {
		t.Errorf("ab.Get after a.Delete = %q, %v", v, err)
	}
}

func TestOneRoundTripPerCall(t *testing.T) {
	s := openStore(t, libsqlserver.Start(t))
	ctx := context.Background()
	n := newNamespace(t, s, "rt")
	c := s.Client()
	for _, op := range []struct {
		name string
		fn   func() error
	}{
		{"Put", func() error {
			return n.Put(ctx, "k", []byte("v"), &worker.KVPutOptions{ExpirationTTL: time.Hour, Metadata: json.RawMessage(`{}`)})
		}},
		{"Get", func() error { _, err := n.Get(ctx, "k"); return err }},
		{"GetWithMetadata", func() error { _, _, err := n.GetWithMetadata(ctx, "k"); return err }},
		{"List", func() error { _, err := n.List(ctx, nil); return err }},
		{"Delete", func() error { return n.Delete(ctx, "k") }},
	} {
		before := c.RoundTrips()
		if err := op.fn(); err != nil {
			t.Fatalf("%s: %v", op.name, err)
		}
		if got := c.RoundTrips() - before; got != 1 {
			t.Errorf("%s cost %d round trips, want 1", op.name, got)
		}
	}
}

// TestValueOverServerLimit puts a value larger than the server accepts in
// one request.
func TestValueOverServerLimit(t *testing.T) {
	srv := libsqlserver.Start(t, "--max-body-size", "256KiB")
	if srv.External {
		t.Skip("needs a server with a small request limit")
	}
	s := openStore(t, srv)
	n := newNamespace(t, s, "big")
	err := n.Put(context.Background(), "k", bytes.Repeat([]byte("x"), 512<<10), nil)
	if !errors.Is(err, worker.ErrKVValueTooLarge) {
		t.Errorf("Put over the server's limit: err = %v, want ErrKVValueTooLarge", err)
	}
}

func TestRecordRoundTrip(t *testing.T) {
	exp := time.UnixMilli(1_800_000_000_123).UTC()
	for _, p := range []kv.Put{
		{Value: []byte("v")},
		{Value: nil},
		{Value: []byte{0, 1, 2}, Metadata: json.RawMessage(`{"a":1}`)},
		{Value: []byte("v"), Expires: exp},
		{Value: []byte("v"), Metadata: json.RawMessage(`null`), Expires: exp},
	} {
		b := encodeRecord(p)
		r, err := decodeRecord(b, false)
		if err != nil || !bytes.Equal(r.value, p.Value) || string(r.metadata) != string(p.Metadata) || !r.expires.Equal(p.Expires) {
			t.Errorf("record %+v decoded as %+v, %v", p, r, err)
		}
		if r.value == nil {
			t.Errorf("record %+v: nil value, want empty", p)
		}
		h, err := decodeRecord(b[:min(len(b), maxHeader)], true)
		if err != nil || string(h.metadata) != string(p.Metadata) || !h.expires.Equal(p.Expires) {
			t.Errorf("header of %+v decoded as %+v, %v", p, h, err)
		}
	}
	for _, bad := range [][]byte{nil, {2, 0}, {1, 4}, {1, 2, 0}, {1, 1, 5, 'x'}} {
		if _, err := decodeRecord(bad, false); !errors.Is(err, errRecord) {
			t.Errorf("decodeRecord(%x) err = %v, want errRecord", bad, err)
		}
	}
}
