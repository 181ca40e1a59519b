package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/dwk/fleet/test/benchdocs"
)

// benchMigrate times `dwk migrate to-central` of a data directory with
// every kind of store into a fresh fleet's stores.
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
	return Section{
		Title:   "dwk migrate to-central: a data directory into a fleet's stores",
		Command: "go run ./test/bench/dwkbench -only migrate  (or: DWK_BIN=bin/dwk go test -run '^$' -bench BenchmarkMigrateToCentral -benchtime 1x ./test/migrate)",
		Notes: "A local data directory with a KV namespace of 2,000 keys of 1 KiB, an R2 bucket of 200 objects of 64 KiB, a D1 database of 5,000 rows " +
			"and 200 Durable Objects (a table and a KV entry each), moved by one `dwk migrate to-central` process (--parallel 8) into a fresh fleet's " +
			"`dwk libsql` and versitygw on the same machine; the time covers the whole run: comparing, copying and verifying every entry.",
		Header: []string{"measure", "value"},
		Rows: [][]string{
			{"data moved", fmt.Sprintf("%.1f MiB in %.0f entries", e("MB"), e("entries"))},
			{"time", fmtNs(float64(took))},
			{"throughput", fmt.Sprintf("%.2f MiB/s", e("MB/s"))},
			{"entries", fmt.Sprintf("%.0f entries/s", e("entries/s"))},
		},
		Figures: map[string]benchdocs.Figure{
			"mbps":    benchdocs.Fixed(e("MB/s"), 2, "MiB/s"),
			"entries": benchdocs.Count(e("entries/s"), "entries/s"),
			"time":    benchdocs.Duration(took),
			"size":    benchdocs.Fixed(e("MB"), 1, "MiB"),
			"moved":   benchdocs.Count(e("entries"), "entries"),
		},
		Data: res,
	}, nil
}
