// Package d1local is the local-mode D1 backend: one SQLite file per D1
// database, run in-process on the pure-Go SQLite (modernc.org/sqlite's
// translation, driven through appliance/libsql/sqlite, the binding the
// libSQL server uses; see docs/sqlite-driver.md for why not through
// database/sql).
//
// A DB holds one writer connection and a few query-only reader connections.
// Batches and Exec that may write go to the writer, one at a time, which is
// also how Cloudflare runs a D1 database; batches made only of SELECT or
// VALUES statements go to a reader and run alongside the writer (WAL).
// Connection-local state (TEMP tables, the SQL functions changes() and
// last_insert_rowid()) is therefore not shared between writes and reads;
// D1 promises none either.
// Every connection uses the journal mode, synchronous level, busy timeout and
// foreign-key setting of appliance/process/sqlitedb.
//
// Bookmarks (worker.D1Session): Open creates the position's table; every
// write advances it in its transaction (a lone write statement runs in
// BEGIN IMMEDIATE ... COMMIT for this, unless SQLite refuses it inside a
// transaction: d1.OutsideTransaction), and a session's query reads it on
// the connection that runs the query, before and after the statements.
//
// Meta: Changes and LastRowID are SQLite's sqlite3_changes and
// sqlite3_last_insert_rowid, reported only for statements that changed rows.
// SQLite keeps no per-statement read and write counters that this binding
// exposes, so RowsRead is the number of rows returned and RowsWritten the
// number of rows changed (worker.D1Meta allows this approximation).
package d1local

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/dwk/fleet/appliance/bindings/d1"
	"github.com/dwk/fleet/appliance/worker"
)

// Tuning that callers have no reason to change.
const (
	// readers is the number of query-only connections per database.
	readers = 4
	// stmtCacheSize bounds the prepared statements kept per connection.
	stmtCacheSize = 128
	// busyTimeout is how long a connection waits for a lock another process
	// holds, as in appliance/process/sqlitedb.
	busyTimeout = 5 * time.Second
)

// ErrClosed is returned by every call on a closed DB.
var ErrClosed = errors.New("d1local: database closed")

// DB is one D1 database on one SQLite file. It is safe for concurrent use.
type DB struct {
	path    string
	writer  *pool // one connection: everything that may write
	readers *pool // query-only connections for read-only batches

	closeOnce sync.Once
	closeErr  error
}

var _ worker.D1Backend = (*DB)(nil)

// Open opens (creating if needed) the D1 database in the SQLite file at path.
// ctx bounds the opening only. The caller closes the DB.
func Open(ctx context.Context, path string) (*DB, error) {
	w, err := newPool(ctx, path, 1, false)
	if err != nil {
		return nil, fmt.Errorf("d1local: open %s: %w", path, err)
	}
	if err := w.init(ctx); err != nil {
		w.close()
		return nil, fmt.Errorf("d1local: open %s: %w", path, err)
	}
	r, err := newPool(ctx, path, readers, true)
	if err != nil {
		w.close()
		return nil, fmt.Errorf("d1local: open %s: %w", path, err)
	}
	return &DB{path: path, writer: w, readers: r}, nil
}

// Close waits for the calls in flight to finish, then closes every
// connection. Calls after Close fail with ErrClosed. Close is idempotent.
func (db *DB) Close() error {
	db.closeOnce.Do(func() {
		// The writer closes last: the last connection to close checkpoints
		// the WAL into the database file.
		db.closeErr = errors.Join(db.readers.close(), db.writer.close())
		if db.closeErr != nil {
			db.closeErr = fmt.Errorf("d1local: close %s: %w", db.path, db.closeErr)
		}
	})
	return db.closeErr
}

// Batch runs stmts in order as one transaction (BEGIN IMMEDIATE when any of
// them may write) and returns one result per statement. On any failure
// nothing takes effect and the error is a *worker.D1Error naming the failing
// statement; a cancelled ctx interrupts the running statement and the error
// then also matches ctx.Err().
func (db *DB) Batch(ctx context.Context, stmts []worker.D1Query) ([]worker.D1Result, error) {
	return db.batch(ctx, stmts, nil)
}

// BatchAfter implements worker.D1Backend: Batch, after checking on the
// connection that runs it that the database has reached after, with the
// bookmark after the batch on every result. Positions only grow, so what
// the check read the statements see too.
func (db *DB) BatchAfter(ctx context.Context, after worker.D1Position, stmts []worker.D1Query) ([]worker.D1Result, error) {
	return db.batch(ctx, stmts, &after)
}

// batch runs Batch; after is nil outside a session.
func (db *DB) batch(ctx context.Context, stmts []worker.D1Query, after *worker.D1Position) ([]worker.D1Result, error) {
	if len(stmts) == 0 {
		return []worker.D1Result{}, nil
	}
	readOnly := true
	for i, q := range stmts {
		if d1.TransactionControl(q.SQL) {
			return nil, &worker.D1Error{Index: i, SQL: q.SQL, Err: d1.ErrTransactionControl}
		}
		readOnly = readOnly && d1.ReadOnly(q.SQL)
	}
	p := db.writer
	if readOnly {
		p = db.readers
	}
	c, err := p.get(ctx)
	if err != nil {
		return nil, &worker.D1Error{Index: 0, SQL: stmts[0].SQL, Err: fmt.Errorf("d1 batch: %w", err)}
	}
	defer p.put(c)
	return c.batch(ctx, stmts, !readOnly, after)
}

// Exec runs the statements of sql one after another, each in its own
// transaction, on the writer, and stops at the first failure, which it
// returns as a *worker.D1Error with the statement's index; the result then
// counts the statements that succeeded. Statements are split by SQLite's own
// parser, so semicolons in strings, comments and trigger bodies are safe.
// Statements may not have parameters. A script may use BEGIN and COMMIT, but
// a transaction it leaves open is rolled back and reported as an error.
func (db *DB) Exec(ctx context.Context, sql string) (worker.D1ExecResult, error) {
	start := time.Now()
	c, err := db.writer.get(ctx)
	if err != nil {
		return worker.D1ExecResult{}, &worker.D1Error{Index: 0, SQL: sql, Err: fmt.Errorf("d1 exec: %w", err)}
	}
	defer db.writer.put(c)
	n, err := c.exec(ctx, sql)
	if n > 0 {
		// The statements that ran committed one by one; the position
		// counts them as one commit, after the last.
		if _, berr := c.run(context.WithoutCancel(ctx), worker.D1Query{SQL: d1.BookmarkAdvance}, false); berr != nil && err == nil {
			err = &worker.D1Error{Index: n - 1, SQL: sql, Err: fmt.Errorf("d1 exec: the statements took effect, but advancing the bookmark failed: %w", berr)}
		}
	}
	return worker.D1ExecResult{Count: n, Duration: time.Since(start)}, err
}
