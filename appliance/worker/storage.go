package worker

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
)

// StorageBackend is an object's own SQL database as the host provides it:
// one SQLite file per object in local mode, a local copy of it whose pages
// are kept in libSQL in central mode. The object runtime opens one per running object; calls
// arrive from the object's turn, but a backend must still be safe for
// concurrent use.
//
// Row values are nil, int64, float64, string or []byte; arguments are
// already normalised to those types (see NormalizeD1Value). The shape of the
// write path is deliberate: every call is one unit a remote backend can send
// in one round trip wrapped as "BEGIN; <epoch guard>; ...; COMMIT", so a
// replica that lost the object's lease can never write.
type StorageBackend interface {
	// Batch runs stmts in order as one transaction and returns one result
	// per statement; if any fails, none takes effect and the error names the
	// failing statement (*D1Error). A statement's SQL may hold several
	// statements separated by semicolons only when it has no arguments; the
	// result then describes the last one.
	Batch(ctx context.Context, stmts []D1Query) ([]D1Result, error)
	// Transaction runs fn inside one read-write transaction. tx runs
	// statements inside it. If fn returns nil the transaction commits and
	// Transaction returns the commit's error; otherwise it rolls back and
	// returns fn's error unchanged. If fn panics, it rolls back and
	// re-panics. Statements outside tx must not be issued while fn runs.
	Transaction(ctx context.Context, fn func(tx SQLExecer) error) error
	// DeleteAll removes every table, index, view and trigger and their
	// data, leaving the database as if new. A backend may instead drop the
	// database entirely and recreate it lazily.
	DeleteAll(ctx context.Context) error
}

// SQLExecer runs one statement inside a transaction opened by
// StorageBackend.Transaction. It is only valid until the callback returns.
type SQLExecer interface {
	Exec(ctx context.Context, q D1Query) (D1Result, error)
}

// Errors of the storage API.
var (
	// ErrInTransaction is returned by Storage methods called while a
	// Storage.Transaction callback runs: inside the callback use its tx.
	ErrInTransaction = errors.New("storage: a transaction is in progress; use the transaction's tx")
	// ErrTransactionStatement is returned for BEGIN, COMMIT, ROLLBACK,
	// SAVEPOINT and RELEASE passed to Exec: use Storage.Transaction.
	ErrTransactionStatement = errors.New("storage: transaction statements are not allowed in Exec; use Transaction")
	// ErrNotOneRow is returned by SQLCursor.One when the cursor does not
	// hold exactly one remaining row.
	ErrNotOneRow = errors.New("storage: expected exactly one row")
	// ErrStorageKey is returned for an empty key or one longer than
	// MaxStorageKeySize bytes.
	ErrStorageKey = errors.New("storage: key must be 1 to 2048 bytes")
	// ErrStorageValueTooLarge is returned by the KV API for a value longer
	// than MaxStorageValueSize bytes.
	ErrStorageValueTooLarge = errors.New("storage: a key-value value is at most 128 KiB (131072 bytes); keep larger data in SQL rows (up to 2 MB) or R2")
	// ErrStorageTooManyKeys is returned by the multi-key calls for more
	// than MaxStorageKeysPerCall keys.
	ErrStorageTooManyKeys = errors.New("storage: a multi-key call takes at most 128 keys; split it into several calls")
	// ErrStorageListOptions is returned by List for options that
	// contradict each other.
	ErrStorageListOptions = errors.New("storage: list options: StartAfter cannot be combined with Start")
	// ErrSQLValueTooLarge is returned by Exec for a string or blob
	// argument longer than MaxSQLValueSize bytes.
	ErrSQLValueTooLarge = errors.New("storage: a SQL string or blob is at most 2 MB (2000000 bytes); keep larger data in R2")
)

// Limits of the storage API, Cloudflare's for SQLite-backed Durable
// Objects.
const (
	// MaxStorageKeySize is the longest key the KV API accepts, in bytes.
	MaxStorageKeySize = 2048
	// MaxStorageValueSize is the longest value the KV API stores, in bytes.
	MaxStorageValueSize = 128 << 10
	// MaxStorageKeysPerCall is the most keys GetMany, PutMany and
	// DeleteMany take.
	MaxStorageKeysPerCall = 128
	// MaxSQLValueSize is the longest string or blob a SQL statement may
	// be given as an argument, in bytes (Cloudflare's row and value
	// limit; see docs/porting.md for what is not checked).
	MaxSQLValueSize = 2_000_000
)

// Storage is an object's durable storage: a private SQL database, a small
// key-value API kept in a reserved table of that database, and the object's
// alarm. Tables whose names start with "_dwk_" are reserved for the host.
//
// Calls are meant to be made from the object's turn (its Fetch, Alarm and
// WebSocket handlers, or BlockConcurrencyWhile). Each call outside
// Transaction is atomic on its own, and no call opens the input gate: the
// calls one event makes between two awaited calls run with no other event
// in between (see Concurrency).
type Storage struct {
	backend StorageBackend
	alarms  AlarmStore
	inTx    atomic.Bool
}

// NewStorage is called by the object runtime to build an object's Storage
// over its database and alarm store.
func NewStorage(backend StorageBackend, alarms AlarmStore) *Storage {
	return &Storage{backend: backend, alarms: alarms}
}

// Exec runs query with positional arguments (the types NormalizeD1Value
// accepts) and returns its rows. query may hold several statements separated
// by semicolons only when it has no arguments; the cursor then holds the
// rows of the last one.
func (s *Storage) Exec(ctx context.Context, query string, args ...any) (*SQLCursor, error) {
	if s.inTx.Load() {
		return nil, ErrInTransaction
	}
	q, err := prepare(query, args)
	if err != nil {
		return nil, err
	}
	rs, err := s.backend.Batch(ctx, []D1Query{q})
	if err != nil {
		return nil, fmt.Errorf("storage exec: %w", err)
	}
	return newCursor(rs[0]), nil
}

// Transaction runs fn in one transaction: everything fn does through tx
// takes effect together when fn returns nil, and nothing does when it
// returns an error (which Transaction returns unchanged) or panics. While fn
// runs, the Storage methods themselves fail with ErrInTransaction.
func (s *Storage) Transaction(ctx context.Context, fn func(tx *StorageTx) error) error {
	if !s.inTx.CompareAndSwap(false, true) {
		return ErrInTransaction
	}
	defer s.inTx.Store(false)
	return s.backend.Transaction(ctx, func(x SQLExecer) error {
		tx := &StorageTx{x: x}
		defer tx.done.Store(true)
		return fn(tx)
	})
}

// DeleteAll removes all of the object's data — every table, the KV entries
// and the alarm. The object keeps running; its storage is empty afterwards.
func (s *Storage) DeleteAll(ctx context.Context) error {
	if s.inTx.Load() {
		return ErrInTransaction
	}
	if err := s.backend.DeleteAll(ctx); err != nil {
		return fmt.Errorf("storage delete all: %w", err)
	}
	if err := s.alarms.DeleteAlarm(ctx); err != nil {
		return fmt.Errorf("storage delete all: alarm: %w", err)
	}
	return nil
}

// StorageTx runs statements inside a Storage.Transaction. It is only valid
// until the callback returns.
type StorageTx struct {
	x    SQLExecer
	done atomic.Bool
}

// errTxDone is returned by a StorageTx used after its callback returned.
var errTxDone = errors.New("storage: transaction already finished")

// Exec runs query inside the transaction; see Storage.Exec.
func (tx *StorageTx) Exec(ctx context.Context, query string, args ...any) (*SQLCursor, error) {
	q, err := prepare(query, args)
	if err != nil {
		return nil, err
	}
	r, err := tx.exec(ctx, q)
	if err != nil {
		return nil, fmt.Errorf("storage exec: %w", err)
	}
	return newCursor(r), nil
}

func (tx *StorageTx) exec(ctx context.Context, q D1Query) (D1Result, error) {
	if tx.done.Load() {
		return D1Result{}, errTxDone
	}
	return tx.x.Exec(ctx, q)
}

// batch runs stmts in order inside the transaction.
func (tx *StorageTx) batch(ctx context.Context, stmts []D1Query) ([]D1Result, error) {
	out := make([]D1Result, len(stmts))
	for i, q := range stmts {
		r, err := tx.exec(ctx, q)
		if err != nil {
			return nil, &D1Error{Index: i, SQL: q.SQL, Err: err}
		}
		out[i] = r
	}
	return out, nil
}

func (s *Storage) batch(ctx context.Context, stmts []D1Query) ([]D1Result, error) {
	if s.inTx.Load() {
		return nil, ErrInTransaction
	}
	return s.backend.Batch(ctx, stmts)
}

// prepare checks query and normalises args.
func prepare(query string, args []any) (D1Query, error) {
	if isTxStatement(query) {
		return D1Query{}, ErrTransactionStatement
	}
	q := D1Query{SQL: query, Args: make([]any, len(args))}
	for i, a := range args {
		v, err := NormalizeD1Value(a)
		if err != nil {
			return D1Query{}, fmt.Errorf("storage exec: argument %d: %w", i+1, err)
		}
		if n := valueSize(v); n > MaxSQLValueSize {
			return D1Query{}, fmt.Errorf("storage exec: argument %d is %d bytes: %w", i+1, n, ErrSQLValueTooLarge)
		}
		q.Args[i] = v
	}
	return q, nil
}

// valueSize is the length of a string or blob value, 0 for the others.
func valueSize(v any) int {
	switch x := v.(type) {
	case string:
		return len(x)
	case []byte:
		return len(x)
	}
	return 0
}

// DatabaseSize is the size of the object's SQL database in bytes (pages
// in use times page size), Cloudflare's ctx.storage.sql.databaseSize. It
// includes the key-value API's table.
func (s *Storage) DatabaseSize(ctx context.Context) (int64, error) {
	rs, err := s.batch(ctx, []D1Query{{SQL: SQLDatabaseSize}})
	if err != nil {
		return 0, fmt.Errorf("storage database size: %w", err)
	}
	if len(rs[0].Rows) != 1 {
		return 0, fmt.Errorf("storage database size: %w", ErrNotOneRow)
	}
	n, ok := rs[0].Rows[0][0].(int64)
	if !ok {
		return 0, fmt.Errorf("storage database size: got %T, want an integer", rs[0].Rows[0][0])
	}
	return n, nil
}

// isTxStatement reports whether query starts with a transaction-control
// keyword. It is a guard against mistakes, not a parser: it looks only at
// the first word.
func isTxStatement(query string) bool {
	w := strings.TrimLeft(query, " \t\r\n;")
	if i := strings.IndexFunc(w, func(r rune) bool { return !('a' <= r && r <= 'z' || 'A' <= r && r <= 'Z') }); i >= 0 {
		w = w[:i]
	}
	switch strings.ToUpper(w) {
	case "BEGIN", "COMMIT", "END", "ROLLBACK", "SAVEPOINT", "RELEASE":
		return true
	}
	return false
}
