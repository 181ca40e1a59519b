package walpages_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/dwk/fleet/appliance/bindings/objects/objcentral/walpages"
	"github.com/dwk/fleet/appliance/process/sqlitedb"
)

// TestPagesRebuildTheDatabase writes through SQLite with checkpoints off,
// applies the pages Read returns to a copy of the database file taken
// before, and checks that the copy equals the file SQLite checkpoints.
func TestPagesRebuildTheDatabase(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	path := filepath.Join(dir, "db.sqlite")
	db, err := sqlitedb.Open(ctx, path, sqlitedb.Options{Synchronous: "OFF", ManualCheckpoints: true, MaxOpenConns: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	mustExec := func(q string, args ...any) {
		t.Helper()
		if _, err := db.ExecContext(ctx, q, args...); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	mustExec("CREATE TABLE t (id INTEGER PRIMARY KEY AUTOINCREMENT, v BLOB)")
	mustExec("PRAGMA wal_checkpoint(TRUNCATE)")
	before, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}

	mustExec("INSERT INTO t (v) VALUES (randomblob(3000))")
	first, err := walpages.Read(path + "-wal")
	if err != nil {
		t.Fatal(err)
	}
	if first.Frames == 0 || len(first.Pages) == 0 || first.DBSize == 0 {
		t.Fatalf("after one commit: %d frames, %d pages, size %d", first.Frames, len(first.Pages), first.DBSize)
	}
	for range 20 {
		mustExec("INSERT INTO t (v) VALUES (randomblob(5000))")
	}
	mustExec("DELETE FROM t WHERE id % 3 = 0")
	// A rolled-back transaction must add nothing to what Read returns.
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tx.ExecContext(ctx, "INSERT INTO t (v) VALUES (randomblob(4000))"); err != nil {
		t.Fatal(err)
	}
	tx.Rollback()

	rest, err := walpages.ReadFrom(path+"-wal", first.End)
	if err != nil {
		t.Fatal(err)
	}
	all, err := walpages.Read(path + "-wal")
	if err != nil {
		t.Fatal(err)
	}
	if rest.Frames != all.Frames || rest.DBSize != all.DBSize || rest.Salt1 != all.Salt1 {
		t.Fatalf("reading on from a position changed the log: %+v vs %+v", rest.Frames, all.Frames)
	}
	if len(rest.Pages) == 0 || len(rest.Pages) > len(all.Pages) {
		t.Fatalf("reading on from a position: %d pages, all: %d", len(rest.Pages), len(all.Pages))
	}
	if again, err := walpages.ReadFrom(path+"-wal", rest.End); err != nil || len(again.Pages) != 0 || again.Frames != rest.Frames {
		t.Fatalf("reading on from the end: %d pages, %d frames, %v", len(again.Pages), again.Frames, err)
	}
	rebuilt := apply(t, before, first)
	rebuilt = apply(t, rebuilt, rest)

	mustExec("PRAGMA wal_checkpoint(TRUNCATE)")
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(rebuilt, want) {
		t.Fatalf("rebuilt database (%d bytes) differs from SQLite's checkpoint (%d bytes)", len(rebuilt), len(want))
	}
	if l, err := walpages.Read(path + "-wal"); err != nil || l.Frames != 0 {
		t.Errorf("after a truncating checkpoint: %d frames, %v", l.Frames, err)
	}
}

// apply writes the log's pages over db and cuts it to the log's size.
func apply(t *testing.T, db []byte, l walpages.Log) []byte {
	t.Helper()
	size := int(l.DBSize) * l.PageSize
	out := make([]byte, size)
	copy(out, db)
	for pgno, p := range l.Pages {
		if len(p) != l.PageSize {
			t.Fatalf("page %d has %d bytes", pgno, len(p))
		}
		if int(pgno) > int(l.DBSize) {
			continue
		}
		copy(out[(int(pgno)-1)*l.PageSize:], p)
	}
	return out
}

func TestParseRejectsAndStops(t *testing.T) {
	if _, err := walpages.Parse(bytes.Repeat([]byte{1}, 64)); err == nil {
		t.Error("Parse accepted a file that is not a WAL")
	}
	if l, err := walpages.Parse(nil); err != nil || l.Frames != 0 {
		t.Errorf("empty log: %+v, %v", l, err)
	}
	if l, err := walpages.Read(filepath.Join(t.TempDir(), "missing")); err != nil || l.Frames != 0 {
		t.Errorf("missing log: %+v, %v", l, err)
	}
}
