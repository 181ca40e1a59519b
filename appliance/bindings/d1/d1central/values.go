package d1central

import (
	"fmt"
	"time"

	"github.com/dwk/fleet/appliance/bindings/d1"
	"github.com/dwk/fleet/appliance/libsql/hrana"
	"github.com/dwk/fleet/appliance/worker"
)

// statement checks one D1 statement the way d1local does before running
// it (exactly one statement, no transaction control, as many arguments as
// parameters, storable argument types) and returns it as a Hrana
// statement that wants rows.
func statement(q worker.D1Query) (hrana.Stmt, error) {
	switch n := len(d1.Split(q.SQL)); {
	case n == 0:
		return hrana.Stmt{}, d1.ErrNoStatement
	case n > 1:
		return hrana.Stmt{}, d1.ErrMultipleStatements
	}
	if d1.TransactionControl(q.SQL) {
		return hrana.Stmt{}, d1.ErrTransactionControl
	}
	p := scanParams(q.SQL)
	if !p.unknown && p.count != len(q.Args) {
		return hrana.Stmt{}, fmt.Errorf("%w: the statement has %d parameters, %d bound", d1.ErrParamCount, p.count, len(q.Args))
	}
	args := make([]hrana.Value, len(q.Args))
	for i, a := range q.Args {
		v, err := hranaValue(a)
		if err != nil {
			return hrana.Stmt{}, fmt.Errorf("argument %d: %w", i+1, err)
		}
		args[i] = v
	}
	st := hrana.NewStmt(q.SQL)
	if p.named() {
		st.NamedArgs = make([]hrana.NamedArg, len(args))
		for i, v := range args {
			st.NamedArgs[i] = hrana.NamedArg{Name: p.names[i], Value: v}
		}
	} else if len(args) > 0 {
		st.Args = args
	}
	return st, nil
}

// hranaValue converts a bound argument to a Hrana value.
func hranaValue(a any) (hrana.Value, error) {
	v, err := worker.NormalizeD1Value(a)
	if err != nil {
		return hrana.Value{}, err
	}
	switch v := v.(type) {
	case int64:
		return hrana.Integer(v), nil
	case float64:
		return hrana.Float(v), nil
	case string:
		return hrana.Text(v), nil
	case []byte:
		return hrana.Blob(v), nil
	}
	return hrana.Null(), nil
}

// d1Result converts the server's result for sql to a D1 result. fallback
// is the statement's share of the round trip, its Duration when the server
// reports none.
func d1Result(sql string, r *hrana.StmtResult, fallback time.Duration) worker.D1Result {
	out := worker.D1Result{Columns: make([]string, len(r.Cols)), Rows: make([][]any, len(r.Rows))}
	for i, c := range r.Cols {
		if c.Name != nil {
			out.Columns[i] = *c.Name
		}
	}
	for i, row := range r.Rows {
		vals := make([]any, len(row))
		for j, v := range row {
			vals[j] = v.Go()
		}
		out.Rows[i] = vals
	}
	m := &out.Meta
	// Changes and LastRowID as d1local reports them: only for a statement
	// that changed rows, never for a SELECT (a server may repeat the
	// connection's last counts).
	if !d1.ReadOnly(sql) && r.AffectedRowCount > 0 {
		m.Changes = int64(r.AffectedRowCount)
		if r.LastInsertRowID.Valid {
			m.LastRowID = r.LastInsertRowID.Value
		}
	}
	m.RowsRead = max(int64(r.RowsRead), int64(len(out.Rows)))
	m.RowsWritten = max(int64(r.RowsWritten), m.Changes)
	if d1.ReadOnly(sql) {
		m.RowsWritten = 0
	}
	m.Duration = time.Duration(r.QueryDurationMS * float64(time.Millisecond))
	if m.Duration <= 0 {
		m.Duration = fallback
	}
	return out
}
