package worker

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// D1Backend is what a D1 database needs from its storage engine. Local mode
// implements it on a SQLite file, central mode on a libSQL database.
type D1Backend interface {
	// Batch runs stmts in order inside one transaction and returns one result
	// per statement. If any statement fails, none of them takes effect and the
	// error names the failing statement's index (see D1Error).
	Batch(ctx context.Context, stmts []D1Query) ([]D1Result, error)
	// Exec runs one or more semicolon-separated statements without
	// parameters, each in its own implicit transaction, and stops at the
	// first failure, which it returns as a *D1Error whose Index is the
	// failing statement's position in sql; the result still counts the
	// statements that succeeded.
	Exec(ctx context.Context, sql string) (D1ExecResult, error)
	// BatchAfter is Batch for a query of a session (D1Session): if the
	// database has not reached after (the zero position: any), it runs
	// nothing and fails with a *D1Error wrapping ErrD1BookmarkAhead or
	// ErrD1BookmarkOtherDatabase; otherwise every result's Meta.Bookmark
	// is a position at or after the batch's.
	BatchAfter(ctx context.Context, after D1Position, stmts []D1Query) ([]D1Result, error)
}

// D1Query is one SQL statement with its positional arguments. Arguments are
// normalised by Bind: nil, int64, float64, string and []byte.
type D1Query struct {
	SQL  string
	Args []any
}

// D1Result is the outcome of one statement. Row values are nil, int64,
// float64, string or []byte.
type D1Result struct {
	Columns []string
	Rows    [][]any
	Meta    D1Meta
}

// D1Meta describes what a statement did.
type D1Meta struct {
	// Changes is the number of rows inserted, updated or deleted.
	Changes int64
	// LastRowID is the rowid of the last inserted row (0 if none).
	LastRowID int64
	// RowsRead and RowsWritten are the engine's counts where it reports them;
	// otherwise rows returned and rows changed.
	RowsRead    int64
	RowsWritten int64
	// Duration is the time the backend spent on the statement.
	Duration time.Duration
	// SizeAfter is the database's size in bytes (pages in use times page
	// size, SQLDatabaseSize) after the statement's batch, read inside the
	// batch's transaction after its last statement: every result of one
	// Batch carries the same figure. Cloudflare's meta.size_after.
	SizeAfter int64
	// Bookmark is the database's commit position after the batch (see
	// D1Session), the same on every result of one batch: set for every
	// batch that may write, and for every batch of a session.
	Bookmark string
}

// SQLDatabaseSize is the query a SQLite or libSQL backend runs to learn a
// database's size in bytes, for D1Meta.SizeAfter and Storage.DatabaseSize.
const SQLDatabaseSize = "SELECT page_count * page_size FROM pragma_page_count(), pragma_page_size()"

// D1ExecResult is the outcome of D1.Exec.
type D1ExecResult struct {
	// Count is the number of statements that ran successfully (on failure,
	// the ones before the failing statement).
	Count    int
	Duration time.Duration
}

// D1Error is a failed statement inside a batch.
type D1Error struct {
	// Index is the position of the failing statement in the batch.
	Index int
	// SQL is the failing statement.
	SQL string
	Err error
}

func (e *D1Error) Error() string {
	return fmt.Sprintf("d1 statement %d (%q): %v", e.Index, e.SQL, e.Err)
}

func (e *D1Error) Unwrap() error { return e.Err }

// D1 is a D1 database binding: Prepare statements, Batch them, or Exec raw SQL.
type D1 struct{ backend D1Backend }

// NewD1 wraps a backend as a D1 binding.
func NewD1(b D1Backend) *D1 { return &D1{backend: b} }

// Prepare returns a statement for sql with no arguments bound.
func (db *D1) Prepare(sql string) D1Statement { return D1Statement{db: db, q: D1Query{SQL: sql}} }

// Batch runs stmts as one transaction: all take effect or none does.
func (db *D1) Batch(ctx context.Context, stmts ...D1Statement) ([]D1Result, error) {
	qs, err := queries(stmts)
	if err != nil {
		return nil, err
	}
	return db.backend.Batch(ctx, qs)
}

// queries returns the queries of stmts, or the first one's Bind error.
func queries(stmts []D1Statement) ([]D1Query, error) {
	qs := make([]D1Query, len(stmts))
	for i, s := range stmts {
		if s.err != nil {
			return nil, &D1Error{Index: i, SQL: s.q.SQL, Err: s.err}
		}
		qs[i] = s.q
	}
	return qs, nil
}

// Exec runs raw SQL (one or more statements, no parameters).
func (db *D1) Exec(ctx context.Context, sql string) (D1ExecResult, error) {
	return db.backend.Exec(ctx, sql)
}

// D1Statement is a prepared statement. It is a value: Bind returns a copy.
type D1Statement struct {
	db   *D1
	sess *D1Session // nil: not in a session
	q    D1Query
	err  error
}

// ErrD1BindType is returned for an argument Bind cannot store.
var ErrD1BindType = errors.New("d1: unsupported argument type")

// Bind returns a copy of s with args bound to its positional parameters.
// Accepted types: nil, bool (stored as 0/1), all Go integer types that fit
// int64, float32, float64, string, []byte and time.Time (stored as RFC 3339
// text in UTC).
func (s D1Statement) Bind(args ...any) D1Statement {
	out := D1Statement{db: s.db, sess: s.sess, q: D1Query{SQL: s.q.SQL, Args: make([]any, len(args))}}
	for i, a := range args {
		v, err := NormalizeD1Value(a)
		if err != nil {
			out.err = fmt.Errorf("argument %d: %w", i+1, err)
			return out
		}
		out.q.Args[i] = v
	}
	return out
}

// Query returns the statement's SQL and bound arguments.
func (s D1Statement) Query() D1Query { return s.q }

// All runs the statement and returns every row.
func (s D1Statement) All(ctx context.Context) (D1Result, error) {
	if s.err != nil {
		return D1Result{}, &D1Error{SQL: s.q.SQL, Err: s.err}
	}
	var rs []D1Result
	var err error
	if s.sess != nil {
		rs, err = s.sess.run(ctx, []D1Query{s.q})
	} else {
		rs, err = s.db.backend.Batch(ctx, []D1Query{s.q})
	}
	if err != nil {
		return D1Result{}, err
	}
	return rs[0], nil
}

// First runs the statement and returns its first row as a column → value
// map, or nil if it returned no rows.
func (s D1Statement) First(ctx context.Context) (map[string]any, error) {
	r, err := s.All(ctx)
	if err != nil || len(r.Rows) == 0 {
		return nil, err
	}
	return r.row(0), nil
}

// ErrD1ColumnNotFound is returned by FirstColumn for a column the
// statement does not return.
var ErrD1ColumnNotFound = errors.New("d1: the statement returns no column of that name")

// FirstColumn runs the statement and returns the value of column in its
// first row, or nil if it returned no rows: Cloudflare's first(column). A
// column the statement does not return fails with ErrD1ColumnNotFound,
// rows or not.
func (s D1Statement) FirstColumn(ctx context.Context, column string) (any, error) {
	r, err := s.All(ctx)
	if err != nil {
		return nil, err
	}
	for j, c := range r.Columns {
		if c == column {
			if len(r.Rows) == 0 {
				return nil, nil
			}
			return r.Rows[0][j], nil
		}
	}
	return nil, &D1Error{SQL: s.q.SQL, Err: fmt.Errorf("column %q (it returns %q): %w", column, r.Columns, ErrD1ColumnNotFound)}
}

// Run runs the statement for its effect and returns its meta.
func (s D1Statement) Run(ctx context.Context) (D1Meta, error) {
	r, err := s.All(ctx)
	return r.Meta, err
}

// Raw runs the statement and returns the rows as value slices, in column order.
func (s D1Statement) Raw(ctx context.Context) ([][]any, error) {
	r, err := s.All(ctx)
	return r.Rows, err
}

// Maps returns the rows as column → value maps.
func (r D1Result) Maps() []map[string]any {
	out := make([]map[string]any, len(r.Rows))
	for i := range r.Rows {
		out[i] = r.row(i)
	}
	return out
}

func (r D1Result) row(i int) map[string]any {
	m := make(map[string]any, len(r.Columns))
	for j, c := range r.Columns {
		m[c] = r.Rows[i][j]
	}
	return m
}

// NormalizeD1Value converts a Go value to one of the storable types nil,
// int64, float64, string or []byte.
func NormalizeD1Value(a any) (any, error) {
	switch v := a.(type) {
	case nil:
		return nil, nil
	case bool:
		if v {
			return int64(1), nil
		}
		return int64(0), nil
	case int:
		return int64(v), nil
	case int8:
		return int64(v), nil
	case int16:
		return int64(v), nil
	case int32:
		return int64(v), nil
	case int64:
		return v, nil
	case uint8:
		return int64(v), nil
	case uint16:
		return int64(v), nil
	case uint32:
		return int64(v), nil
	case uint:
		if uint64(v) > 1<<63-1 {
			return nil, fmt.Errorf("%w: uint %d overflows int64", ErrD1BindType, v)
		}
		return int64(v), nil
	case uint64:
		if v > 1<<63-1 {
			return nil, fmt.Errorf("%w: uint64 %d overflows int64", ErrD1BindType, v)
		}
		return int64(v), nil
	case float32:
		return float64(v), nil
	case float64:
		return v, nil
	case string:
		return v, nil
	case []byte:
		return v, nil
	case time.Time:
		return v.UTC().Format(time.RFC3339Nano), nil
	default:
		return nil, fmt.Errorf("%w: %T", ErrD1BindType, a)
	}
}

type unboundD1 struct{ err error }

func (u unboundD1) Batch(context.Context, []D1Query) ([]D1Result, error) { return nil, u.err }
func (u unboundD1) Exec(context.Context, string) (D1ExecResult, error)   { return D1ExecResult{}, u.err }
func (u unboundD1) BatchAfter(context.Context, D1Position, []D1Query) ([]D1Result, error) {
	return nil, u.err
}
