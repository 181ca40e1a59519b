package objcentral

import (
	"fmt"
	"strings"
	"time"

	"github.com/dwk/fleet/appliance/d1"
	"github.com/dwk/fleet/appliance/hrana"
	"github.com/dwk/fleet/appliance/hranaclient"
	"github.com/dwk/fleet/appliance/worker"
)

// query is one worker.D1Query as Hrana statements: several when its SQL
// holds several statements (allowed only without arguments; its result is
// the last one's).
type query struct {
	sql      string
	parts    []hrana.Stmt
	kinds    []string // first keyword of each part
	readOnly bool
}

// prepareQuery splits and converts q.
func prepareQuery(q worker.D1Query) (query, error) {
	texts := d1.Split(q.SQL)
	switch {
	case len(texts) == 0:
		return query{}, fmt.Errorf("%w: no SQL statement in %q", ErrStatement, q.SQL)
	case len(texts) > 1 && len(q.Args) > 0:
		return query{}, fmt.Errorf("%w: several statements with arguments; bind arguments to one statement at a time", ErrStatement)
	}
	args := make([]hrana.Value, len(q.Args))
	for i, a := range q.Args {
		v, err := hranaValue(a)
		if err != nil {
			return query{}, fmt.Errorf("argument %d: %w", i+1, err)
		}
		args[i] = v
	}
	out := query{sql: q.SQL, readOnly: true}
	for _, text := range texts {
		st := hrana.NewStmt(text)
		if len(args) > 0 {
			st.Args = args
		}
		out.parts = append(out.parts, st)
		out.kinds = append(out.kinds, d1.FirstKeyword(text))
		out.readOnly = out.readOnly && d1.ReadOnly(text)
	}
	return out, nil
}

// hranaValue converts an argument (already normalised by worker.Storage,
// normalised again for direct callers).
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

// batchPlan is one StorageBackend.Batch as one Hrana batch. A batch that
// may write is
//
//	PRAGMA foreign_keys = ON     (as objlocal's SQLite connections have it)
//	BEGIN IMMEDIATE
//	<epoch guard>                fails unless the stored epoch is ours
//	<statements>                 each only if the step before succeeded
//	COMMIT
//	ROLLBACK                     if BEGIN ran and COMMIT did not succeed
//
// A batch of reads only runs in a deferred transaction that starts by
// reading the stored epoch; its results are discarded unless that epoch is
// ours, so a stale holder can neither write nor read.
type batchPlan struct {
	queries []query
	steps   []hrana.BatchStep
	write   bool
	pragma  int // -1 for reads
	begin   int
	guard   int
	first   []int // first step of each query
	commit  int
}

func planBatch(stmts []worker.D1Query, epoch int64) (*batchPlan, error) {
	p := &batchPlan{pragma: -1}
	for i, q := range stmts {
		pq, err := prepareQuery(q)
		if err != nil {
			return nil, &worker.D1Error{Index: i, SQL: q.SQL, Err: err}
		}
		p.queries = append(p.queries, pq)
		p.write = p.write || !pq.readOnly
	}
	if p.write {
		p.pragma = p.add(hrana.NewStmt(`PRAGMA foreign_keys = ON`))
		p.begin = p.add(hrana.NewStmt(`BEGIN IMMEDIATE`))
		p.guard = p.add(noRows(hrana.NewStmt(epochGuard, hrana.Integer(epoch))))
	} else {
		p.begin = p.add(hrana.NewStmt(`BEGIN`))
		p.guard = p.add(hrana.NewStmt(epochSelect))
	}
	for _, q := range p.queries {
		p.first = append(p.first, len(p.steps))
		for _, st := range q.parts {
			p.add(st)
		}
	}
	p.commit = p.add(hrana.NewStmt(`COMMIT`))
	p.steps = append(p.steps, rollbackStep(p.begin, p.commit))
	return p, nil
}

// add appends st to run if the step before succeeded and returns its index.
func (p *batchPlan) add(st hrana.Stmt) int {
	step := hrana.BatchStep{Stmt: st}
	if n := len(p.steps); n > 0 {
		step.Condition = hrana.CondOK(uint32(n - 1))
	}
	p.steps = append(p.steps, step)
	return len(p.steps) - 1
}

// results maps the server's answer to one result per query, or to the
// error of the step that failed. elapsed is the round trip's duration.
func (p *batchPlan) results(res hrana.BatchResult, epoch int64, elapsed time.Duration) ([]worker.D1Result, error) {
	if p.pragma >= 0 {
		if e := hranaclient.StepError(res, p.pragma); e != nil {
			return nil, fmt.Errorf("enable foreign keys: %w", e)
		}
	}
	if e := hranaclient.StepError(res, p.begin); e != nil {
		return nil, fmt.Errorf("begin: %w", e)
	}
	if e := hranaclient.StepError(res, p.guard); e != nil {
		if p.write && isConstraint(e) {
			return nil, fencedError(epoch, e)
		}
		return nil, fmt.Errorf("epoch guard: %w", e)
	}
	if !p.write {
		stored, err := epochOf(res.StepResults[p.guard])
		if err != nil {
			return nil, fmt.Errorf("epoch guard: %w", err)
		}
		if stored != epoch {
			return nil, fencedError(epoch, fmt.Errorf("held at epoch %d", stored))
		}
	}
	share := elapsed / time.Duration(max(len(p.queries), 1))
	out := make([]worker.D1Result, len(p.queries))
	for i, q := range p.queries {
		for j := range q.parts {
			if e := hranaclient.StepError(res, p.first[i]+j); e != nil {
				return nil, &worker.D1Error{Index: i, SQL: q.sql, Err: e}
			}
		}
		last := p.first[i] + len(q.parts) - 1
		r := res.StepResults[last]
		if r == nil {
			return nil, &worker.D1Error{Index: i, SQL: q.sql, Err: fmt.Errorf("statement did not run")}
		}
		out[i] = d1Result(q.kinds[len(q.kinds)-1], r, share)
	}
	if e := hranaclient.StepError(res, p.commit); e != nil {
		return nil, fmt.Errorf("commit: %w", e)
	}
	if !hranaclient.StepRan(res, p.commit) {
		return nil, fmt.Errorf("commit did not run")
	}
	return out, nil
}

// d1Result converts one statement's result. Changes are reported only for
// statements that change rows (a server may repeat the connection's last
// count for others), as objlocal's total_changes() accounting does.
func d1Result(keyword string, r *hrana.StmtResult, fallback time.Duration) worker.D1Result {
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
	switch keyword {
	case "INSERT", "UPDATE", "DELETE", "REPLACE", "WITH":
		m.Changes = int64(r.AffectedRowCount)
	}
	if r.LastInsertRowID.Valid {
		m.LastRowID = r.LastInsertRowID.Value
	}
	m.RowsRead = max(int64(r.RowsRead), int64(len(out.Rows)))
	m.RowsWritten = m.Changes
	m.Duration = time.Duration(r.QueryDurationMS * float64(time.Millisecond))
	if m.Duration <= 0 {
		m.Duration = fallback
	}
	return out
}

// isConstraint recognises a constraint violation by code or message.
func isConstraint(e *hranaclient.Error) bool {
	return strings.HasPrefix(e.Code, "SQLITE_CONSTRAINT") || strings.Contains(e.Message, "constraint failed")
}

// noRows asks the server not to send rows for st.
func noRows(st hrana.Stmt) hrana.Stmt {
	f := false
	st.WantRows = &f
	return st
}
