package d1test

import (
	"fmt"
	"sync"
	"testing"
)

// testConcurrent uses one backend from many goroutines at once, mixing
// reads, writes, batches and Exec, and checks that every write landed once.
func testConcurrent(t *testing.T, f *fixture) {
	const goroutines, rounds = 8, 10
	ctx := t.Context()
	tbl := f.table(t, "conc", "id INTEGER PRIMARY KEY, g INTEGER NOT NULL, i INTEGER NOT NULL, UNIQUE (g, i)")
	insert := f.db.Prepare("INSERT INTO " + tbl + " (g, i) VALUES (?, ?)")
	countOf := f.db.Prepare("SELECT count(*) AS n FROM " + tbl + " WHERE g = ?")
	var wg sync.WaitGroup
	for g := range goroutines {
		wg.Go(func() {
			for i := range rounds {
				base := 4 * i
				if _, err := insert.Bind(g, base).Run(ctx); err != nil {
					t.Errorf("goroutine %d: Run: %v", g, err)
					return
				}
				rs, err := f.db.Batch(ctx, insert.Bind(g, base+1), insert.Bind(g, base+2), countOf.Bind(g))
				if err != nil {
					t.Errorf("goroutine %d: Batch: %v", g, err)
					return
				}
				if got, want := rs[2].Rows[0][0], int64(base+3); got != want {
					t.Errorf("goroutine %d: count in batch = %v, want %d", g, got, want)
				}
				if _, err := f.db.Exec(ctx, fmt.Sprintf("INSERT INTO %s (g, i) VALUES (%d, %d)", tbl, g, base+3)); err != nil {
					t.Errorf("goroutine %d: Exec: %v", g, err)
					return
				}
				row, err := countOf.Bind(g).First(ctx)
				if err != nil {
					t.Errorf("goroutine %d: First: %v", g, err)
					return
				}
				if got, want := row["n"], int64(base+4); got != want {
					t.Errorf("goroutine %d: count = %v, want %d", g, got, want)
				}
			}
		})
	}
	wg.Wait()
	if got, want := f.count(t, tbl), int64(goroutines*rounds*4); got != want {
		t.Errorf("rows = %d, want %d", got, want)
	}
}
