package objcentral_test

import (
	"context"
	"io"
	"net/http"
	"path/filepath"
	"testing"
	"time"

	"github.com/dwk/fleet/appliance/bindings/objects"
	"github.com/dwk/fleet/appliance/bindings/objects/objcentral"
	"github.com/dwk/fleet/appliance/bindings/objects/objlocal"
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
// In central mode reads are served by the holder's local replica and an
// event's writes are committed at the primary in one round trip; the
// lease costs none once held. Central runs report roundtrips/op, the
// round trips to object databases per request.
func BenchmarkObjectRequest(b *testing.B) {
	for _, op := range []struct{ name, method, path string }{
		{"get", http.MethodGet, "/get"},
		{"inc", http.MethodPost, "/inc"},
	} {
		b.Run("mode=local/op="+op.name, func(b *testing.B) {
			ns := localCounter(b)
			benchRequests(b, ns, op.method, op.path, nil)
		})
		b.Run("mode=central/op="+op.name, func(b *testing.B) {
			bk := newBackend(b, libsqlserver.Start(b))
			r := startReplica(b, bk, nil, replicaOptions{name: "r", ttl: 30 * time.Second})
			trips := benchRequests(b, r.ns, op.method, op.path, r.objClient.RoundTrips)
			b.ReportMetric(trips, "roundtrips/op")
		})
		b.Run("mode=central-forwarded/op="+op.name, func(b *testing.B) {
			bk := newBackend(b, libsqlserver.Start(b))
			members := &memberList{}
			holder := startReplica(b, bk, members, replicaOptions{name: "holder", ttl: 30 * time.Second})
			via := startReplica(b, bk, members, replicaOptions{name: "via", ttl: 30 * time.Second})
			// Only the holder is "ready": placement sends everything there.
			members.set(holder.member())
			benchRequests(b, via.ns, op.method, op.path, nil)
			if via.rt.ActiveObjects() != 0 {
				b.Fatal("the non-holder ran the object")
			}
		})
	}
}

// BenchmarkObjectRPC times the counter's read as an RPC call
// (worker.Call) and as a fetch, on the holder and through a replica that
// forwards to it.
func BenchmarkObjectRPC(b *testing.B) {
	for _, mode := range []string{"central", "central-forwarded"} {
		for _, kind := range []string{"fetch", "rpc"} {
			b.Run("mode="+mode+"/kind="+kind, func(b *testing.B) {
				bk := newBackend(b, libsqlserver.Start(b))
				members := &memberList{}
				holder := startReplica(b, bk, members, replicaOptions{name: "holder", ttl: 30 * time.Second})
				ns := holder.ns
				if mode == "central-forwarded" {
					via := startReplica(b, bk, members, replicaOptions{name: "via", ttl: 30 * time.Second})
					members.set(holder.member())
					ns = via.ns
				} else {
					members.set(holder.member())
				}
				stub := ns.Get(ns.IDFromName("bench"))
				do := func() {
					if kind == "rpc" {
						if _, err := worker.Call[struct{}, int64](context.Background(), stub, "Get", struct{}{}); err != nil {
							b.Fatal(err)
						}
						return
					}
					req, _ := http.NewRequest(http.MethodGet, "http://object/get", nil)
					resp, err := stub.Fetch(context.Background(), req)
					if err != nil {
						b.Fatal(err)
					}
					io.Copy(io.Discard, resp.Body)
					resp.Body.Close()
					if resp.StatusCode != http.StatusOK {
						b.Fatalf("status %d", resp.StatusCode)
					}
				}
				do()
				b.ResetTimer()
				for range b.N {
					do()
				}
			})
		}
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

// benchRequests times requests to one object and returns the round trips
// per request that trips counts (0 when trips is nil).
func benchRequests(b *testing.B, ns worker.ObjectNamespace, method, path string, trips func() uint64) float64 {
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
	var before uint64
	if trips != nil {
		before = trips()
	}
	b.ResetTimer()
	for range b.N {
		do()
	}
	b.StopTimer()
	if trips == nil {
		return 0
	}
	return float64(trips()-before) / float64(b.N)
}

// BenchmarkObjectOpen measures opening an object of about 1 MB on a
// replica: cache=cold starts from an empty cache, so the whole database
// is fetched from the primary; cache=warm reopens a copy that is
// current, which costs the one round trip that raises the epoch.
func BenchmarkObjectOpen(b *testing.B) {
	const rows, size = 256, 4000
	bk := newBackend(b, libsqlserver.Start(b))
	ctx := context.Background()
	id := testID("Open", "big")
	seed, _ := bk.objectStore(b)
	db, err := seed.Open(ctx, id, newFakeLease(1))
	if err != nil {
		b.Fatal(err)
	}
	qs := []worker.D1Query{{SQL: "CREATE TABLE big (v BLOB)"}}
	for range rows {
		qs = append(qs, worker.D1Query{SQL: "INSERT INTO big VALUES (randomblob(?))", Args: []any{int64(size)}})
	}
	if _, err := db.Batch(ctx, qs); err != nil {
		b.Fatal(err)
	}
	db.Close()
	epoch := int64(1)
	open := func(s *objcentral.Store) {
		epoch++
		db, err := s.Open(ctx, id, newFakeLease(epoch))
		if err != nil {
			b.Fatal(err)
		}
		rs, err := db.Batch(ctx, []worker.D1Query{{SQL: "SELECT count(*) FROM big"}})
		if err != nil || rs[0].Rows[0][0] != int64(rows) {
			b.Fatalf("count = %v, %v", rs, err)
		}
		db.Close()
	}
	b.Run("cache=cold", func(b *testing.B) {
		b.SetBytes(rows * size)
		var trips uint64
		for range b.N {
			b.StopTimer()
			s, c := bk.objectStore(b)
			b.StartTimer()
			open(s)
			b.StopTimer()
			trips += c.RoundTrips()
			s.Close()
			b.StartTimer()
		}
		b.ReportMetric(float64(trips)/float64(b.N), "roundtrips/op")
	})
	b.Run("cache=warm", func(b *testing.B) {
		s, c := bk.objectStore(b)
		open(s)
		before := c.RoundTrips()
		b.ResetTimer()
		for range b.N {
			open(s)
		}
		b.StopTimer()
		b.ReportMetric(float64(c.RoundTrips()-before)/float64(b.N), "roundtrips/op")
	})
}
