package objlocal

import (
	"context"
	"fmt"

	"github.com/dwk/fleet/appliance/process/sqlitedb"
)

// OpenFile opens the object database file at path with opts (one
// connection is forced). Central mode uses it for the local replicas of
// the objects it holds.
func OpenFile(ctx context.Context, path string, opts sqlitedb.Options) (*DB, error) {
	db := &DB{path: path, opts: opts}
	if _, err := db.handle(ctx); err != nil {
		return nil, err
	}
	return db, nil
}

// Path is the database file.
func (d *DB) Path() string { return d.path }

// Checkpoint copies every committed page of the write-ahead log into the
// database file and truncates the log to zero bytes. It must not be called
// while a Transaction callback runs (the connection is busy). A database
// that DeleteAll removed and nothing recreated has nothing to checkpoint.
func (d *DB) Checkpoint(ctx context.Context) error {
	d.mu.Lock()
	db, closed := d.db, d.closed
	d.mu.Unlock()
	if closed {
		return errDBClosed
	}
	if db == nil {
		return nil
	}
	var busy, logFrames, done int64
	if err := db.QueryRowContext(ctx, "PRAGMA wal_checkpoint(TRUNCATE)").Scan(&busy, &logFrames, &done); err != nil {
		return fmt.Errorf("checkpoint: %w", err)
	}
	if busy != 0 {
		return fmt.Errorf("checkpoint: database busy (%d of %d frames copied)", done, logFrames)
	}
	return nil
}
