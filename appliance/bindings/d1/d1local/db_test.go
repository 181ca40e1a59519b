package d1local

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/dwk/fleet/appliance/bindings/d1/d1test"
	"github.com/dwk/fleet/appliance/worker"
)

// open opens a fresh database in t's temporary directory and closes it when
// the test ends.
func open(t testing.TB) *DB {
	t.Helper()
	db, err := Open(context.Background(), filepath.Join(t.TempDir(), "d1 test.sqlite"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := db.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	})
	return db
}

func TestConformance(t *testing.T) {
	d1test.Run(t, func(t *testing.T) worker.D1Backend { return open(t) })
}

// TestConformanceSharedDatabase runs the suite with every subtest on the
// same database, as a shared central database would be used.
func TestConformanceSharedDatabase(t *testing.T) {
	db := open(t)
	d1test.Run(t, func(*testing.T) worker.D1Backend { return db })
}

func TestReopenKeepsData(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "keep.sqlite")
	db, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(ctx, "CREATE TABLE t (v TEXT); INSERT INTO t VALUES ('kept')"); err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	db, err = Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	row, err := worker.NewD1(db).Prepare("SELECT v FROM t").First(ctx)
	if err != nil || row["v"] != "kept" {
		t.Errorf("after reopening: %v, %v; want v = kept", row, err)
	}
}

func TestClosed(t *testing.T) {
	ctx := context.Background()
	db, err := Open(ctx, filepath.Join(t.TempDir(), "closed.sqlite"))
	if err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
	if _, err := db.Batch(ctx, []worker.D1Query{{SQL: "SELECT 1"}}); !errors.Is(err, ErrClosed) {
		t.Errorf("Batch after Close: %v, want ErrClosed", err)
	}
	if _, err := db.Exec(ctx, "SELECT 1"); !errors.Is(err, ErrClosed) {
		t.Errorf("Exec after Close: %v, want ErrClosed", err)
	}
}

func TestOpenRejectsNonDatabase(t *testing.T) {
	path := filepath.Join(t.TempDir(), "not.sqlite")
	if err := os.WriteFile(path, []byte("this is not a SQLite database, just some text that is long enough"), 0o600); err != nil {
		t.Fatal(err)
	}
	if db, err := Open(context.Background(), path); err == nil {
		db.Close()
		t.Fatal("Open of a text file succeeded, want an error")
	}
}

// TestStatementCacheBounded runs more distinct statements than the cache
// holds and checks the cache stays at its bound and evicted statements
// still run.
func TestStatementCacheBounded(t *testing.T) {
	db := open(t)
	d := worker.NewD1(db)
	ctx := context.Background()
	for i := range stmtCacheSize + 20 {
		if _, err := d.Prepare("SELECT ? + " + strconv.Itoa(i)).Bind(1).First(ctx); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := d.Prepare("SELECT ? + 0").Bind(1).First(ctx); err != nil {
		t.Fatalf("evicted statement: %v", err)
	}
	total := 0
	for range readers {
		c, err := db.readers.get(ctx)
		if err != nil {
			t.Fatal(err)
		}
		defer db.readers.put(c)
		if n := c.cache.len(); n > stmtCacheSize {
			t.Errorf("reader cache holds %d statements, want at most %d", n, stmtCacheSize)
		}
		total += c.cache.len()
	}
	if total == 0 {
		t.Errorf("no reader cached anything")
	}
}

// TestDoubleQuotesNameIdentifiers pins SQLite's strict reading of double
// quotes on every connection: "x" names a column and is never the string
// 'x', on the writer and on the readers alike.
func TestDoubleQuotesNameIdentifiers(t *testing.T) {
	ctx := context.Background()
	db := worker.NewD1(open(t))
	if _, err := db.Exec(ctx, `CREATE TABLE t ("v" TEXT); INSERT INTO t VALUES ('a')`); err != nil {
		t.Fatal(err)
	}
	if row, err := db.Prepare(`SELECT "v" FROM t`).First(ctx); err != nil || row["v"] != "a" {
		t.Errorf(`SELECT "v" = %v, %v; want the column`, row, err)
	}
	for _, sql := range []string{`SELECT "nope" FROM t`, `INSERT INTO t VALUES ("nope")`} {
		if _, err := db.Prepare(sql).All(ctx); err == nil {
			t.Errorf("%s succeeded; want no such column", sql)
		}
	}
}
