package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
)

// benchFleet runs the fleet measurements of test/soak against a real
// central-mode fleet (dwk libsql, versitygw, three dwk serve): coordination
// round trips per request with a held lease, failover after kill -9 in
// lease TTLs, drain handoff, and failed requests during a rolling deploy.
func benchFleet(ctx context.Context, o options) (Section, error) {
	// The fleet harness starts the binary named by DWK_BIN.
	bin, err := filepath.Abs(o.dwk)
	if err != nil {
		return Section{}, err
	}
	os.Setenv("DWK_BIN", bin)
	names := []string{"BenchmarkCoordRoundTrips", "BenchmarkFailover", "BenchmarkDrainHandoff", "BenchmarkRollingDeploy"}
	res, err := runGoBench(ctx, "./test/soak", names, "1x")
	if err != nil {
		return Section{}, err
	}
	rt, fo, dr, roll := res[names[0]], res[names[1]], res[names[2]], res[names[3]]
	e := func(r benchResult, k string) float64 { return r.Extra[k] }
	return Section{
		Title:   "Fleet: coordination round trips, failover, drain handoff, rolling deploy (3 replicas, central mode)",
		Command: "go run ./test/bench/dwkbench -only fleet  (or: DWK_BIN=bin/dwk go test -run '^$' -bench . -benchtime 1x ./test/soak)",
		Notes: "Real processes on loopback. Round trips: dwk_coord_round_trips_total of the holder over 1,000 increments of one object, minus a quiet window of the same length. " +
			"Failover: kill -9 the holder (lease TTL 2s), time until another replica serves the object; 5 times. " +
			"Handoff: SIGTERM the holder of 5 objects (lease TTL 10s), time until the last is served elsewhere, including the 700ms drain notice; 3 times. " +
			"Rolling deploy: SIGTERM, wait, start each replica in turn under 8 paced clients through health-checked front doors.",
		Header: []string{"measure", "value", "detail"},
		Rows: [][]string{
			{"coordination round trips per request, lease held", fmt.Sprintf("%.3f", e(rt, "coord-round-trips/req")),
				fmt.Sprintf("%.0f during the requests, %.0f in the quiet window", e(rt, "busy-round-trips"), e(rt, "quiet-round-trips"))},
			{"request time, lease held (serial)", fmtNs(rt.NsPerOp), "through the replica's public port"},
			{"failover after kill -9, median", fmt.Sprintf("%.2f TTL", e(fo, "failover-median-TTL")), fmt.Sprintf("%.0f ms", e(fo, "failover-median-ms"))},
			{"failover after kill -9, max", fmt.Sprintf("%.2f TTL", e(fo, "failover-max-TTL")), fmt.Sprintf("%.0f ms", e(fo, "failover-max-ms"))},
			{"drain handoff, median", fmt.Sprintf("%.0f ms", e(dr, "handoff-median-ms")), "from SIGTERM, 700ms notice included"},
			{"drain handoff, max", fmt.Sprintf("%.0f ms", e(dr, "handoff-max-ms")), ""},
			{"rolling deploy: failed requests", fmt.Sprintf("%.0f", e(roll, "failed")), fmt.Sprintf("of %.0f requests over a %.1fs deploy", e(roll, "requests"), e(roll, "deploy-s"))},
		},
		Data: res,
	}, nil
}
