package main

import (
	"context"
	"fmt"
	"strings"
)

// benchLeases reports object leases acquired per second and the cost of
// renewing every held lease in one round trip.
func benchLeases(ctx context.Context, o options) (Section, error) {
	res, err := runGoBench(ctx, "./appliance/fleet/lease", []string{"BenchmarkAcquire", "BenchmarkAcquireParallel", "BenchmarkRenewAll"}, o.benchtime)
	if err != nil {
		return Section{}, err
	}
	s := Section{
		Title:   "Leases: acquisitions per second and batched renewal (libSQL on loopback)",
		Command: "go run ./test/bench/dwkbench -only leases",
		Notes:   "An acquire is one read and one atomic operation on the coordination KV. Renewal extends every held lease in one round trip.",
		Header:  []string{"benchmark", "time/op", "per second"},
		Data:    res,
	}
	for _, name := range sortedNames(res) {
		r := res[name]
		per := ""
		if !strings.HasPrefix(name, "BenchmarkRenewAll") {
			per = fmt.Sprintf("%.0f leases/s", 1e9/r.NsPerOp)
		}
		s.Rows = append(s.Rows, []string{name, fmtNs(r.NsPerOp), per})
	}
	return s, nil
}
