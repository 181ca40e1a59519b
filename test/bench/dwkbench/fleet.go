package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/dwk/fleet/appliance/config"
	"github.com/dwk/fleet/test/benchdocs"
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
	names := []string{"BenchmarkCoordRoundTrips", "BenchmarkFailover", "BenchmarkDrainHandoff", "BenchmarkRollingDeploy",
		"BenchmarkObjectCreation", "BenchmarkFrontDoorSockets"}
	res, err := runGoBench(ctx, "./test/soak", names, "1x")
	if err != nil {
		return Section{}, err
	}
	rt, fo, dr, roll, cr, so := res[names[0]], res[names[1]], res[names[2]], res[names[3]], res[names[4]], res[names[5]]
	e := func(r benchResult, k string) float64 { return r.Extra[k] }
	ms := func(r benchResult, k string) benchdocs.Figure {
		return benchdocs.Duration(time.Duration(e(r, k) * float64(time.Millisecond)))
	}
	n := e(rt, "requests")
	perReq := func(k string) float64 { return e(rt, k) / n }
	return Section{
		Title:   "Fleet: coordination round trips, failover, drain handoff, rolling deploy (3 replicas, central mode)",
		Command: "go run ./test/bench/dwkbench -only fleet  (or: DWK_BIN=bin/dwk go test -run '^$' -bench . -benchtime 1x ./test/soak)",
		Notes: fmt.Sprintf("Real processes on loopback. Round trips: %.0f serial increments of one object whose lease the replica holds, "+
			"counted per request (each request's context is tagged and the replica reports the libSQL round trips made under it, "+
			"so background work is not counted); first straight to the holder, then through its front door. "+
			"Background: the holder's other coordination round trips during the first window (heartbeats, polls). ", n) +
			"Failover, at default settings (lease TTL " + benchdocs.Duration(config.DefaultLeaseTTL).Text + "): kill -9 the holder (restarted only afterwards) or SIGSTOP it (resumed afterwards), time until a fresh request through another replica is served by another member (polled with a 500ms client timeout); 5 times each. " +
			"Heartbeat load: coordination round trips per second of an idle replica holding 5 leases (liveness and member heartbeats, member listings, alarm polls), over 5s. " +
			"Handoff: SIGTERM the holder of 5 objects (lease TTL 10s), time until the last is served elsewhere, including the 700ms drain notice; 3 times. " +
			"Rolling deploy: SIGTERM, wait, start each replica in turn under 8 paced clients through health-checked front doors. " +
			"Creation: through one front door, the first request to a new counter object against an increment of an existing one, taking turns (300 pairs, p50s), then the same 16 clients each writing to an object of its own for 10 s, then each creating new objects one after another for 10 s. " +
			"Sockets: 2 replicas; idle chat-room WebSockets through one replica's front door to rooms placed on the other (each tunnel a stream over the proxying replica's one mutual-TLS session to the other), the growth of the proxying dwk serve process's RSS per socket, 5 s after they went idle.",
		Header: []string{"measure", "value", "detail"},
		Rows: [][]string{
			{"coordination round trips per request, lease held", fmt.Sprintf("%.3f", perReq("coord-round-trips")),
				fmt.Sprintf("%.0f in %.0f requests to the holder; %.1f other libSQL round trips per request", e(rt, "coord-round-trips"), n, perReq("libsql-round-trips"))},
			{"coordination round trips per request, through the front door", fmt.Sprintf("%.3f", perReq("door-coord-round-trips")),
				fmt.Sprintf("%.0f in %.0f requests", e(rt, "door-coord-round-trips"), n)},
			{"background coordination round trips", fmt.Sprintf("%.0f", e(rt, "background-round-trips")), "during the requests to the holder, not counted against them"},
			{"request time, lease held (serial)", fmtNs(rt.NsPerOp), "through the holder's front door"},
			{"failover after kill -9, median", fmt.Sprintf("%.0f ms", e(fo, "failover-kill-median-ms")), fmt.Sprintf("%.2f TTL", e(fo, "failover-kill-median-TTL"))},
			{"failover after kill -9, max", fmt.Sprintf("%.0f ms", e(fo, "failover-kill-max-ms")), fmt.Sprintf("%.2f TTL", e(fo, "failover-kill-max-TTL"))},
			{"failover after SIGSTOP, median", fmt.Sprintf("%.0f ms", e(fo, "failover-stop-median-ms")), fmt.Sprintf("%.2f TTL", e(fo, "failover-stop-median-TTL"))},
			{"failover after SIGSTOP, max", fmt.Sprintf("%.0f ms", e(fo, "failover-stop-max-ms")), fmt.Sprintf("%.2f TTL", e(fo, "failover-stop-max-TTL"))},
			{"coordination round trips per second, idle replica with leases", fmt.Sprintf("%.1f", e(fo, "coord-round-trips-per-s")), "liveness and member heartbeats, member listings, alarm polls"},
			{"drain handoff, median", fmt.Sprintf("%.0f ms", e(dr, "handoff-median-ms")), "from SIGTERM, 700ms notice included"},
			{"drain handoff, max", fmt.Sprintf("%.0f ms", e(dr, "handoff-max-ms")), ""},
			{"rolling deploy: failed requests", fmt.Sprintf("%.0f", e(roll, "failed")), fmt.Sprintf("of %.0f requests over a %.1fs deploy", e(roll, "requests"), e(roll, "deploy-s"))},
			{"first request to a new object, p50", fmt.Sprintf("%.1f ms", e(cr, "first-p50-ms")), fmt.Sprintf("%.1fx a write to an existing object (%.1f ms)", e(cr, "first/write"), e(cr, "write-p50-ms"))},
			{"new objects per second, 16 clients", fmt.Sprintf("%.0f", e(cr, "creates/s")), "through one front door"},
			{"writes per second to existing objects, 16 clients", fmt.Sprintf("%.0f", e(cr, "writes/s")), "the same clients, each to an object of its own, just before"},
			{"idle proxied WebSocket, proxying replica's RSS", fmt.Sprintf("%.1f KiB", e(so, "rss-KiB/socket")), fmt.Sprintf("per socket, %.0f sockets", e(so, "sockets"))},
		},
		Figures: map[string]benchdocs.Figure{
			"rt.requests":               benchdocs.Count(n, "requests"),
			"rt.coord_per_request":      benchdocs.Fixed(perReq("coord-round-trips"), 3, "round trips/request"),
			"rt.coord":                  benchdocs.Count(e(rt, "coord-round-trips"), "round trips"),
			"rt.libsql_per_request":     benchdocs.Fixed(perReq("libsql-round-trips"), 1, "round trips/request"),
			"rt.door_coord_per_request": benchdocs.Fixed(perReq("door-coord-round-trips"), 3, "round trips/request"),
			"rt.door_coord":             benchdocs.Count(e(rt, "door-coord-round-trips"), "round trips"),
			"rt.background":             benchdocs.Count(e(rt, "background-round-trips"), "round trips"),
			"rt.request_time":           benchdocs.Duration(time.Duration(rt.NsPerOp)),
			"failover.lease_ttl":        ms(fo, "lease-ttl-ms"),
			"failover.kill.median":      ms(fo, "failover-kill-median-ms"),
			"failover.kill.max":         ms(fo, "failover-kill-max-ms"),
			"failover.stop.median":      ms(fo, "failover-stop-median-ms"),
			"failover.stop.max":         ms(fo, "failover-stop-max-ms"),
			"renewal.per_second":        benchdocs.Fixed(e(fo, "coord-round-trips-per-s"), 1, "round trips/s"),
			"handoff.median":            ms(dr, "handoff-median-ms"),
			"handoff.max":               ms(dr, "handoff-max-ms"),
			"rolling.failed":            benchdocs.Count(e(roll, "failed"), "requests"),
			"rolling.requests":          benchdocs.Count(e(roll, "requests"), "requests"),
			"rolling.deploy":            benchdocs.Duration(time.Duration(e(roll, "deploy-s") * float64(time.Second))),
			"create.first_p50":          ms(cr, "first-p50-ms"),
			"create.write_p50":          ms(cr, "write-p50-ms"),
			"create.ratio":              benchdocs.Ratio(e(cr, "first/write")),
			"create.per_second":         benchdocs.Fixed(e(cr, "creates/s"), 0, "objects/s"),
			"create.writes_per_second":  benchdocs.Fixed(e(cr, "writes/s"), 0, "writes/s"),
			"sockets.rss":               benchdocs.Bytes(e(so, "rss-KiB/socket") * 1024),
			"sockets.count":             benchdocs.Count(e(so, "sockets"), "sockets"),
		},
		Data: res,
	}, nil
}
