package sqlitedb

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

func TestOpenAppliesPragmas(t *testing.T) {
	ctx := context.Background()
	db, err := Open(ctx, filepath.Join(t.TempDir(), "a b.db"), Options{Synchronous: "NORMAL"})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var mode string
	if err := db.QueryRowContext(ctx, "PRAGMA journal_mode").Scan(&mode); err != nil {
		t.Fatal(err)
	}
	if mode != "wal" {
		t.Errorf("journal_mode = %q, want wal", mode)
	}
	var sync int
	if err := db.QueryRowContext(ctx, "PRAGMA synchronous").Scan(&sync); err != nil {
		t.Fatal(err)
	}
	if sync != 1 {
		t.Errorf("synchronous = %d, want 1 (NORMAL)", sync)
	}
}

func TestCreateEmptyMakesAWritableWALDatabase(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "new.db")
	if err := CreateEmpty(path, true); err != nil {
		t.Fatal(err)
	}
	if err := CreateEmpty(path, false); err == nil {
		t.Fatal("CreateEmpty over an existing file succeeded")
	}
	db, err := Open(ctx, path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var tables int
	if err := db.QueryRowContext(ctx, "SELECT count(*) FROM sqlite_master").Scan(&tables); err != nil {
		t.Fatal(err)
	}
	if tables != 0 {
		t.Errorf("the new database has %d schema entries, want none", tables)
	}
	if _, err := db.ExecContext(ctx, "CREATE TABLE t (x); INSERT INTO t VALUES (1)"); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path + "-wal"); err != nil {
		t.Errorf("a write left no log: %v", err)
	}
}

func TestExclusiveKeepsTheLogIndexInMemory(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	made := filepath.Join(dir, "made.db")
	if err := CreateEmpty(made, false); err != nil {
		t.Fatal(err)
	}
	// A new file, and one in WAL mode already.
	for _, path := range []string{filepath.Join(dir, "new.db"), made} {
		db, err := Open(ctx, path, Options{Exclusive: true, MaxOpenConns: 1})
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		if _, err := db.ExecContext(ctx, "CREATE TABLE t (x); INSERT INTO t VALUES (1)"); err != nil {
			t.Fatal(err)
		}
		var mode string
		if err := db.QueryRowContext(ctx, "PRAGMA journal_mode").Scan(&mode); err != nil || mode != "wal" {
			t.Fatalf("%s: journal_mode = %q, %v; want wal", path, mode, err)
		}
		if _, err := os.Stat(path + "-wal"); err != nil {
			t.Errorf("%s: a write left no log: %v", path, err)
		}
		if _, err := os.Stat(path + "-shm"); !os.IsNotExist(err) {
			t.Errorf("%s-shm: %v; want no shared memory file", path, err)
		}
	}
}
