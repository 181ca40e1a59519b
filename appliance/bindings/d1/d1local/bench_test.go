package d1local

import (
	"context"
	"testing"

	"github.com/dwk/fleet/appliance/worker"
)

// benchDB opens a database with a 10,000-row table t (id, v).
func benchDB(b *testing.B) *worker.D1 {
	db := worker.NewD1(open(b))
	ctx := context.Background()
	if _, err := db.Exec(ctx, "CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT NOT NULL)"); err != nil {
		b.Fatal(err)
	}
	if _, err := db.Exec(ctx, `INSERT INTO t (id, v)
		WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 10000)
		SELECT x, printf('value %d', x) FROM c`); err != nil {
		b.Fatal(err)
	}
	return db
}

// BenchmarkD1PointQuery is First on a primary key (reader connection).
func BenchmarkD1PointQuery(b *testing.B) {
	db := benchDB(b)
	ctx := context.Background()
	get := db.Prepare("SELECT v FROM t WHERE id = ?")
	i := 0
	for b.Loop() {
		if _, err := get.Bind(1 + i%10000).First(ctx); err != nil {
			b.Fatal(err)
		}
		i++
	}
}

// BenchmarkD1Insert is Run of one INSERT: one durable (synchronous FULL)
// commit per operation.
func BenchmarkD1Insert(b *testing.B) {
	db := benchDB(b)
	ctx := context.Background()
	ins := db.Prepare("INSERT INTO t (v) VALUES (?)")
	for b.Loop() {
		if _, err := ins.Bind("inserted").Run(ctx); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkD1Batch10 is a Batch of ten statements (eight inserts, an update
// and a select) in one transaction.
func BenchmarkD1Batch10(b *testing.B) {
	db := benchDB(b)
	ctx := context.Background()
	ins := db.Prepare("INSERT INTO t (v) VALUES (?)")
	stmts := make([]worker.D1Statement, 0, 10)
	for range 8 {
		stmts = append(stmts, ins.Bind("batched"))
	}
	stmts = append(stmts,
		db.Prepare("UPDATE t SET v = ? WHERE id = ?").Bind("updated", 1),
		db.Prepare("SELECT v FROM t WHERE id = ?").Bind(1))
	for b.Loop() {
		if _, err := db.Batch(ctx, stmts...); err != nil {
			b.Fatal(err)
		}
	}
}
