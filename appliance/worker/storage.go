package worker

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
)

// StorageBackend is an object's own SQL database as the host provides it:
// one SQLite file per object in local mode, one libSQL database per object
// in central mode. The object runtime opens one per running object; calls
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
)

// MaxStorageKeySize is the longest key the KV API accepts, in bytes.
const MaxStorageKeySize = 2048

// Storage is an object's durable storage: a private SQL database, a small
// key-value API kept in a reserved table of that database, and the object's
// alarm. Tables whose names start with "_dwk_" are reserved for the host.
//
// Calls are meant to be made from the object's turn (its Fetch, Alarm and
// WebSocket handlers, or BlockConcurrencyWhile). Each call outside
// Transaction is atomic on its own.
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
		q.Args[i] = v
	}
	return q, nil
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

// SQLCursor holds the result of one Exec: column names, rows and counts.
// Rows are read with Next and Row, or taken at once with All, Raw or One;
// each row is returned once. Values are nil, int64, float64, string or
// []byte.
type SQLCursor struct {
	columns     []string
	rows        [][]any
	pos         int // index of the next row Next returns
	cur         []any
	rowsRead    int64
	rowsWritten int64
}

func newCursor(r D1Result) *SQLCursor {
	return &SQLCursor{columns: r.Columns, rows: r.Rows, rowsRead: r.Meta.RowsRead, rowsWritten: r.Meta.RowsWritten}
}

// Columns are the result's column names, in order.
func (c *SQLCursor) Columns() []string { return c.columns }

// RowsRead is the number of rows the statement read, where the backend
// reports it, else the number of rows it returned.
func (c *SQLCursor) RowsRead() int64 { return c.rowsRead }

// RowsWritten is the number of rows the statement inserted, updated or
// deleted.
func (c *SQLCursor) RowsWritten() int64 { return c.rowsWritten }

// Next advances to the next row and reports whether there is one.
func (c *SQLCursor) Next() bool {
	if c.pos >= len(c.rows) {
		c.cur = nil
		return false
	}
	c.cur = c.rows[c.pos]
	c.pos++
	return true
}

// Row is the current row's values in column order (nil before the first
// Next and after the last).
func (c *SQLCursor) Row() []any { return c.cur }

// Raw returns the remaining rows as value slices.
func (c *SQLCursor) Raw() [][]any {
	out := c.rows[c.pos:]
	c.pos = len(c.rows)
	c.cur = nil
	return out
}

// All returns the remaining rows as column → value maps.
func (c *SQLCursor) All() []map[string]any {
	raw := c.Raw()
	out := make([]map[string]any, len(raw))
	for i, r := range raw {
		out[i] = c.rowMap(r)
	}
	return out
}

// One returns the only remaining row, or ErrNotOneRow if there are none or
// more than one.
func (c *SQLCursor) One() (map[string]any, error) {
	if n := len(c.rows) - c.pos; n != 1 {
		return nil, fmt.Errorf("%w: got %d", ErrNotOneRow, n)
	}
	return c.All()[0], nil
}

func (c *SQLCursor) rowMap(r []any) map[string]any {
	m := make(map[string]any, len(c.columns))
	for i, col := range c.columns {
		m[col] = r[i]
	}
	return m
}

// StorageEntry is one key and value of the KV API.
type StorageEntry struct {
	Key   string
	Value []byte
}

// StorageListOptions select what List returns. Keys are compared as bytes.
type StorageListOptions struct {
	// Prefix keeps only keys that start with it.
	Prefix string
	// Start is the first key included; End the first key excluded. Empty
	// means unbounded.
	Start, End string
	// Reverse lists in descending key order.
	Reverse bool
	// Limit caps the number of entries; 0 means no limit.
	Limit int
}

// The KV API lives in the reserved table _dwk_kv of the object's database,
// created on first use; each KV call is one batch with the CREATE so it is
// one unit for the backend.
const kvSchema = "CREATE TABLE IF NOT EXISTS _dwk_kv (key TEXT PRIMARY KEY, value BLOB NOT NULL) WITHOUT ROWID"

type batcher func(ctx context.Context, stmts []D1Query) ([]D1Result, error)

// Get returns the value stored under key, or ErrNotFound.
func (s *Storage) Get(ctx context.Context, key string) ([]byte, error) {
	return kvGet(ctx, s.batch, key)
}

// Put stores value under key, replacing any previous value.
func (s *Storage) Put(ctx context.Context, key string, value []byte) error {
	return kvPut(ctx, s.batch, key, value)
}

// Delete removes key and reports whether it existed.
func (s *Storage) Delete(ctx context.Context, key string) (bool, error) {
	return kvDelete(ctx, s.batch, key)
}

// List returns entries in key order as selected by opts (nil: all).
func (s *Storage) List(ctx context.Context, opts *StorageListOptions) ([]StorageEntry, error) {
	return kvList(ctx, s.batch, opts)
}

// Get returns the value stored under key, or ErrNotFound; see Storage.Get.
func (tx *StorageTx) Get(ctx context.Context, key string) ([]byte, error) {
	return kvGet(ctx, tx.batch, key)
}

// Put stores value under key inside the transaction.
func (tx *StorageTx) Put(ctx context.Context, key string, value []byte) error {
	return kvPut(ctx, tx.batch, key, value)
}

// Delete removes key inside the transaction and reports whether it existed.
func (tx *StorageTx) Delete(ctx context.Context, key string) (bool, error) {
	return kvDelete(ctx, tx.batch, key)
}

// List returns entries as selected by opts; see Storage.List.
func (tx *StorageTx) List(ctx context.Context, opts *StorageListOptions) ([]StorageEntry, error) {
	return kvList(ctx, tx.batch, opts)
}

func checkKey(key string) error {
	if len(key) == 0 || len(key) > MaxStorageKeySize {
		return fmt.Errorf("%w: got %d bytes", ErrStorageKey, len(key))
	}
	return nil
}

func kvGet(ctx context.Context, b batcher, key string) ([]byte, error) {
	if err := checkKey(key); err != nil {
		return nil, err
	}
	rs, err := b(ctx, []D1Query{{SQL: kvSchema}, {SQL: "SELECT value FROM _dwk_kv WHERE key = ?", Args: []any{key}}})
	if err != nil {
		return nil, fmt.Errorf("storage get %q: %w", key, err)
	}
	if len(rs[1].Rows) == 0 {
		return nil, fmt.Errorf("storage get %q: %w", key, ErrNotFound)
	}
	return asBytes(rs[1].Rows[0][0]), nil
}

func kvPut(ctx context.Context, b batcher, key string, value []byte) error {
	if err := checkKey(key); err != nil {
		return err
	}
	if value == nil {
		value = []byte{}
	}
	_, err := b(ctx, []D1Query{{SQL: kvSchema}, {
		SQL:  "INSERT INTO _dwk_kv (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
		Args: []any{key, value},
	}})
	if err != nil {
		return fmt.Errorf("storage put %q: %w", key, err)
	}
	return nil
}

func kvDelete(ctx context.Context, b batcher, key string) (bool, error) {
	if err := checkKey(key); err != nil {
		return false, err
	}
	rs, err := b(ctx, []D1Query{{SQL: kvSchema}, {SQL: "DELETE FROM _dwk_kv WHERE key = ?", Args: []any{key}}})
	if err != nil {
		return false, fmt.Errorf("storage delete %q: %w", key, err)
	}
	return rs[1].Meta.Changes > 0, nil
}

func kvList(ctx context.Context, b batcher, opts *StorageListOptions) ([]StorageEntry, error) {
	if opts == nil {
		opts = &StorageListOptions{}
	}
	var where []string
	var args []any
	if opts.Prefix != "" {
		where = append(where, "key >= ?")
		args = append(args, opts.Prefix)
		if end, ok := prefixEnd(opts.Prefix); ok {
			where = append(where, "key < ?")
			args = append(args, end)
		}
	}
	if opts.Start != "" {
		where = append(where, "key >= ?")
		args = append(args, opts.Start)
	}
	if opts.End != "" {
		where = append(where, "key < ?")
		args = append(args, opts.End)
	}
	q := "SELECT key, value FROM _dwk_kv"
	if len(where) > 0 {
		q += " WHERE " + strings.Join(where, " AND ")
	}
	if opts.Reverse {
		q += " ORDER BY key DESC"
	} else {
		q += " ORDER BY key"
	}
	if opts.Limit > 0 {
		q += " LIMIT ?"
		args = append(args, int64(opts.Limit))
	}
	rs, err := b(ctx, []D1Query{{SQL: kvSchema}, {SQL: q, Args: args}})
	if err != nil {
		return nil, fmt.Errorf("storage list: %w", err)
	}
	out := make([]StorageEntry, len(rs[1].Rows))
	for i, r := range rs[1].Rows {
		k, _ := r[0].(string)
		out[i] = StorageEntry{Key: k, Value: asBytes(r[1])}
	}
	return out, nil
}

// prefixEnd is the smallest string greater than every string with prefix p,
// or false if there is none (p is all 0xff bytes).
func prefixEnd(p string) (string, bool) {
	b := []byte(p)
	for i := len(b) - 1; i >= 0; i-- {
		if b[i] < 0xff {
			b[i]++
			return string(b[:i+1]), true
		}
	}
	return "", false
}

func asBytes(v any) []byte {
	switch x := v.(type) {
	case []byte:
		return x
	case string:
		return []byte(x)
	default:
		return nil
	}
}
