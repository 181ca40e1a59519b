package d1test

import (
	"context"
	"errors"
	"testing"
	"time"
)

// slowQuery runs for many seconds on any engine, but stops by itself, so a
// backend that cannot interrupt the server does not leave it busy forever.
const slowQuery = "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 100000000) SELECT sum(x) FROM c"

// slowSelect is slowQuery as a plain SELECT, which a backend may send to a
// read-only connection.
const slowSelect = "SELECT (" + slowQuery + ")"

// testContextCancelled checks that calls with an already cancelled context
// fail with context.Canceled and change nothing.
func testContextCancelled(t *testing.T, f *fixture) {
	tbl := f.table(t, "cancel", "id INTEGER PRIMARY KEY, v TEXT")
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	insert := f.db.Prepare("INSERT INTO " + tbl + " (v) VALUES (?)")
	calls := []struct {
		name string
		call func() error
	}{
		{"Run", func() error { _, err := insert.Bind("run").Run(ctx); return err }},
		{"First", func() error { _, err := f.db.Prepare("SELECT 1").First(ctx); return err }},
		{"Batch", func() error { _, err := f.db.Batch(ctx, insert.Bind("a"), insert.Bind("b")); return err }},
		{"Exec", func() error { _, err := f.db.Exec(ctx, "INSERT INTO "+tbl+" (v) VALUES ('exec')"); return err }},
	}
	for _, c := range calls {
		if err := c.call(); !errors.Is(err, context.Canceled) {
			t.Errorf("%s with a cancelled context: error %v, want context.Canceled", c.name, err)
		}
	}
	if got := f.count(t, tbl); got != 0 {
		t.Errorf("rows = %d, want 0", got)
	}
}

// testContextDeadline checks that a deadline interrupts a running statement
// promptly, that an interrupted batch is rolled back, and that the database
// works afterwards.
func testContextDeadline(t *testing.T, f *fixture) {
	tbl := f.table(t, "deadline", "id INTEGER PRIMARY KEY, v TEXT")
	insert := f.db.Prepare("INSERT INTO " + tbl + " (v) VALUES (?)")
	const limit = 10 * time.Second // far below the slow query's run time
	calls := []struct {
		name  string
		index int
		call  func(ctx context.Context) error
	}{
		{"All", 0, func(ctx context.Context) error { _, err := f.db.Prepare(slowQuery).All(ctx); return err }},
		{"First of a SELECT", 0, func(ctx context.Context) error { _, err := f.db.Prepare(slowSelect).First(ctx); return err }},
		{"Batch", 1, func(ctx context.Context) error {
			_, err := f.db.Batch(ctx, insert.Bind("rolled back"), f.db.Prepare(slowQuery))
			return err
		}},
		{"Exec", 1, func(ctx context.Context) error {
			_, err := f.db.Exec(ctx, "INSERT INTO "+tbl+" (v) VALUES ('kept'); "+slowQuery)
			return err
		}},
	}
	for _, c := range calls {
		ctx, cancel := context.WithTimeout(t.Context(), 100*time.Millisecond)
		start := time.Now()
		err := c.call(ctx)
		elapsed := time.Since(start)
		cancel()
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("%s: error %v, want context.DeadlineExceeded", c.name, err)
			continue
		}
		wantD1Error(t, err, c.index)
		if elapsed > limit {
			t.Errorf("%s: returned after %v, want well under %v", c.name, elapsed, limit)
		}
	}
	r := f.all(t, "SELECT v FROM "+tbl+" ORDER BY id")
	if want := [][]any{{"kept"}}; !equalRows(r.Rows, want) {
		t.Errorf("rows = %v, want only the Exec statement that finished before the deadline", r.Rows)
	}
	if _, err := insert.Bind("after").Run(t.Context()); err != nil {
		t.Errorf("insert after the interruptions: %v", err)
	}
}
