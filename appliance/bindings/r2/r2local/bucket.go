// Package r2local is the local backend of the R2 binding: object bodies are
// plain files and their metadata lives in a SQLite index, all under one
// directory.
//
// The directory holds:
//
//	index.db       objects, multipart uploads and parts (SQLite, WAL)
//	blobs/xx/ID    one file per object version or uploaded part, where ID is
//	               the version or part id and xx its first two hex digits
//	tmp/           bodies still being written
//
// Keys never become file names, so any UTF-8 key of up to 1024 bytes works.
// A body is written to tmp/, fsynced and renamed into blobs/ before the index
// row that names it is committed, so a crash never leaves a torn object: at
// worst an unreferenced file, which the next Open removes. A directory must
// be used by one Bucket at a time (the appliance's lockfile sees to that).
//
// Semantics follow S3 and R2 as pinned down by the r2test conformance suite;
// Uploaded times have millisecond precision, as in R2.
package r2local

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/dwk/fleet/appliance/process/sqlitedb"
	"github.com/dwk/fleet/appliance/worker"
)

// Options tune a Bucket. The zero value is the default.
type Options struct {
	// Now is the clock that stamps Uploaded times. Default: time.Now.
	Now func() time.Time
	// Rand is the source of versions and upload ids; reads from it are
	// serialised. Default: crypto/rand.Reader.
	Rand io.Reader
}

// Bucket is an R2 bucket on the local file system. It is safe for
// concurrent use.
type Bucket struct {
	db    *sql.DB
	blobs blobStore
	now   func() time.Time

	randMu sync.Mutex // guards rand
	rand   io.Reader

	// writeMu serialises write transactions, so writers queue in Go rather
	// than spin on SQLite's busy handler.
	writeMu sync.Mutex
}

var _ worker.R2Bucket = (*Bucket)(nil)

// Open opens the bucket stored in dir, creating the directory and its index
// if needed, and removes files a crash left behind. The caller closes the
// Bucket.
func Open(dir string, opts Options) (*Bucket, error) {
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.Rand == nil {
		opts.Rand = rand.Reader
	}
	blobs := blobStore{dir: dir}
	if err := blobs.init(); err != nil {
		return nil, fmt.Errorf("open r2 bucket %s: %w", dir, err)
	}
	ctx := context.Background()
	db, err := sqlitedb.Open(ctx, filepath.Join(dir, "index.db"), sqlitedb.Options{})
	if err != nil {
		return nil, fmt.Errorf("open r2 bucket %s: %w", dir, err)
	}
	if err := migrate(ctx, db); err != nil {
		db.Close()
		return nil, fmt.Errorf("open r2 bucket %s: %w", dir, err)
	}
	if err := sweep(ctx, db, blobs); err != nil {
		db.Close()
		return nil, fmt.Errorf("open r2 bucket %s: %w", dir, err)
	}
	return &Bucket{db: db, blobs: blobs, now: opts.Now, rand: opts.Rand}, nil
}

// Close closes the index. Bodies returned by Get stay readable until the
// caller closes them.
func (b *Bucket) Close() error {
	if err := b.db.Close(); err != nil {
		return fmt.Errorf("close r2 bucket %s: %w", b.blobs.dir, err)
	}
	return nil
}

// newID returns 128 random bits in hex: an object version, upload id or part
// blob id.
func (b *Bucket) newID() (string, error) {
	var id [16]byte
	b.randMu.Lock()
	_, err := io.ReadFull(b.rand, id[:])
	b.randMu.Unlock()
	if err != nil {
		return "", fmt.Errorf("new id: %w", err)
	}
	return hex.EncodeToString(id[:]), nil
}

// uploadedNow is the current time at the precision Uploaded is stored with.
func (b *Bucket) uploadedNow() time.Time {
	return time.UnixMilli(b.now().UnixMilli()).UTC()
}

// writeTx runs fn in one write transaction and commits it.
func (b *Bucket) writeTx(ctx context.Context, fn func(tx *sql.Tx) error) error {
	b.writeMu.Lock()
	defer b.writeMu.Unlock()
	tx, err := b.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("begin: %w", err)
	}
	if err := fn(tx); err != nil {
		tx.Rollback()
		return err
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("commit: %w", err)
	}
	return nil
}

// sweep removes blobs that no index row names: bodies of writes that crashed
// before their commit, or old versions whose removal a crash interrupted.
func sweep(ctx context.Context, db *sql.DB, blobs blobStore) error {
	keep := make(map[string]bool)
	rows, err := db.QueryContext(ctx, `SELECT version FROM objects UNION ALL SELECT blob FROM parts`)
	if err != nil {
		return fmt.Errorf("sweep: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return fmt.Errorf("sweep: %w", err)
		}
		keep[id] = true
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("sweep: %w", err)
	}
	return blobs.sweep(keep)
}

// removeFile deletes path; a file that is already gone is not an error.
func removeFile(path string) error {
	if err := os.Remove(path); err != nil && !os.IsNotExist(err) {
		return err
	}
	return nil
}
