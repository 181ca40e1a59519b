package kvcentral

import (
	"context"
	"fmt"
	"sync/atomic"
	"testing"

	"github.com/dwk/fleet/test/libsqlserver"
)

// Workers KV throughput in central mode against a real dwk libsql:
//
//	go test -run '^$' -bench . ./appliance/bindings/kv/kvcentral

func BenchmarkPutParallel(b *testing.B) {
	s := openStore(b, libsqlserver.Start(b))
	n, _ := New(s, "bench", Options{})
	ctx := context.Background()
	value := make([]byte, 1024)
	var seq atomic.Int64
	b.SetParallelism(4)
	b.SetBytes(int64(len(value)))
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			if err := n.Put(ctx, fmt.Sprintf("k%d", seq.Add(1)), value, nil); err != nil {
				b.Error(err)
				return
			}
		}
	})
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "ops/s")
}

func BenchmarkGetParallel(b *testing.B) {
	s := openStore(b, libsqlserver.Start(b))
	n, _ := New(s, "bench", Options{})
	ctx := context.Background()
	if err := n.Put(ctx, "k", make([]byte, 1024), nil); err != nil {
		b.Fatal(err)
	}
	b.SetParallelism(4)
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			if _, err := n.Get(ctx, "k"); err != nil {
				b.Error(err)
				return
			}
		}
	})
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "ops/s")
}
