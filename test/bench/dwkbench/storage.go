package main

import "context"

// benchStorage compares central backends (libSQL, S3 via versitygw, all on
// loopback) with local ones (SQLite files, plain files) for the same
// operations.
func benchStorage(ctx context.Context, o options) (Section, error) {
	const d1l, d1c = "./appliance/bindings/d1/d1local", "./appliance/bindings/d1/d1central"
	const r2l, r2c = "./appliance/bindings/r2/r2local", "./appliance/bindings/r2/r2central"
	pairs := []pair{
		{label: "D1 point query", base: goBench{d1l, "BenchmarkD1PointQuery"}, alt: goBench{d1c, "BenchmarkD1LibsqlPointQuery"}},
		{label: "D1 insert", base: goBench{d1l, "BenchmarkD1Insert"}, alt: goBench{d1c, "BenchmarkD1LibsqlInsert"}},
		{label: "D1 10-statement batch", base: goBench{d1l, "BenchmarkD1Batch10"}, alt: goBench{d1c, "BenchmarkD1LibsqlBatch10"}},
		{label: "R2 put 4 KiB", base: goBench{r2l, "BenchmarkR2Put4KiB"}, alt: goBench{r2c, "BenchmarkS3Put4KiB"}},
		{label: "R2 get 4 KiB", base: goBench{r2l, "BenchmarkR2Get4KiB"}, alt: goBench{r2c, "BenchmarkS3Get4KiB"}},
		{label: "R2 head", base: goBench{r2l, "BenchmarkR2Head"}, alt: goBench{r2c, "BenchmarkS3Head"}},
	}
	for i := range pairs {
		pairs[i].baseName, pairs[i].altName = "local", "central"
	}
	return runPairs(ctx, "Storage: central against local mode (D1, R2)",
		"go run ./test/bench/dwkbench -only storage",
		"Central D1 is a real `dwk libsql` on loopback; central R2 is versitygw (posix backend) on loopback. Ratio = central time / local time.",
		pairs, o.benchtime)
}
