package objlocal

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/dwk/fleet/appliance/bindings/objects"
	"github.com/dwk/fleet/appliance/process/sqlitedb"
	"github.com/dwk/fleet/appliance/worker"
)

// DB is one object's SQLite database. It holds a single connection: the
// object is single-threaded, and one connection keeps total_changes()
// accounting exact.
type DB struct {
	path string
	opts sqlitedb.Options

	mu     sync.Mutex
	db     *sql.DB // nil until first use and after DeleteAll
	closed bool
}

var _ objects.ObjectDB = (*DB)(nil)

var errDBClosed = errors.New("object database closed")

// handle returns the open database, opening the file if needed.
func (d *DB) handle(ctx context.Context) (*sql.DB, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.closed {
		return nil, errDBClosed
	}
	if d.db == nil {
		opts := d.opts
		opts.MaxOpenConns = 1
		db, err := sqlitedb.Open(ctx, d.path, opts)
		if err != nil {
			return nil, fmt.Errorf("open object database: %w", err)
		}
		d.db = db
	}
	return d.db, nil
}

// Batch implements worker.StorageBackend.
func (d *DB) Batch(ctx context.Context, stmts []worker.D1Query) ([]worker.D1Result, error) {
	out := make([]worker.D1Result, len(stmts))
	err := d.Transaction(ctx, func(tx worker.SQLExecer) error {
		for i, q := range stmts {
			r, err := tx.Exec(ctx, q)
			if err != nil {
				return &worker.D1Error{Index: i, SQL: q.SQL, Err: err}
			}
			out[i] = r
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// Transaction implements worker.StorageBackend with BEGIN IMMEDIATE.
func (d *DB) Transaction(ctx context.Context, fn func(tx worker.SQLExecer) error) (err error) {
	db, err := d.handle(ctx)
	if err != nil {
		return err
	}
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("begin: %w", err)
	}
	committed := false
	defer func() {
		if !committed {
			tx.Rollback()
		}
	}()
	if err := fn(sqlTx{tx}); err != nil {
		return err
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("commit: %w", err)
	}
	committed = true
	return nil
}

// DeleteAll implements worker.StorageBackend by deleting the file; the next
// call creates it anew.
func (d *DB) DeleteAll(context.Context) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.closed {
		return errDBClosed
	}
	if d.db != nil {
		if err := d.db.Close(); err != nil {
			return fmt.Errorf("delete all: close: %w", err)
		}
		d.db = nil
	}
	if err := RemoveFiles(d.path); err != nil {
		return fmt.Errorf("delete all: %w", err)
	}
	return nil
}

// Close implements objects.ObjectDB.
func (d *DB) Close() error {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.closed {
		return nil
	}
	d.closed = true
	if d.db == nil {
		return nil
	}
	return d.db.Close()
}

// sqlTx runs statements in a database/sql transaction.
type sqlTx struct{ tx *sql.Tx }

// Exec runs one statement and reports what it changed. Changes come from
// total_changes() around the statement, which is exact on a single
// connection.
func (t sqlTx) Exec(ctx context.Context, q worker.D1Query) (worker.D1Result, error) {
	start := time.Now()
	var before int64
	if err := t.tx.QueryRowContext(ctx, "SELECT total_changes()").Scan(&before); err != nil {
		return worker.D1Result{}, err
	}
	rows, err := t.tx.QueryContext(ctx, q.SQL, q.Args...)
	if err != nil {
		return worker.D1Result{}, err
	}
	cols, rowsData, err := readRows(rows)
	if err != nil {
		return worker.D1Result{}, err
	}
	var after, lastID int64
	if err := t.tx.QueryRowContext(ctx, "SELECT total_changes(), last_insert_rowid()").Scan(&after, &lastID); err != nil {
		return worker.D1Result{}, err
	}
	changes := after - before
	return worker.D1Result{
		Columns: cols,
		Rows:    rowsData,
		Meta: worker.D1Meta{
			Changes:     changes,
			LastRowID:   lastID,
			RowsRead:    int64(len(rowsData)),
			RowsWritten: changes,
			Duration:    time.Since(start),
		},
	}, nil
}

// readRows drains rows into value slices of the storable types.
func readRows(rows *sql.Rows) ([]string, [][]any, error) {
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		return nil, nil, err
	}
	out := [][]any{}
	for rows.Next() {
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			return nil, nil, err
		}
		for i, v := range vals {
			vals[i] = storable(v)
		}
		out = append(out, vals)
	}
	if err := rows.Err(); err != nil {
		return nil, nil, err
	}
	return cols, out, nil
}

// storable maps driver values to nil, int64, float64, string or []byte. The
// driver turns text in columns declared DATE, DATETIME or TIMESTAMP into
// time.Time; it goes back as SQLite's own "YYYY-MM-DD HH:MM:SS[.fff]" text
// in UTC, which is what datetime() writes.
func storable(v any) any {
	switch x := v.(type) {
	case nil, int64, float64, string:
		return x
	case []byte:
		return append([]byte(nil), x...)
	case bool:
		if x {
			return int64(1)
		}
		return int64(0)
	case time.Time:
		return x.UTC().Format("2006-01-02 15:04:05.999999999")
	default:
		return fmt.Sprint(x)
	}
}
