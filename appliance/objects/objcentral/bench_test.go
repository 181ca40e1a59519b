package objcentral_test

import (
	"context"
	"net/http"
	"path/filepath"
	"testing"
	"time"

	"github.com/dwk/fleet/appliance/objects"
	"github.com/dwk/fleet/appliance/objects/objlocal"
	"github.com/dwk/fleet/appliance/worker"
	"github.com/dwk/fleet/test/libsqlserver"
)

// BenchmarkObjectRequest measures one request to one counter object
// through Stub.Fetch, in process, side by side:
//
//	mode=local              objlocal (SQLite file), the local-mode runtime
//	mode=central            central storage on dwk libsql, lease held here
//	mode=central-forwarded  central, sent to a replica that does not hold
//	                        the lease (one internal HTTP hop)
//
// op=get is two statements (create-if-missing, select), op=inc three.
// Each statement is one round trip to the object's database in central
// mode; the lease costs none once held.
func BenchmarkObjectRequest(b *testing.B) {
	for _, op := range []struct{ name, method, path string }{
		{"get", http.MethodGet, "/get"},
		{"inc", http.MethodPost, "/inc"},
	} {
		b.Run("mode=local/op="+op.name, func(b *testing.B) {
			ns := localCounter(b)
			benchRequests(b, ns, op.method, op.path)
		})
		b.Run("mode=central/op="+op.name, func(b *testing.B) {
			bk := newBackend(b, libsqlserver.Start(b))
			r := startReplica(b, bk, nil, replicaOptions{name: "r", ttl: 30 * time.Second})
			benchRequests(b, r.ns, op.method, op.path)
		})
		b.Run("mode=central-forwarded/op="+op.name, func(b *testing.B) {
			bk := newBackend(b, libsqlserver.Start(b))
			members := &memberList{}
			holder := startReplica(b, bk, members, replicaOptions{name: "holder", ttl: 30 * time.Second})
			via := startReplica(b, bk, members, replicaOptions{name: "via", ttl: 30 * time.Second})
			// Only the holder is "ready": placement sends everything there.
			members.set(holder.member())
			benchRequests(b, via.ns, op.method, op.path)
			if via.rt.ActiveObjects() != 0 {
				b.Fatal("the non-holder ran the object")
			}
		})
	}
}

// localCounter opens a local-mode runtime, as the server does, and binds
// the counter class.
func localCounter(b *testing.B) worker.ObjectNamespace {
	b.Helper()
	dir := b.TempDir()
	ctx := context.Background()
	idx, err := objlocal.OpenAlarmIndex(ctx, filepath.Join(dir, "alarms.sqlite"))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { idx.Close() })
	rt := objects.New(objects.Config{
		Secret: []byte(secret), Store: objlocal.NewStore(dir), Alarms: idx, Logger: quiet(),
	})
	if err := rt.Open(ctx); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { rt.Close(context.Background()) })
	ns, err := rt.Namespace("COUNTER", counterClass)
	if err != nil {
		b.Fatal(err)
	}
	return ns
}

func benchRequests(b *testing.B, ns worker.ObjectNamespace, method, path string) {
	stub := ns.Get(ns.IDFromName("bench"))
	do := func() {
		req, _ := http.NewRequest(method, "http://object"+path, nil)
		resp, err := stub.Fetch(context.Background(), req)
		if err != nil {
			b.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			b.Fatalf("status %d", resp.StatusCode)
		}
	}
	do() // start the object (and take its lease) outside the timing
	b.ResetTimer()
	for range b.N {
		do()
	}
}
