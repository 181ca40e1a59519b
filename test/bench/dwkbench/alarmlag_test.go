package main

import (
	"context"
	"fmt"
	"testing"

	"github.com/dwk/fleet/test/fleettest"
)

// BenchmarkAlarmLagCentral measures alarm lag on a two-replica central-mode
// fleet (the binary named by DWK_BIN). The alarms section of dwkbench runs
// it with -benchtime 1x; it reports milliseconds.
func BenchmarkAlarmLagCentral(b *testing.B) {
	f := fleettest.Start(b, fleettest.Options{Replicas: 2})
	var urls []string
	for _, r := range f.Replicas {
		urls = append(urls, r.Public)
	}
	var s lagStats
	run := 0
	for b.Loop() {
		lags, err := measureAlarmLag(context.Background(), urls, fmt.Sprint("lag", run), alarmLagN)
		if err != nil {
			b.Fatal(err)
		}
		s = summarise(lags)
		run++
	}
	b.ReportMetric(float64(s.Alarms), "alarms")
	b.ReportMetric(s.P50Ms, "p50-ms")
	b.ReportMetric(s.P99Ms, "p99-ms")
	b.ReportMetric(s.MaxMs, "max-ms")
}
