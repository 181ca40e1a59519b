package libsql

import (
	"errors"

	"github.com/dwk/fleet/appliance/libsql/hrana"
)

// batch runs a batch and collects every step's result or error. Stored
// SQL texts are resolved first, so a bad sql_id fails the request before
// any step runs.
func (st *stream) batch(env *execEnv, b *hrana.Batch) (*hrana.BatchResult, error) {
	texts, err := resolveBatch(env, b)
	if err != nil {
		return nil, err
	}
	res := &hrana.BatchResult{
		StepResults: make([]*hrana.StmtResult, len(b.Steps)),
		StepErrors:  make([]*hrana.Error, len(b.Steps)),
	}
	outcomes := make([]hrana.Outcome, 0, len(b.Steps))
	for i := range b.Steps {
		step := &b.Steps[i]
		if step.Condition != nil && !step.Condition.Eval(outcomes, st.conn.Autocommit()) {
			outcomes = append(outcomes, hrana.Skipped)
			continue
		}
		r, err := st.executeText(env, texts[i], &step.Stmt)
		var he *hrana.Error
		switch {
		case err == nil:
			res.StepResults[i] = r
			outcomes = append(outcomes, hrana.Succeeded)
		case errors.As(err, &he) && !isFatalStmtError(he):
			res.StepErrors[i] = he
			outcomes = append(outcomes, hrana.Failed)
		default:
			return nil, err
		}
	}
	return res, nil
}

func resolveBatch(env *execEnv, b *hrana.Batch) ([]string, error) {
	texts := make([]string, len(b.Steps))
	for i := range b.Steps {
		s := &b.Steps[i].Stmt
		sql, err := hrana.ResolveSQL(s.SQL, s.SQLID, env.sqls)
		if err != nil {
			return nil, err
		}
		texts[i] = sql
	}
	return texts, nil
}

// cursorBatch runs a batch like batch but reports it as cursor entries
// through emit, which stops the batch when it fails (client gone).
func (st *stream) cursorBatch(env *execEnv, b *hrana.Batch, emit func(hrana.CursorEntry) error) error {
	texts, err := resolveBatch(env, b)
	if err != nil {
		return emit(hrana.CursorEntry{Type: hrana.EntryError, Error: asHranaError(err)})
	}
	outcomes := make([]hrana.Outcome, 0, len(b.Steps))
	for i := range b.Steps {
		step := &b.Steps[i]
		if step.Condition != nil && !step.Condition.Eval(outcomes, st.conn.Autocommit()) {
			outcomes = append(outcomes, hrana.Skipped)
			continue
		}
		sum, err := st.cursorStep(env, uint32(i), texts[i], &step.Stmt, emit)
		var he *hrana.Error
		switch {
		case err == nil:
			outcomes = append(outcomes, hrana.Succeeded)
			if err := emit(hrana.CursorEntry{Type: hrana.EntryStepEnd, AffectedRowCount: sum.affected, LastInsertRowID: sum.lastInsert}); err != nil {
				return err
			}
		case errors.As(err, &he) && !isFatalStmtError(he):
			outcomes = append(outcomes, hrana.Failed)
			if err := emit(hrana.CursorEntry{Type: hrana.EntryStepError, Step: uint32(i), Error: he}); err != nil {
				return err
			}
		case errors.Is(err, errEmit):
			return err
		default:
			return emit(hrana.CursorEntry{Type: hrana.EntryError, Error: asHranaError(err)})
		}
	}
	return nil
}

// errEmit wraps failures of the cursor's emit function.
var errEmit = errors.New("cursor output failed")

// cursorStep runs one step, emitting step_begin and row entries.
func (st *stream) cursorStep(env *execEnv, step uint32, sql string, s *hrana.Stmt, emit func(hrana.CursorEntry) error) (stmtSummary, error) {
	ps, err := st.prepareOne(sql)
	if err != nil {
		return stmtSummary{}, err
	}
	defer ps.Finalize()
	sink := &emitSink{step: step, emit: emit}
	return st.run(env, ps, sql, s, s.RowsWanted(), sink)
}

// emitSink turns columns and rows into cursor entries.
type emitSink struct {
	step uint32
	emit func(hrana.CursorEntry) error
}

func (e *emitSink) begin(cols []hrana.Col) error {
	if err := e.emit(hrana.CursorEntry{Type: hrana.EntryStepBegin, Step: e.step, Cols: cols}); err != nil {
		return errors.Join(errEmit, err)
	}
	return nil
}

func (e *emitSink) row(vals []hrana.Value) error {
	if err := e.emit(hrana.CursorEntry{Type: hrana.EntryRow, Row: vals}); err != nil {
		return errors.Join(errEmit, err)
	}
	return nil
}

// sequence runs every statement of sql in order, without arguments and
// discarding rows, stopping at the first error.
func (st *stream) sequence(env *execEnv, sql string) error {
	if len(sql) == 0 {
		return nil
	}
	for {
		ps, tail, err := st.conn.Prepare(sql)
		if err != nil {
			return sqliteError(err)
		}
		if ps == nil {
			return nil
		}
		text := sql[:len(sql)-len(tail)]
		_, err = st.run(env, ps, text, nil, false, discardSink{})
		ps.Finalize()
		if err != nil {
			return err
		}
		sql = tail
	}
}

type discardSink struct{}

func (discardSink) begin([]hrana.Col) error { return nil }
func (discardSink) row([]hrana.Value) error { return nil }

// describe reports the parameters and columns of the first statement of
// sql without running it.
func (st *stream) describe(env *execEnv, sql string) (*hrana.DescribeResult, error) {
	if err := st.authorize(env.who, true); err != nil {
		return nil, err
	}
	ps, _, err := st.conn.Prepare(sql)
	if err != nil {
		return nil, sqliteError(err)
	}
	if ps == nil {
		return nil, hrana.Errorf(hrana.CodeSQLNoStatement, "SQL string does not contain any statement")
	}
	defer ps.Finalize()
	res := &hrana.DescribeResult{IsExplain: ps.IsExplain(), IsReadonly: ps.Readonly()}
	for i := 1; i <= ps.ParamCount(); i++ {
		p := hrana.DescribeParam{}
		if name := ps.ParamName(i); name != "" {
			p.Name = &name
		}
		res.Params = append(res.Params, p)
	}
	for i := 0; i < ps.ColumnCount(); i++ {
		c := hrana.DescribeCol{Name: ps.ColumnName(i)}
		if d, ok := ps.ColumnDecltype(i); ok {
			c.Decltype = &d
		}
		res.Cols = append(res.Cols, c)
	}
	return res, nil
}

// asHranaError returns err as a Hrana error, wrapping others as internal.
func asHranaError(err error) *hrana.Error {
	var he *hrana.Error
	if errors.As(err, &he) {
		return he
	}
	var pe *hrana.ProtocolError
	if errors.As(err, &pe) {
		return &hrana.Error{Code: hrana.CodeProtocol, Message: pe.Message}
	}
	return &hrana.Error{Code: hrana.CodeInternal, Message: "Internal Error: " + err.Error()}
}
