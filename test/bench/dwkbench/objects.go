package main

import (
	"context"
	"fmt"
)

// benchObjects compares one request to a counter object in local mode
// with central mode (lease held here, served from the local replica) and
// central mode through a replica that forwards to the holder; and times
// opening a 1 MB object with a cold and a warm replica cache.
func benchObjects(ctx context.Context, o options) (Section, error) {
	res, err := runGoBench(ctx, "./appliance/bindings/objects/objcentral", []string{"BenchmarkObjectRequest", "BenchmarkObjectOpen"}, o.benchtime)
	if err != nil {
		return Section{}, err
	}
	s := Section{
		Title:   "Objects: one request to a counter object, central against local mode",
		Command: "go run ./test/bench/dwkbench -only objects",
		Notes: "In process through the object runtime. get = create-if-missing + select (2 statements, no writes), inc = 3 statements (one write). " +
			"In central mode the holder serves reads from its local replica and commits an event's writes at the object's primary database in libSQL " +
			"(the changed pages, epoch-guarded) in one round trip over the object's commit stream (Hrana over a WebSocket) before the response leaves; the held lease costs none. " +
			"Round trips = round trips to object databases per request. Forwarded = sent to a replica that does not hold the lease (one internal HTTP hop). " +
			"Open rows: opening a 1 MB object on a replica, with an empty cache (the whole database is fetched) and with a current copy (one round trip). " +
			"Ratio = candidate time / local time.",
		Header: []string{"operation", "local time/op", "central time/op", "central/local", "round trips", "forwarded time/op", "forwarded/local"},
		Data:   res,
	}
	for _, op := range []string{"get", "inc"} {
		l, ok1 := res["BenchmarkObjectRequest/mode=local/op="+op]
		c, ok2 := res["BenchmarkObjectRequest/mode=central/op="+op]
		f, ok3 := res["BenchmarkObjectRequest/mode=central-forwarded/op="+op]
		if !ok1 || !ok2 || !ok3 {
			return Section{}, fmt.Errorf("object benchmark for op=%s missing", op)
		}
		trips, ok := c.Extra["roundtrips/op"]
		if !ok {
			return Section{}, fmt.Errorf("object benchmark for op=%s reports no round trips", op)
		}
		s.Rows = append(s.Rows, []string{op, fmtNs(l.NsPerOp), fmtNs(c.NsPerOp), fmt.Sprintf("%.1fx", c.NsPerOp/l.NsPerOp),
			fmt.Sprintf("%.2f", trips), fmtNs(f.NsPerOp), fmt.Sprintf("%.1fx", f.NsPerOp/l.NsPerOp)})
	}
	for _, cache := range []string{"cold", "warm"} {
		r, ok := res["BenchmarkObjectOpen/cache="+cache]
		if !ok {
			return Section{}, fmt.Errorf("object open benchmark for cache=%s missing", cache)
		}
		t, ok := r.Extra["roundtrips/op"]
		if !ok {
			return Section{}, fmt.Errorf("object open benchmark for cache=%s reports no round trips", cache)
		}
		trips := fmt.Sprintf("%.2f", t)
		s.Rows = append(s.Rows, []string{"open 1 MB, " + cache + " cache", "", fmtNs(r.NsPerOp), "", trips, "", ""})
	}
	return s, nil
}
