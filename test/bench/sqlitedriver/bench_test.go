package sqlitedriver

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// value is the payload of every inserted row: 100 bytes of text.
var value = strings.Repeat("x", 100)

// BenchmarkInsertCommit measures single-row autocommit inserts: one
// transaction, and so one WAL commit, per operation.
func BenchmarkInsertCommit(b *testing.B) {
	for _, sync := range []string{"FULL", "NORMAL"} {
		for _, d := range drivers {
			b.Run(sync+"/"+d.name, func(b *testing.B) {
				t := openTarget(b, d, sync)
				for b.Loop() {
					if err := t.insert(value); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// BenchmarkPointSelect measures reading one row by primary key from a
// 10,000-row table, keys drawn from a fixed-seed generator.
func BenchmarkPointSelect(b *testing.B) {
	const rows = 10_000
	for _, d := range drivers {
		b.Run(d.name, func(b *testing.B) {
			t := openTarget(b, d, "FULL")
			if err := t.insertMany(rows, value); err != nil {
				b.Fatal(err)
			}
			r := rand.New(rand.NewPCG(1, 2))
			for b.Loop() {
				if _, err := t.get(1 + r.Int64N(rows)); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkBatchInsert1000 measures 1,000 inserts in one transaction
// (synchronous FULL); one operation is the whole transaction.
func BenchmarkBatchInsert1000(b *testing.B) {
	for _, d := range drivers {
		b.Run(d.name, func(b *testing.B) {
			t := openTarget(b, d, "FULL")
			for b.Loop() {
				if err := t.insertMany(1000, value); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
