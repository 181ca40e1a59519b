package coord

import (
	"context"
	"encoding/binary"
	"sync/atomic"
	"testing"

	"github.com/dwk/fleet/appliance/fleet/coord/tuple"
)

// Benchmarks against a real dwk libsql on loopback (or the server named by
// DWK_TEST_LIBSQL_URL):
//
//	go test -run '^$' -bench . -benchtime 2s ./appliance/fleet/coord
//
// Each reports round-trips/op from the client's counter and ops/s.

func benchStore(b *testing.B) *Store {
	b.Helper()
	return startServer(b).open(b, Options{SweepInterval: -1})
}

func report(b *testing.B, s *Store, before uint64) {
	b.ReportMetric(float64(s.Client().RoundTrips()-before)/float64(b.N), "round-trips/op")
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "ops/s")
}

// casIncrement increments the counter under key by read-check-write until
// it wins and returns the number of lost attempts.
func casIncrement(ctx context.Context, s *Store, key tuple.Key) (lost int, err error) {
	for {
		e, err := s.Get(ctx, key)
		if err != nil {
			return lost, err
		}
		var n uint64
		if e.Exists() {
			n = binary.BigEndian.Uint64(e.Value)
		}
		res, err := s.Atomic().Check(key, e.Versionstamp).Set(key, binary.BigEndian.AppendUint64(nil, n+1), 0).Commit(ctx)
		if err != nil {
			return lost, err
		}
		if res.OK {
			return lost, nil
		}
		lost++
	}
}

// benchCAS measures successful CAS increments per second with 4 goroutines
// per CPU; keyFor picks each goroutine's key.
func benchCAS(b *testing.B, keyFor func(g int64) tuple.Key) {
	s := benchStore(b)
	ctx := context.Background()
	var g, lost atomic.Int64
	b.SetParallelism(4)
	before := s.Client().RoundTrips()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		key := keyFor(g.Add(1))
		for pb.Next() {
			n, err := casIncrement(ctx, s, key)
			if err != nil {
				b.Error(err)
				return
			}
			lost.Add(int64(n))
		}
	})
	b.StopTimer()
	report(b, s, before)
	b.ReportMetric(float64(lost.Load())/float64(b.N), "lost-attempts/op")
}

func BenchmarkCASContended(b *testing.B) {
	benchCAS(b, func(int64) tuple.Key { return tuple.Key{"bench", "hot"} })
}

func BenchmarkCASDistinct(b *testing.B) {
	benchCAS(b, func(g int64) tuple.Key { return tuple.Key{"bench", g} })
}

// BenchmarkAtomicCheckSet is one atomic with a check per op, on distinct
// keys, serially: the commit latency and its round trips.
func BenchmarkAtomicCheckSet(b *testing.B) {
	s := benchStore(b)
	ctx := context.Background()
	before := s.Client().RoundTrips()
	b.ResetTimer()
	for i := range b.N {
		k := tuple.Key{"bench", int64(i)}
		if _, err := s.Atomic().Check(k, 0).Set(k, []byte("v"), 0).Commit(ctx); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	report(b, s, before)
}

// BenchmarkSumContended is blind counter increments on one key: no check,
// so no lost attempts.
func BenchmarkSumContended(b *testing.B) {
	s := benchStore(b)
	ctx := context.Background()
	b.SetParallelism(4)
	before := s.Client().RoundTrips()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			if _, err := s.Atomic().Sum(tuple.Key{"bench", "sum"}, 1).Commit(ctx); err != nil {
				b.Error(err)
				return
			}
		}
	})
	b.StopTimer()
	report(b, s, before)
	e, err := s.Get(ctx, tuple.Key{"bench", "sum"})
	if v, _ := e.Uint64(); err != nil || v != uint64(b.N) {
		b.Errorf("sum = %d, %v; want %d", v, err, b.N)
	}
}

// BenchmarkGet is the latency of one coordination read.
func BenchmarkGet(b *testing.B) {
	s := benchStore(b)
	ctx := context.Background()
	k := tuple.Key{"bench", "get"}
	mustCommit(b, s.Atomic().Set(k, make([]byte, 100), 0))
	before := s.Client().RoundTrips()
	b.ResetTimer()
	for range b.N {
		if _, err := s.Get(ctx, k); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	report(b, s, before)
}

// BenchmarkGetParallel is coordination read throughput.
func BenchmarkGetParallel(b *testing.B) {
	s := benchStore(b)
	ctx := context.Background()
	k := tuple.Key{"bench", "get"}
	mustCommit(b, s.Atomic().Set(k, make([]byte, 100), 0))
	b.SetParallelism(4)
	before := s.Client().RoundTrips()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			if _, err := s.Get(ctx, k); err != nil {
				b.Error(err)
				return
			}
		}
	})
	b.StopTimer()
	report(b, s, before)
}
