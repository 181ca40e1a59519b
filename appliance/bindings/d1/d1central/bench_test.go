package d1central

import (
	"context"
	"testing"

	"github.com/dwk/fleet/appliance/worker"
)

// The benchmarks mirror d1local's BenchmarkD1PointQuery, Insert and
// Batch10 on the same data, so that `make bench` can print central/local
// ratios. Each reports its round trips per operation.

// benchDB opens a database on a fresh dwk libsql (or DWK_TEST_LIBSQL_URL)
// with a 10,000-row table t (id, v).
func benchDB(b *testing.B) (*DB, *worker.D1) {
	db := startEnv(b).open(b)
	d := worker.NewD1(db)
	ctx := context.Background()
	if _, err := d.Exec(ctx, "CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT NOT NULL)"); err != nil {
		b.Fatal(err)
	}
	if _, err := d.Exec(ctx, `INSERT INTO t (id, v)
		WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 10000)
		SELECT x, printf('value %d', x) FROM c`); err != nil {
		b.Fatal(err)
	}
	return db, d
}

// reportRoundTrips reports the round trips per operation since before.
func reportRoundTrips(b *testing.B, db *DB, before uint64) {
	b.ReportMetric(float64(db.RoundTrips()-before)/float64(b.N), "roundtrips/op")
}

// BenchmarkD1LibsqlPointQuery is First on a primary key.
func BenchmarkD1LibsqlPointQuery(b *testing.B) {
	db, d := benchDB(b)
	ctx := context.Background()
	get := d.Prepare("SELECT v FROM t WHERE id = ?")
	before := db.RoundTrips()
	i := 0
	for b.Loop() {
		if _, err := get.Bind(1 + i%10000).First(ctx); err != nil {
			b.Fatal(err)
		}
		i++
	}
	reportRoundTrips(b, db, before)
}

// BenchmarkD1LibsqlInsert is Run of one INSERT: one durable commit per
// operation on the server.
func BenchmarkD1LibsqlInsert(b *testing.B) {
	db, d := benchDB(b)
	ctx := context.Background()
	ins := d.Prepare("INSERT INTO t (v) VALUES (?)")
	before := db.RoundTrips()
	for b.Loop() {
		if _, err := ins.Bind("inserted").Run(ctx); err != nil {
			b.Fatal(err)
		}
	}
	reportRoundTrips(b, db, before)
}

// BenchmarkD1LibsqlBatch10 is a Batch of ten statements (eight inserts,
// an update and a select) in one transaction.
func BenchmarkD1LibsqlBatch10(b *testing.B) {
	db, d := benchDB(b)
	ctx := context.Background()
	ins := d.Prepare("INSERT INTO t (v) VALUES (?)")
	stmts := make([]worker.D1Statement, 0, 10)
	for range 8 {
		stmts = append(stmts, ins.Bind("batched"))
	}
	stmts = append(stmts,
		d.Prepare("UPDATE t SET v = ? WHERE id = ?").Bind("updated", 1),
		d.Prepare("SELECT v FROM t WHERE id = ?").Bind(1))
	before := db.RoundTrips()
	for b.Loop() {
		if _, err := d.Batch(ctx, stmts...); err != nil {
			b.Fatal(err)
		}
	}
	reportRoundTrips(b, db, before)
}
