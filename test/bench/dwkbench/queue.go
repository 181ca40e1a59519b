package main

import (
	"context"
	"fmt"

	"github.com/dwk/fleet/test/benchdocs"
)

// benchQueue compares end-to-end queue throughput (batched sends, consumers
// claiming and acking batches of 100) of the central broker (libSQL over
// loopback) with the local one (SQLite file), and with Cloudflare Queues'
// published 5,000 messages/s per queue.
func benchQueue(ctx context.Context, o options) (Section, error) {
	const cloudflare = 5000.0
	res, err := runGoBench(ctx, "./appliance/bindings/queue/queuecentral", []string{"BenchmarkEndToEnd"}, "20000x")
	if err != nil {
		return Section{}, err
	}
	s := Section{
		Title:   "Queues: end-to-end messages/s, central (libSQL) against local (SQLite) and Cloudflare's 5,000/s per queue",
		Command: "go run ./test/bench/dwkbench -only queue",
		Notes:   "20,000 messages of 100 bytes; two producers send batches of 100 while N consumers (a broker and client each) claim and ack batches of 100. Round trips count every libSQL request (send, claim, settle).",
		Header:  []string{"consumers", "central msgs/s", "local msgs/s", "central/local", "central/Cloudflare", "round trips/msg"},
		Figures: map[string]benchdocs.Figure{"cloudflare_msgs_s": benchdocs.Count(cloudflare, "msgs/s")},
		Data:    res,
	}
	for _, n := range []int{1, 4} {
		c, ok1 := res[fmt.Sprintf("BenchmarkEndToEnd/backend=central/consumers=%d", n)]
		l, ok2 := res[fmt.Sprintf("BenchmarkEndToEnd/backend=local/consumers=%d", n)]
		if !ok1 || !ok2 {
			return Section{}, fmt.Errorf("queue benchmark for %d consumers missing", n)
		}
		cm, lm := c.Extra["msgs/s"], l.Extra["msgs/s"]
		s.Rows = append(s.Rows, []string{fmt.Sprint(n), fmt.Sprintf("%.0f", cm), fmt.Sprintf("%.0f", lm),
			fmt.Sprintf("%.2fx", cm/lm), fmt.Sprintf("%.2fx", cm/cloudflare), fmt.Sprintf("%.3f", c.Extra["roundtrips/msg"])})
	}
	return s, nil
}
