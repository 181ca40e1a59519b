package main

import (
	"context"
	"fmt"
	"time"

	"github.com/dwk/fleet/test/benchdocs"
)

// benchLibsql compares a Hrana pipeline round trip to `dwk libsql` with the
// same statement run in-process on SQLite, and durable commit rates.
func benchLibsql(ctx context.Context, o options) (Section, error) {
	names := []string{"BenchmarkPipelineHTTP", "BenchmarkInProcessSQLite", "BenchmarkCommit/synchronous=FULL", "BenchmarkCommit/synchronous=NORMAL"}
	res, err := runGoBench(ctx, "./appliance/libsql", []string{"BenchmarkPipelineHTTP", "BenchmarkInProcessSQLite", "BenchmarkCommit"}, o.benchtime)
	if err != nil {
		return Section{}, err
	}
	for _, n := range names {
		if _, ok := res[n]; !ok {
			return Section{}, fmt.Errorf("benchmark %s missing", n)
		}
	}
	pipe, local := res[names[0]], res[names[1]]
	full, normal := res[names[2]], res[names[3]]
	return Section{
		Title:   "dwk libsql: round trip against in-process SQLite; commits/s",
		Command: "go run ./test/bench/dwkbench -only libsql",
		Notes:   "A pipeline round trip is one HTTP request on loopback (new stream, execute, close) for `SELECT ?`; in-process is the same statement on a SQLite connection. Commits are autocommit INSERTs through the server.",
		Header:  []string{"measure", "value", "compared with", "ratio"},
		Rows: [][]string{
			{"pipeline round trip", fmtNs(pipe.NsPerOp), "in-process " + fmtNs(local.NsPerOp), fmt.Sprintf("%.1fx", pipe.NsPerOp/local.NsPerOp)},
			{"commits/s, synchronous=FULL", fmt.Sprintf("%.0f", full.Extra["commits/s"]), "", ""},
			{"commits/s, synchronous=NORMAL", fmt.Sprintf("%.0f", normal.Extra["commits/s"]), "FULL", fmt.Sprintf("%.1fx", normal.Extra["commits/s"]/full.Extra["commits/s"])},
		},
		Figures: map[string]benchdocs.Figure{"in_process": benchdocs.Duration(time.Duration(local.NsPerOp))},
		Data:    res,
	}, nil
}

// benchCoord reports coordination KV throughput and round trips per
// operation.
func benchCoord(ctx context.Context, o options) (Section, error) {
	names := []string{"BenchmarkAtomicCheckSet", "BenchmarkCASDistinct", "BenchmarkCASContended", "BenchmarkGet"}
	res, err := runGoBench(ctx, "./appliance/fleet/coord", names, o.benchtime)
	if err != nil {
		return Section{}, err
	}
	s := Section{
		Title:   "Coordination KV (libSQL on loopback): CAS throughput and round trips",
		Command: "go run ./test/bench/dwkbench -only coord",
		Notes:   "An atomic operation with checks is one round trip. CAS = read, then atomic check+set; contended = 8 goroutines on one key (an op is one successful increment).",
		Header:  []string{"operation", "ops/s", "time/op", "round trips/op"},
		Data:    res,
	}
	for _, n := range names {
		r := res[n]
		s.Rows = append(s.Rows, []string{n, fmt.Sprintf("%.0f", r.Extra["ops/s"]), fmtNs(r.NsPerOp), fmt.Sprintf("%.1f", r.Extra["round-trips/op"])})
	}
	return s, nil
}
