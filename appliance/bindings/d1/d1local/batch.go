package d1local

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/dwk/fleet/appliance/bindings/d1"
	"github.com/dwk/fleet/appliance/libsql/sqlite"
	"github.com/dwk/fleet/appliance/worker"
)

// batch runs stmts as one transaction (a lone statement runs in SQLite's
// implicit one). write says the connection is the writer: it then takes the
// write lock up front, tracks changes and advances the commit position.
// after, when not nil, is the position the database must have reached
// first (a session's query), and asks for the position after the batch
// even when it only reads.
func (c *conn) batch(ctx context.Context, stmts []worker.D1Query, write bool, after *worker.D1Position) ([]worker.D1Result, error) {
	if err := ctx.Err(); err != nil {
		return nil, &worker.D1Error{Index: 0, SQL: stmts[0].SQL, Err: err}
	}
	c.rollback()
	defer c.interruptOn(ctx)()
	if after != nil && *after != (worker.D1Position{}) {
		pos, err := c.position(ctx, d1.BookmarkRead)
		if err == nil {
			err = pos.Reached(*after)
		}
		if err != nil {
			return nil, stmtError(ctx, 0, stmts[0].SQL, err)
		}
	}
	// A lone write runs in a transaction too, so that its bookmark
	// advances in the same commit (one sync, not two): the writer
	// connection is this process's alone, so this costs no contention.
	tx := len(stmts) > 1 || write && !d1.OutsideTransaction(stmts[0].SQL)
	if tx {
		begin := "BEGIN"
		if write {
			begin = "BEGIN IMMEDIATE"
		}
		if err := c.internal(begin); err != nil {
			c.rollback()
			return nil, stmtError(ctx, 0, stmts[0].SQL, fmt.Errorf("d1 batch: begin: %w", err))
		}
	}
	out := make([]worker.D1Result, len(stmts))
	for i, q := range stmts {
		r, err := c.run(ctx, q, write)
		if err != nil {
			c.rollback()
			return nil, stmtError(ctx, i, q.SQL, err)
		}
		out[i] = r
	}
	size, err := c.run(ctx, worker.D1Query{SQL: worker.SQLDatabaseSize}, false)
	if err != nil || len(size.Rows) != 1 {
		c.rollback()
		last := len(stmts) - 1
		return nil, stmtError(ctx, last, stmts[last].SQL, fmt.Errorf("d1 batch: database size: %w (%d rows)", err, len(size.Rows)))
	}
	sizeAfter, _ := size.Rows[0][0].(int64)
	for i := range out {
		out[i].Meta.SizeAfter = sizeAfter
	}
	if write || after != nil {
		// A lone statement has committed already: its position is
		// advanced in a commit of its own, after it.
		sql := d1.BookmarkRead
		if write {
			sql = d1.BookmarkAdvance
		}
		pos, err := c.position(ctx, sql)
		if err != nil {
			c.rollback()
			last := len(stmts) - 1
			if write && !tx {
				err = fmt.Errorf("the statement took effect, but advancing the bookmark failed: %w", err)
			}
			return nil, stmtError(ctx, last, stmts[last].SQL, fmt.Errorf("d1 batch: bookmark: %w", err))
		}
		bookmark := pos.Bookmark()
		for i := range out {
			out[i].Meta.Bookmark = bookmark
		}
	}
	if tx {
		if err := c.internal("COMMIT"); err != nil {
			c.rollback()
			last := len(stmts) - 1
			return nil, stmtError(ctx, last, stmts[last].SQL, fmt.Errorf("d1 batch: commit: %w", err))
		}
	}
	return out, nil
}

// run runs one statement and reads all its rows.
func (c *conn) run(ctx context.Context, q worker.D1Query, write bool) (worker.D1Result, error) {
	start := time.Now()
	st, err := c.prepare(q.SQL)
	if err != nil {
		return worker.D1Result{}, err
	}
	defer release(st)
	if err := bind(st, q.Args); err != nil {
		return worker.D1Result{}, err
	}
	before := c.c.TotalChanges()
	res := worker.D1Result{Columns: columns(st), Rows: [][]any{}}
	for {
		row, err := step(ctx, st)
		if err != nil {
			return worker.D1Result{}, err
		}
		if !row {
			break
		}
		res.Rows = append(res.Rows, values(st, len(res.Columns)))
	}
	res.Meta.RowsRead = int64(len(res.Rows))
	// sqlite3_changes keeps the count of the last INSERT, UPDATE or
	// DELETE, so it is only this statement's if the total moved.
	if write && c.c.TotalChanges() != before {
		res.Meta.Changes = c.c.Changes()
		res.Meta.LastRowID = c.c.LastInsertRowID()
		res.Meta.RowsWritten = res.Meta.Changes
	}
	res.Meta.Duration = time.Since(start)
	return res, nil
}

// position runs sql (d1.BookmarkRead or d1.BookmarkAdvance) and returns
// the position it yields.
func (c *conn) position(ctx context.Context, sql string) (worker.D1Position, error) {
	r, err := c.run(ctx, worker.D1Query{SQL: sql}, false)
	if err != nil {
		return worker.D1Position{}, err
	}
	if len(r.Rows) != 1 {
		return worker.D1Position{}, fmt.Errorf("%s returned %d rows, want 1", worker.D1BookmarkTable, len(r.Rows))
	}
	return d1.Position(r.Rows[0])
}

// columns returns the names of st's result columns, duplicates included;
// SQLite knows them before the first step, so a statement without rows
// still has them.
func columns(st *sqlite.Stmt) []string {
	cols := make([]string, st.ColumnCount())
	for i := range cols {
		cols[i] = st.ColumnName(i)
	}
	return cols
}

// bind binds args to st's parameters, which must be exactly as many.
func bind(st *sqlite.Stmt, args []any) error {
	if n := st.ParamCount(); n != len(args) {
		return fmt.Errorf("%w: the statement has %d parameters, %d bound", d1.ErrParamCount, n, len(args))
	}
	for i, a := range args {
		v, err := worker.NormalizeD1Value(a)
		if err != nil {
			return fmt.Errorf("argument %d: %w", i+1, err)
		}
		switch v := v.(type) {
		case nil:
			err = st.BindNull(i + 1)
		case int64:
			err = st.BindInt64(i+1, v)
		case float64:
			err = st.BindFloat(i+1, v)
		case string:
			err = st.BindText(i+1, v)
		case []byte:
			err = st.BindBlob(i+1, v)
		}
		if err != nil {
			return fmt.Errorf("argument %d: %w", i+1, err)
		}
	}
	return nil
}

// values returns the current row as the D1 value types: nil, int64,
// float64, string or []byte, exactly as stored (no time parsing).
func values(st *sqlite.Stmt, n int) []any {
	row := make([]any, n)
	for i := range row {
		switch st.ColumnType(i) {
		case sqlite.TypeInteger:
			row[i] = st.ColumnInt64(i)
		case sqlite.TypeFloat:
			row[i] = st.ColumnFloat(i)
		case sqlite.TypeText:
			row[i] = st.ColumnText(i)
		case sqlite.TypeBlob:
			row[i] = st.ColumnBlob(i)
		}
	}
	return row
}

// stmtError wraps the failure of statement i as a *worker.D1Error; when ctx
// has ended, the error also matches ctx.Err().
func stmtError(ctx context.Context, i int, sql string, err error) error {
	if ctxErr := ctx.Err(); ctxErr != nil && !errors.Is(err, ctxErr) {
		err = fmt.Errorf("%w: %w", ctxErr, err)
	}
	return &worker.D1Error{Index: i, SQL: sql, Err: err}
}
