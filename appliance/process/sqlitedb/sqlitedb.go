// Package sqlitedb opens SQLite files the way every local-mode store in dwk
// uses them: the pure-Go modernc.org/sqlite driver, WAL journal, a busy
// timeout, foreign keys on, and a chosen synchronous level.
//
// See docs/sqlite-driver.md for why this driver was chosen.
package sqlitedb

import (
	"context"
	"database/sql"
	"fmt"
	"io"
	"net/url"
	"os"
	"strings"
	"time"

	_ "modernc.org/sqlite" // registers the "sqlite" driver
)

// Options tune an opened database. The zero value is the default.
type Options struct {
	// Synchronous is the PRAGMA synchronous level. Default: FULL.
	Synchronous string
	// BusyTimeout is how long a writer waits for the lock. Default: 5s.
	BusyTimeout time.Duration
	// MaxOpenConns caps the pool. Default: 0 (database/sql's unlimited).
	MaxOpenConns int
	// ReadOnly opens the file read-only.
	ReadOnly bool
	// ManualCheckpoints turns SQLite's automatic WAL checkpoints off: the
	// caller checkpoints (central mode reads the log before it is folded
	// into the database file).
	ManualCheckpoints bool
	// Exclusive keeps the file locked by its one connection for as long
	// as it is open (locking_mode EXCLUSIVE, set before the log is first
	// used): the log's index is then kept in memory, without a shared
	// memory file to create and remove. Only for a file no other
	// connection opens; MaxOpenConns must be 1.
	Exclusive bool
}

// Open opens (creating if needed) the SQLite file at path and checks that it
// answers. The caller closes the returned DB.
func Open(ctx context.Context, path string, o Options) (*sql.DB, error) {
	if o.Synchronous == "" {
		o.Synchronous = "FULL"
	}
	if o.BusyTimeout == 0 {
		o.BusyTimeout = 5 * time.Second
	}
	q := url.Values{}
	// The locking mode first, before any pragma that reads the file: a
	// file in WAL mode opened under EXCLUSIVE keeps its log index in
	// memory, not in a shared memory file.
	if o.Exclusive {
		q.Add("_pragma", "locking_mode(EXCLUSIVE)")
	}
	// synchronous before the journal mode: the switch of a new file to
	// WAL is then written under it (no fsync for a cache opened with OFF).
	q.Add("_pragma", "synchronous("+o.Synchronous+")")
	q.Add("_pragma", fmt.Sprintf("busy_timeout(%d)", o.BusyTimeout.Milliseconds()))
	// Switching a file that is in WAL mode already to WAL opens its log
	// index in a shared memory file, even under EXCLUSIVE locking: skip
	// the switch for such a file.
	if !o.Exclusive || !inWALMode(path) {
		q.Add("_pragma", "journal_mode(WAL)")
	}
	q.Add("_pragma", "foreign_keys(1)")
	if o.ManualCheckpoints {
		q.Add("_pragma", "wal_autocheckpoint(0)")
	}
	q.Set("_txlock", "immediate")
	if o.ReadOnly {
		q.Set("mode", "ro")
	}
	dsn := "file:" + (&url.URL{Path: path}).EscapedPath() + "?" + q.Encode()
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, fmt.Errorf("open sqlite %s: %w", path, err)
	}
	db.SetMaxOpenConns(o.MaxOpenConns)
	// Two processes turning a brand-new file into WAL at once get
	// SQLITE_BUSY at once, without the busy timeout; retry until it passes.
	deadline := time.Now().Add(o.BusyTimeout)
	for {
		err = db.PingContext(ctx)
		if err == nil {
			return db, nil
		}
		if !strings.Contains(err.Error(), "database is locked") || time.Now().After(deadline) {
			db.Close()
			return nil, fmt.Errorf("open sqlite %s: %w", path, err)
		}
		select {
		case <-ctx.Done():
			db.Close()
			return nil, fmt.Errorf("open sqlite %s: %w", path, ctx.Err())
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// inWALMode reports whether the database file at path exists and is in
// WAL mode (its header's read and write versions are 2).
func inWALMode(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	var h [20]byte
	if _, err := io.ReadFull(f, h[:]); err != nil {
		return false
	}
	return h[18] == 2 && h[19] == 2
}
