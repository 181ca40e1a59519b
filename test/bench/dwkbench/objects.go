package main

import (
	"context"
	"fmt"
)

// benchObjects compares one request to a counter object in local mode
// with central mode (lease held here) and central mode through a replica
// that forwards to the holder.
func benchObjects(ctx context.Context, o options) (Section, error) {
	res, err := runGoBench(ctx, "./appliance/objects/objcentral", []string{"BenchmarkObjectRequest"}, o.benchtime)
	if err != nil {
		return Section{}, err
	}
	s := Section{
		Title:   "Objects: one request to a counter object, central against local mode",
		Command: "go run ./test/bench/dwkbench -only objects",
		Notes:   "In process through the object runtime. get = create-if-missing + select (2 statements), inc = 3 statements; in central mode each statement is one round trip to the object's libSQL database on loopback, and the held lease costs none. Forwarded = sent to a replica that does not hold the lease (one internal HTTP hop). Ratio = candidate time / local time.",
		Header:  []string{"operation", "local time/op", "central time/op", "central/local", "forwarded time/op", "forwarded/local"},
		Data:    res,
	}
	for _, op := range []string{"get", "inc"} {
		l, ok1 := res["BenchmarkObjectRequest/mode=local/op="+op]
		c, ok2 := res["BenchmarkObjectRequest/mode=central/op="+op]
		f, ok3 := res["BenchmarkObjectRequest/mode=central-forwarded/op="+op]
		if !ok1 || !ok2 || !ok3 {
			return Section{}, fmt.Errorf("object benchmark for op=%s missing", op)
		}
		s.Rows = append(s.Rows, []string{op, fmtNs(l.NsPerOp), fmtNs(c.NsPerOp), fmt.Sprintf("%.1fx", c.NsPerOp/l.NsPerOp),
			fmtNs(f.NsPerOp), fmt.Sprintf("%.1fx", f.NsPerOp/l.NsPerOp)})
	}
	return s, nil
}
