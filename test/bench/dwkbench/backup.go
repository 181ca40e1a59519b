package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/dwk/fleet/test/benchdocs"
)

// benchBackup compares commits/s of `dwk libsql` without and with the
// continuous backup to S3 (versitygw), side by side in one run, and
// reports the backup lag under that load.
func benchBackup(ctx context.Context, o options) (Section, error) {
	// The test harness starts the binary named by DWK_BIN.
	bin, err := filepath.Abs(o.dwk)
	if err != nil {
		return Section{}, err
	}
	os.Setenv("DWK_BIN", bin)
	const name = "BenchmarkBackupCommits"
	res, err := runGoBench(ctx, "./test/libsqlbackup", []string{name}, "1x")
	if err != nil {
		return Section{}, err
	}
	r, ok := res[name]
	if !ok {
		return Section{}, fmt.Errorf("benchmark %s missing", name)
	}
	e := func(k string) float64 { return r.Extra[k] }
	ms := func(k string) time.Duration { return time.Duration(e(k) * float64(time.Millisecond)) }
	off, on := e("off-commits/s"), e("on-commits/s")
	return Section{
		Title:   "dwk libsql continuous backup: commits/s without and with it, and the lag under load",
		Command: "go run ./test/bench/dwkbench -only backup  (or: DWK_BIN=bin/dwk go test -run '^$' -bench BenchmarkBackupCommits -benchtime 1x ./test/libsqlbackup)",
		Notes: fmt.Sprintf("Two `dwk libsql` processes with default settings (synchronous=FULL), one without and one with --backup-s3-* to versitygw (posix backend) on the same loopback and CPUs, default --backup-lag 1s. "+
			"Each gets %.0f writers, one per namespace, each running autocommit INSERTs one after another (one HTTP pipeline each) for %.0fs; first without the backup, then with it. "+
			"Lag: the server's dwk_libsql_backup_lag_seconds (age of the oldest commit not yet in S3), sampled every 50ms during the load; drain: time after the load until nothing is pending.",
			e("namespaces"), e("seconds")),
		Header: []string{"measure", "value", "compared with", "ratio"},
		Rows: [][]string{
			{"commits/s, backup off", fmt.Sprintf("%.0f", off), "", ""},
			{"commits/s, backup on", fmt.Sprintf("%.0f", on), "backup off", fmt.Sprintf("%.2fx", on/off)},
			{"backup lag under load, p50", fmtNs(float64(ms("lag-p50-ms"))), "", ""},
			{"backup lag under load, p99", fmtNs(float64(ms("lag-p99-ms"))), "", ""},
			{"backup lag under load, max", fmtNs(float64(ms("lag-max-ms"))), "--backup-lag 1s", ""},
			{"drain after the load", fmtNs(float64(ms("drain-ms"))), "", ""},
		},
		Figures: map[string]benchdocs.Figure{
			"off":      benchdocs.Count(off, "commits/s"),
			"on":       benchdocs.Count(on, "commits/s"),
			"ratio":    benchdocs.Ratio(on / off),
			"lag_p50":  benchdocs.Duration(ms("lag-p50-ms")),
			"lag_p99":  benchdocs.Duration(ms("lag-p99-ms")),
			"lag_max":  benchdocs.Duration(ms("lag-max-ms")),
			"drain":    benchdocs.Duration(ms("drain-ms")),
			"writers":  benchdocs.Count(e("namespaces"), "writers"),
			"duration": benchdocs.Duration(time.Duration(e("seconds") * float64(time.Second))),
		},
		Data: res,
	}, nil
}
