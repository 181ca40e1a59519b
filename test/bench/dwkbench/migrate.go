package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/dwk/fleet/test/benchdocs"
)

// benchMigrate cuts a box over to a fleet: it times `dwk migrate
// to-central` of a data directory with every kind of store into a serving
// fleet's empty stores, and the downtime from the box's stop to the
// fleet's first answer with moved data.
func benchMigrate(ctx context.Context, o options) (Section, error) {
	bin, err := filepath.Abs(o.dwk)
	if err != nil {
		return Section{}, err
	}
	os.Setenv("DWK_BIN", bin)
	const name = "BenchmarkMigrateToCentral"
	res, err := runGoBench(ctx, "./test/migrate", []string{name}, "1x")
	if err != nil {
		return Section{}, err
	}
	r, ok := res[name]
	if !ok {
		return Section{}, fmt.Errorf("benchmark %s missing", name)
	}
	e := func(k string) float64 { return r.Extra[k] }
	took := time.Duration(e("seconds") * float64(time.Second))
	down := time.Duration(e("downtime-seconds") * float64(time.Second))
	stop := time.Duration(e("stop-seconds") * float64(time.Second))
	return Section{
		Title:   "dwk migrate to-central: a box cut over to a fleet",
		Command: "go run ./test/bench/dwkbench -only migrate  (or: DWK_BIN=bin/dwk go test -run '^$' -bench BenchmarkMigrateToCentral -benchtime 1x ./test/migrate)",
		Notes: "A local data directory with a KV namespace of 2,000 keys of 1 KiB, an R2 bucket of 200 objects of 64 KiB, a D1 database of 5,000 rows " +
			"and 200 Durable Objects (a table and a KV entry each), served by a local `dwk serve` (the box) that answers for a counter object. " +
			"A fleet (`dwk libsql`, versitygw and one replica on the same machine) serves already, empty. The box gets SIGTERM, one " +
			"`dwk migrate to-central` process (--parallel 8) moves everything into the fleet's stores, and a client polls the fleet until it " +
			"answers the counter's moved value. The migration's time covers the whole run: comparing, copying and verifying every entry; " +
			"the downtime runs from the box's stop signal to the fleet's first answer.",
		Header: []string{"measure", "value"},
		Rows: [][]string{
			{"data moved", fmt.Sprintf("%.1f MiB in %.0f entries", e("MB"), e("entries"))},
			{"time", fmtNs(float64(took))},
			{"throughput", fmt.Sprintf("%.2f MiB/s", e("MB/s"))},
			{"entries", fmt.Sprintf("%.0f entries/s", e("entries/s"))},
			{"the box's stop", fmtNs(float64(stop))},
			{"downtime: the box's stop signal to the fleet's first answer", fmtNs(float64(down))},
		},
		Figures: map[string]benchdocs.Figure{
			"mbps":     benchdocs.Fixed(e("MB/s"), 2, "MiB/s"),
			"entries":  benchdocs.Count(e("entries/s"), "entries/s"),
			"time":     benchdocs.Duration(took),
			"size":     benchdocs.Fixed(e("MB"), 1, "MiB"),
			"moved":    benchdocs.Count(e("entries"), "entries"),
			"stop":     benchdocs.Duration(stop),
			"downtime": benchdocs.Duration(down),
		},
		Data: res,
	}, nil
}
