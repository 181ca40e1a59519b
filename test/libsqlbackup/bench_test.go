package libsqlbackup

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/dwk/fleet/appliance/libsql/hrana"
)

// Load of BenchmarkBackupCommits.
const (
	benchNamespaces = 16
	benchDuration   = 5 * time.Second
)

// BenchmarkBackupCommits measures autocommit INSERTs per second through
// `dwk libsql` without and with the continuous backup (to versitygw on
// loopback), side by side in one run, and the backup lag under that load,
// sampled every 50ms from the server's metrics. Run it with -benchtime 1x:
// each side runs benchDuration however large b.N is.
func BenchmarkBackupCommits(b *testing.B) {
	env := newBucket(b)
	off := startUnbacked(b, filepath.Join(b.TempDir(), "off"))
	on := startServer(b, env, filepath.Join(b.TempDir(), "on"))
	b.ResetTimer()
	offRate := commitLoad(b, off, nil)
	var lags []float64
	onRate := commitLoad(b, on, func() { lags = append(lags, on.metric(b, "dwk_libsql_backup_lag_seconds")) })
	drain := time.Now()
	on.waitShipped(b, 30*time.Second)
	b.StopTimer()
	slices.Sort(lags)
	b.ReportMetric(offRate, "off-commits/s")
	b.ReportMetric(onRate, "on-commits/s")
	b.ReportMetric(lags[len(lags)/2]*1000, "lag-p50-ms")
	b.ReportMetric(lags[(len(lags)-1)*99/100]*1000, "lag-p99-ms")
	b.ReportMetric(lags[len(lags)-1]*1000, "lag-max-ms")
	b.ReportMetric(float64(time.Since(drain).Milliseconds()), "drain-ms")
	b.ReportMetric(benchNamespaces, "namespaces")
	b.ReportMetric(benchDuration.Seconds(), "seconds")
}

// commitLoad runs one writer per namespace for benchDuration and returns
// the commits per second; sample, when set, runs every 50ms meanwhile.
func commitLoad(b *testing.B, s *server, sample func()) float64 {
	ctx, cancel := context.WithTimeout(context.Background(), benchDuration+30*time.Second)
	defer cancel()
	for i := range benchNamespaces {
		ns := fmt.Sprintf("bench-%02d", i)
		if err := s.admin.Create(ctx, ns); err != nil {
			b.Fatal(err)
		}
		if _, err := s.exec(ctx, ns, "CREATE TABLE t(v)"); err != nil {
			b.Fatal(err)
		}
	}
	var commits atomic.Int64
	var failed atomic.Value
	lctx, stop := context.WithTimeout(ctx, benchDuration)
	defer stop()
	var wg sync.WaitGroup
	start := time.Now()
	for i := range benchNamespaces {
		ns := fmt.Sprintf("bench-%02d", i)
		wg.Add(1)
		go func() {
			defer wg.Done()
			for v := int64(0); lctx.Err() == nil; v++ {
				if _, err := s.exec(lctx, ns, "INSERT INTO t VALUES (?)", hrana.Integer(v)); err != nil {
					if lctx.Err() == nil {
						failed.Store(err)
					}
					return
				}
				commits.Add(1)
			}
		}()
	}
	if sample != nil {
		tick := time.NewTicker(50 * time.Millisecond)
		for lctx.Err() == nil {
			select {
			case <-tick.C:
				sample()
			case <-lctx.Done():
			}
		}
		tick.Stop()
	}
	wg.Wait()
	elapsed := time.Since(start)
	if err, ok := failed.Load().(error); ok {
		b.Fatalf("commit failed: %v", err)
	}
	return float64(commits.Load()) / elapsed.Seconds()
}
