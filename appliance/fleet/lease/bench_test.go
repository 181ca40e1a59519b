package lease

import (
	"fmt"
	"testing"
	"time"
)

// BenchmarkAcquire measures leases acquired per second by one member: a
// read and one atomic operation each, against a local dwk libsql.
func BenchmarkAcquire(b *testing.B) {
	e := newEnv(b)
	ctx := ctxFor(b)
	m := manager(b, e.store, "a", func(c *Config) { c.TTL = time.Minute })
	b.ResetTimer()
	start := time.Now()
	for i := range b.N {
		if _, err := m.Acquire(ctx, "Bench", fmt.Sprint(i)); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "leases/s")
}

// BenchmarkAcquireParallel is BenchmarkAcquire from concurrent callers.
func BenchmarkAcquireParallel(b *testing.B) {
	e := newEnv(b)
	ctx := ctxFor(b)
	m := manager(b, e.store, "a", func(c *Config) { c.TTL = time.Minute })
	var seq atomicCounter
	b.ResetTimer()
	start := time.Now()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			if _, err := m.Acquire(ctx, "Bench", fmt.Sprint(seq.next())); err != nil {
				b.Error(err)
				return
			}
		}
	})
	b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "leases/s")
}

// BenchmarkHeartbeat measures one heartbeat with n leases held.
func BenchmarkHeartbeat(b *testing.B) {
	for _, n := range []int{1, 100, 1000} {
		b.Run(fmt.Sprintf("leases=%d", n), func(b *testing.B) {
			e := newEnv(b)
			ctx := ctxFor(b)
			clock := newFakeClock()
			m := manager(b, e.store, "a", func(c *Config) { c.TTL = time.Minute; c.Clock = clock })
			for i := range n {
				if _, err := m.Acquire(ctx, "Bench", fmt.Sprint(i)); err != nil {
					b.Fatal(err)
				}
			}
			b.ResetTimer()
			for range b.N {
				m.heartbeat(clock.Now())
			}
			b.StopTimer()
			if m.Count() != n {
				b.Fatalf("%d leases held after heartbeats, want %d", m.Count(), n)
			}
		})
	}
}
