package libsql

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/dwk/fleet/appliance/libsql/hrana"
	"github.com/dwk/fleet/appliance/libsql/sqlite"
)

// execEnv is what the statements of one request share.
type execEnv struct {
	ctx     context.Context
	who     *principal
	version hrana.Version
	// sqls resolves sql_id references (per stream over HTTP, per
	// connection over WebSocket).
	sqls map[int32]string
	// timeout bounds each statement.
	timeout time.Duration
	// budget is how many bytes of row values the request may still
	// return; nil means unlimited (cursors stream their rows).
	budget *int64
}

// rowSink receives a statement's columns and rows.
type rowSink interface {
	begin(cols []hrana.Col) error
	row(vals []hrana.Value) error
}

// stmtSummary is what a statement reports besides its rows.
type stmtSummary struct {
	affected   uint64
	lastInsert hrana.RowID
	rowsRead   uint64
	duration   time.Duration
}

// errResponseTooLarge is the error for a request over its budget; it fails
// the whole request, not one step.
func errResponseTooLarge() *hrana.Error {
	return hrana.Errorf(hrana.CodeResponseTooLarge, "Response is too large: the rows exceed the server's response size limit")
}

// isFatalStmtError reports errors that end a batch instead of failing one
// step: the response budget is spent, or the stream is being closed.
func isFatalStmtError(e *hrana.Error) bool {
	return e.Code == hrana.CodeResponseTooLarge || e == errStreamClosed
}

// execute runs one statement and collects its result.
func (st *stream) execute(env *execEnv, s *hrana.Stmt) (*hrana.StmtResult, error) {
	sql, err := hrana.ResolveSQL(s.SQL, s.SQLID, env.sqls)
	if err != nil {
		return nil, err
	}
	return st.executeText(env, sql, s)
}

func (st *stream) executeText(env *execEnv, sql string, s *hrana.Stmt) (*hrana.StmtResult, error) {
	ps, err := st.prepareOne(sql)
	if err != nil {
		return nil, err
	}
	defer ps.Finalize()
	var sink collectSink
	sum, err := st.run(env, ps, sql, s, s.RowsWanted(), &sink)
	if err != nil {
		return nil, err
	}
	sink.res.AffectedRowCount = sum.affected
	sink.res.LastInsertRowID = sum.lastInsert
	sink.res.RowsRead = sum.rowsRead
	sink.res.RowsWritten = sum.affected
	sink.res.QueryDurationMS = float64(sum.duration.Microseconds()) / 1000
	return &sink.res, nil
}

// collectSink gathers a StmtResult.
type collectSink struct{ res hrana.StmtResult }

func (c *collectSink) begin(cols []hrana.Col) error {
	c.res.Cols = cols
	c.res.Rows = [][]hrana.Value{}
	return nil
}

func (c *collectSink) row(vals []hrana.Value) error {
	c.res.Rows = append(c.res.Rows, vals)
	return nil
}

// prepareOne compiles sql, which must hold exactly one statement, or
// takes it from the connection's statement cache. Finalize returns it
// there.
func (st *stream) prepareOne(sql string) (*sqlite.Stmt, error) {
	if ps := st.conn.Cached(sql); ps != nil {
		return ps, nil
	}
	if strings.IndexByte(sql, 0) >= 0 {
		return nil, hrana.Errorf(hrana.CodeSQLParse, "SQL string could not be parsed: it contains a NUL byte")
	}
	ps, tail, err := st.conn.Prepare(sql)
	if err != nil {
		return nil, sqliteError(err)
	}
	if ps == nil {
		return nil, hrana.Errorf(hrana.CodeSQLNoStatement, "SQL string does not contain any statement")
	}
	if st.hasStatement(tail) {
		ps.Finalize()
		return nil, hrana.Errorf(hrana.CodeSQLManyStatements, "SQL string contains more than one statement")
	}
	ps.Keep(sql)
	return ps, nil
}

// hasStatement reports whether sql holds anything but blanks, comments
// and semicolons.
func (st *stream) hasStatement(sql string) bool {
	if strings.TrimLeft(sql, " \t\r\n;") == "" {
		return false
	}
	ps, _, err := st.conn.Prepare(sql)
	if err != nil {
		return true
	}
	if ps != nil {
		ps.Finalize()
		return true
	}
	return false
}

// run checks, binds and evaluates a prepared statement, feeding sink.
func (st *stream) run(env *execEnv, ps *sqlite.Stmt, sql string, args *hrana.Stmt, wantRows bool, sink rowSink) (stmtSummary, error) {
	if st.killed.Load() {
		return stmtSummary{}, errStreamClosed
	}
	kind := classify(sql)
	if kind.forbidden != "" {
		return stmtSummary{}, hrana.Errorf(hrana.CodeForbidden, "Authorization forbidden: %s", kind.forbidden)
	}
	switch {
	case kind.foreignKeys:
		st.resetFK = true
	case kind.pragma || kind.attach:
		st.dirty = true
	}
	readonly := ps.Readonly()
	if err := st.authorize(env.who, readonly); err != nil {
		return stmtSummary{}, err
	}
	if kind.checkpoint && st.ns.backup != nil {
		return stmtSummary{}, hrana.Errorf(hrana.CodeForbidden, "Authorization forbidden: checkpoints are made by the backup, which ships the WAL first")
	}
	if !readonly {
		st.wrote = true
	}
	// A transaction that wrote has committed once the connection is back
	// in autocommit mode (a rollback only costs the backup a look).
	defer func() {
		if st.wrote && st.conn != nil && st.conn.Autocommit() {
			st.wrote = false
			st.ns.changed()
		}
	}()
	if args != nil {
		if err := bindArgs(ps, args); err != nil {
			return stmtSummary{}, err
		}
	}

	ctx, cancel := context.WithTimeout(env.ctx, env.timeout)
	defer cancel()
	conn := st.conn
	fired := make(chan struct{})
	stop := context.AfterFunc(ctx, func() {
		conn.Interrupt()
		close(fired)
	})
	defer func() {
		if !stop() {
			<-fired // the interrupt must land before the next statement starts
		}
	}()

	if !readonly && conn.Autocommit() {
		select {
		case st.ns.writeGate <- struct{}{}:
			defer func() { <-st.ns.writeGate }()
		case <-ctx.Done():
			return stmtSummary{}, interruptError(env, ctx)
		}
	}

	if ctx.Err() != nil {
		// An interrupt delivered before the first step would be lost.
		return stmtSummary{}, interruptError(env, ctx)
	}

	n := ps.ColumnCount()
	cols := make([]hrana.Col, n)
	for i := range cols {
		name := ps.ColumnName(i)
		cols[i].Name = &name
		if d, ok := ps.ColumnDecltype(i); ok {
			cols[i].Decltype = &d
		}
	}
	if err := sink.begin(cols); err != nil {
		return stmtSummary{}, err
	}

	start := time.Now()
	var sum stmtSummary
	for {
		row, err := ps.Step()
		if err != nil {
			var se *sqlite.Error
			if errors.As(err, &se) && se.Primary() == sqlite.CodeInterrupt {
				return stmtSummary{}, interruptError(env, ctx)
			}
			return stmtSummary{}, sqliteError(err)
		}
		if !row {
			break
		}
		if ctx.Err() != nil {
			return stmtSummary{}, interruptError(env, ctx)
		}
		sum.rowsRead++
		if !wantRows {
			continue
		}
		vals, size := readRow(ps, n)
		if env.budget != nil {
			if *env.budget -= size; *env.budget < 0 {
				return stmtSummary{}, errResponseTooLarge()
			}
		}
		if err := sink.row(vals); err != nil {
			return stmtSummary{}, err
		}
	}
	sum.duration = time.Since(start)
	if kind.iud {
		sum.affected = uint64(conn.Changes())
	}
	if kind.insert {
		sum.lastInsert = hrana.SomeRowID(conn.LastInsertRowID())
	}
	return sum, nil
}

// readRow reads the current row and estimates its encoded size.
func readRow(ps *sqlite.Stmt, n int) ([]hrana.Value, int64) {
	vals := make([]hrana.Value, n)
	size := int64(0)
	for i := range vals {
		size += 24
		switch ps.ColumnType(i) {
		case sqlite.TypeInteger:
			vals[i] = hrana.Integer(ps.ColumnInt64(i))
		case sqlite.TypeFloat:
			vals[i] = hrana.Float(ps.ColumnFloat(i))
		case sqlite.TypeText:
			vals[i] = hrana.Text(ps.ColumnText(i))
			size += int64(len(vals[i].Text))
		case sqlite.TypeBlob:
			vals[i] = hrana.Blob(ps.ColumnBlob(i))
			size += int64(len(vals[i].Blob)) * 4 / 3
		default:
			vals[i] = hrana.Null()
		}
	}
	return vals, size
}

// authorize checks the principal's permission and the namespace's blocks.
func (st *stream) authorize(who *principal, readonly bool) error {
	cfg, _ := st.ns.config()
	reason := ""
	if cfg.BlockReason != nil && *cfg.BlockReason != "" {
		reason = ": " + *cfg.BlockReason
	}
	if cfg.BlockReads || cfg.BlockWrites && !readonly {
		return hrana.Errorf(hrana.CodeBlocked, "Operation was blocked%s", reason)
	}
	perm := who.access(st.ns.name)
	if perm < permRead || !readonly && perm < permWrite {
		what := "Read"
		if !readonly {
			what = "Write"
		}
		return hrana.Errorf(hrana.CodeForbidden, "Authorization forbidden: Current session doesn't have %s permission to namespace %s", what, st.ns.name)
	}
	return nil
}

// sqliteError turns a SQLite failure into the Hrana error sqld sends.
// Other errors are returned unchanged (they fail the request).
func sqliteError(err error) error {
	var se *sqlite.Error
	if !errors.As(err, &se) {
		return err
	}
	if se.Offset >= 0 && se.Primary() == sqlite.CodeError {
		return hrana.Errorf(hrana.CodeSQLInput, "SQL input error: %s (at offset %d)", se.Message, se.Offset)
	}
	return &hrana.Error{Code: hrana.SQLiteCodeName(se.Code), Message: "SQLite error: " + se.Message}
}

// interruptError explains why a statement was interrupted.
func interruptError(env *execEnv, ctx context.Context) *hrana.Error {
	msg := "SQLite error: interrupted"
	switch {
	case env.ctx.Err() != nil:
		msg += ": the request was cancelled (client gone or server shutting down)"
	case errors.Is(ctx.Err(), context.DeadlineExceeded):
		msg += fmt.Sprintf(": the statement ran longer than the statement timeout of %s", env.timeout)
	}
	return &hrana.Error{Code: hrana.CodeSQLiteInterrupt, Message: msg}
}

// newBudget returns a response budget of n bytes.
func newBudget(n int64) *int64 {
	if n <= 0 {
		n = math.MaxInt64
	}
	return &n
}
