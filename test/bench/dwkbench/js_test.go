package main

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/dwk/fleet/appliance/config"
	"github.com/dwk/fleet/test/bench/load"
	"github.com/dwk/fleet/test/fleettest"
)

// BenchmarkJSCentral compares the JavaScript counter with the Go counter
// on a one-replica central fleet: increments and reads, req/s, each side
// taking turns (the js section of dwkbench runs it).
func BenchmarkJSCentral(b *testing.B) {
	app, err := filepath.Abs("../jsbench/app/wrangler.jsonc")
	if err != nil {
		b.Fatal(err)
	}
	dur, _ := time.ParseDuration(os.Getenv("DWKBENCH_DURATION"))
	if dur == 0 {
		dur = 5 * time.Second
	}
	conc, _ := strconv.Atoi(os.Getenv("DWKBENCH_CONCURRENCY"))
	if conc == 0 {
		conc = 16
	}
	f := fleettest.Start(b, fleettest.Options{Replicas: 1, Edit: func(i int, c *config.Config) {
		c.Workers = append(c.Workers, config.Worker{Project: app, Routes: []string{"/js/"}})
	}})
	url := f.Replicas[0].Public
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: conc * 2}}
	ctx := context.Background()
	op := func(method, path string) func(ctx context.Context, i int) error {
		return func(ctx context.Context, i int) error { return do(ctx, client, method, url+fmt.Sprintf(path, i)) }
	}
	sides := []struct {
		name string
		op   func(ctx context.Context, i int) error
	}{
		{"go-inc-rps", op(http.MethodPost, "/counter/bench-%d/increment")},
		{"js-inc-rps", op(http.MethodPost, "/js/counter/bench-%d/increment")},
		{"go-get-rps", op(http.MethodGet, "/counter/bench-%d")},
		{"js-get-rps", op(http.MethodGet, "/js/counter/bench-%d")},
	}
	for _, s := range sides {
		load.Run(ctx, "warm", conc, time.Second, s.op)
	}
	runs := map[string][]float64{}
	b.ResetTimer()
	for range jsRounds {
		for _, s := range sides {
			r := load.Run(ctx, s.name, conc, dur, s.op)
			if r.Errors > 0 {
				b.Fatalf("%s: %d errors", s.name, r.Errors)
			}
			runs[s.name] = append(runs[s.name], r.RPS)
		}
	}
	for k, v := range runs {
		b.ReportMetric(median(v), k)
	}
}
