package d1central

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/dwk/fleet/appliance/bindings/d1"
	"github.com/dwk/fleet/appliance/libsql/hrana"
	"github.com/dwk/fleet/appliance/libsql/hranaclient"
	"github.com/dwk/fleet/appliance/worker"
)

// Statements the backend adds around a batch.
const (
	// pragmaForeignKeys turns foreign keys on for the stream's connection,
	// as D1 has them; SQLite, sqld and dwk libsql default to off. It must
	// run outside a transaction, so it comes first.
	pragmaForeignKeys = "PRAGMA foreign_keys = ON"
	beginWrite        = "BEGIN IMMEDIATE"
	beginRead         = "BEGIN"
	commit            = "COMMIT"
	rollback          = "ROLLBACK"
)

// batchPlan is a D1 batch as one Hrana batch: optionally the foreign-key
// pragma and BEGIN, then each statement conditioned on the success of the
// step before it, then the database size query (D1Meta.SizeAfter), then
// COMMIT if the last statement succeeded and ROLLBACK
// if COMMIT did not run or failed. A lone statement runs in SQLite's
// implicit transaction, without BEGIN and COMMIT.
type batchPlan struct {
	stmts    []worker.D1Query
	steps    []hrana.BatchStep
	readOnly bool
	pragma   int // step of the pragma, -1 if none
	schema   int // step creating the bookmark table, -1 if none
	begin    int // step of BEGIN, -1 if none
	check    int // step checking the session's bookmark, -1 if none
	first    int // step of stmts[0]
	size     int // step of the database size query, after the last statement
	mark     int // step advancing (a write) or reading the position, -1 if none
	commit   int // step of COMMIT, -1 if none
}

// planBatch checks stmts and builds their plan. A statement that fails the
// checks fails the batch before anything is sent, with its index. after
// is the session's position (nil outside a session); schema asks for the
// bookmark table to be created first if the plan uses it.
func planBatch(stmts []worker.D1Query, after *worker.D1Position, schema bool) (*batchPlan, error) {
	p := &batchPlan{stmts: stmts, readOnly: true, pragma: -1, schema: -1, begin: -1, check: -1, mark: -1, commit: -1}
	hs := make([]hrana.Stmt, len(stmts))
	for i, q := range stmts {
		st, err := statement(q)
		if err != nil {
			return nil, &worker.D1Error{Index: i, SQL: q.SQL, Err: err}
		}
		hs[i] = st
		p.readOnly = p.readOnly && d1.ReadOnly(q.SQL)
	}
	p.steps = make([]hrana.BatchStep, 0, len(stmts)+4)
	if !p.readOnly {
		p.pragma = p.add(pragmaForeignKeys)
	}
	marked := !p.readOnly || after != nil
	if marked && schema {
		p.schema = p.add(d1.BookmarkSchema)
	}
	// A lone write runs in a transaction too, so that it and its bookmark
	// advance are one commit (as in d1local), unless SQLite refuses the
	// statement inside one.
	if len(stmts) > 1 || !p.readOnly && !d1.OutsideTransaction(stmts[0].SQL) {
		begin := beginWrite
		if p.readOnly {
			begin = beginRead
		}
		p.begin = p.add(begin)
	}
	if after != nil && *after != (worker.D1Position{}) {
		st, err := statement(worker.D1Query{SQL: d1.BookmarkCheck, Args: d1.BookmarkCheckArgs(*after)})
		if err != nil {
			return nil, &worker.D1Error{Index: 0, SQL: stmts[0].SQL, Err: fmt.Errorf("d1 batch: bookmark check: %w", err)}
		}
		p.check = len(p.steps)
		p.steps = append(p.steps, hrana.BatchStep{Condition: p.afterPrevious(), Stmt: st})
	}
	p.first = len(p.steps)
	for _, st := range hs {
		p.steps = append(p.steps, hrana.BatchStep{Condition: p.afterPrevious(), Stmt: st})
	}
	p.size = len(p.steps)
	p.steps = append(p.steps, hrana.BatchStep{Condition: p.afterPrevious(), Stmt: hrana.NewStmt(worker.SQLDatabaseSize)})
	if marked {
		// A lone statement outside a transaction has committed already:
		// its position is advanced in a commit of its own, after it.
		sql := d1.BookmarkRead
		if !p.readOnly {
			sql = d1.BookmarkAdvance
		}
		p.mark = len(p.steps)
		p.steps = append(p.steps, hrana.BatchStep{Condition: p.afterPrevious(), Stmt: hrana.NewStmt(sql)})
	}
	if p.begin >= 0 {
		p.commit = p.add(commit)
		c := p.commit
		p.steps = append(p.steps, hrana.BatchStep{
			Condition: hrana.CondNot(hrana.CondOK(uint32(c))),
			Stmt:      noRows(rollback),
		})
	}
	return p, nil
}

// add appends a step for one of the backend's own statements, run if the
// step before it succeeded, and returns its index.
func (p *batchPlan) add(sql string) int {
	p.steps = append(p.steps, hrana.BatchStep{Condition: p.afterPrevious(), Stmt: noRows(sql)})
	return len(p.steps) - 1
}

// afterPrevious is the condition "the step before succeeded" (none for
// the first step).
func (p *batchPlan) afterPrevious() *hrana.BatchCond {
	if len(p.steps) == 0 {
		return nil
	}
	return hrana.CondOK(uint32(len(p.steps) - 1))
}

// noRows returns a statement for sql that wants no rows.
func noRows(sql string) hrana.Stmt {
	st := hrana.NewStmt(sql)
	f := false
	st.WantRows = &f
	return st
}

// results maps the server's answer to one result per statement, or to the
// error of the statement that failed. elapsed is the round trip's time.
func (p *batchPlan) results(b *hrana.BatchResult, elapsed time.Duration) ([]worker.D1Result, error) {
	last := len(p.stmts) - 1
	if _, e := stepOutcome(b, p.pragma); e != nil {
		return nil, &worker.D1Error{Index: 0, SQL: p.stmts[0].SQL, Err: fmt.Errorf("d1 batch: enable foreign keys: %w", e)}
	}
	if _, e := stepOutcome(b, p.schema); e != nil {
		return nil, &worker.D1Error{Index: 0, SQL: p.stmts[0].SQL, Err: fmt.Errorf("d1 batch: create %s: %w", worker.D1BookmarkTable, e)}
	}
	if _, e := stepOutcome(b, p.begin); e != nil {
		return nil, &worker.D1Error{Index: 0, SQL: p.stmts[0].SQL, Err: fmt.Errorf("d1 batch: begin: %w", e)}
	}
	if _, e := stepOutcome(b, p.check); e != nil {
		return nil, &worker.D1Error{Index: 0, SQL: p.stmts[0].SQL, Err: fmt.Errorf("%w: %w", errBookmarkCheck, e)}
	}
	share := elapsed / time.Duration(len(p.stmts))
	out := make([]worker.D1Result, len(p.stmts))
	for i, q := range p.stmts {
		r, e := stepOutcome(b, p.first+i)
		if e != nil {
			return nil, &worker.D1Error{Index: i, SQL: q.SQL, Err: e}
		}
		if r == nil {
			return nil, &worker.D1Error{Index: i, SQL: q.SQL, Err: fmt.Errorf("d1 batch: statement skipped: %w", errIncomplete)}
		}
		out[i] = d1Result(q.SQL, r, share)
	}
	size, e := stepOutcome(b, p.size)
	if size == nil || len(size.Rows) != 1 || len(size.Rows[0]) != 1 {
		var cause error = errIncomplete
		if e != nil {
			cause = e
		}
		return nil, &worker.D1Error{Index: last, SQL: p.stmts[last].SQL, Err: fmt.Errorf("d1 batch: database size: %w", cause)}
	}
	sizeAfter, _ := size.Rows[0][0].Go().(int64)
	for i := range out {
		out[i].Meta.SizeAfter = sizeAfter
	}
	if p.mark >= 0 {
		r, e := stepOutcome(b, p.mark)
		var pos worker.D1Position
		err := error(errIncomplete)
		switch {
		case e != nil:
			err = e
		case r != nil && len(r.Rows) == 1:
			row := make([]any, len(r.Rows[0]))
			for j, v := range r.Rows[0] {
				row[j] = v.Go()
			}
			pos, err = d1.Position(row)
		}
		if err != nil {
			if !p.readOnly && p.begin < 0 {
				err = fmt.Errorf("the statement took effect, but advancing the bookmark failed: %w", err)
			}
			return nil, &worker.D1Error{Index: last, SQL: p.stmts[last].SQL, Err: fmt.Errorf("d1 batch: bookmark: %w", err)}
		}
		bookmark := pos.Bookmark()
		for i := range out {
			out[i].Meta.Bookmark = bookmark
		}
	}
	if p.commit >= 0 {
		if r, e := stepOutcome(b, p.commit); r == nil {
			var cause error = errIncomplete
			if e != nil {
				cause = e
			}
			return nil, &worker.D1Error{Index: last, SQL: p.stmts[last].SQL, Err: fmt.Errorf("d1 batch: commit: %w", cause)}
		}
	}
	return out, nil
}

// Batch runs stmts in order as one transaction in one round trip to the
// server (one HTTP request: a Hrana batch with BEGIN, the statements and
// COMMIT or ROLLBACK, then closing the stream) and returns one result per
// statement. On any failure nothing takes effect and the error is a
// *worker.D1Error naming the failing statement.
//
// When no answer arrives (the context ended, the server is unreachable
// or slow), which statement was running is unknown: the error then names
// the last statement, where the batch would have committed, and wraps a
// *StoreError. A batch of reads, or one that certainly did not reach the
// server, is retried; a batch that may write and may have reached the
// server is not, and its error matches ErrOutcomeUnknown.
func (db *DB) Batch(ctx context.Context, stmts []worker.D1Query) ([]worker.D1Result, error) {
	return db.batch(ctx, stmts, nil)
}

// BatchAfter implements worker.D1Backend: Batch, with a step before the
// statements, in the same request, that fails unless the database has
// reached after, and one after them that reads (or, for a write,
// advances) the position. When the check fails, a second request reads
// the position to say why.
func (db *DB) BatchAfter(ctx context.Context, after worker.D1Position, stmts []worker.D1Query) ([]worker.D1Result, error) {
	rs, err := db.batch(ctx, stmts, &after)
	if !errors.Is(err, errBookmarkCheck) {
		return rs, err
	}
	pos, perr := db.position(ctx)
	switch {
	case perr != nil:
		err = perr
	case pos.Reached(after) != nil:
		err = pos.Reached(after)
	default:
		// Reached meanwhile: the session tries again.
		err = fmt.Errorf("%w: reached while the batch was checked; try again", worker.ErrD1BookmarkAhead)
	}
	return nil, &worker.D1Error{Index: 0, SQL: stmts[0].SQL, Err: err}
}

// position reads the database's commit position in a request of its own.
func (db *DB) position(ctx context.Context) (worker.D1Position, error) {
	rs, err := db.batch(ctx, []worker.D1Query{{SQL: d1.BookmarkRead}}, nil)
	if err != nil {
		return worker.D1Position{}, err
	}
	if len(rs[0].Rows) != 1 {
		return worker.D1Position{}, fmt.Errorf("d1 bookmark: %s returned %d rows", worker.D1BookmarkTable, len(rs[0].Rows))
	}
	return d1.Position(rs[0].Rows[0])
}

// batch runs Batch; after is nil outside a session.
func (db *DB) batch(ctx context.Context, stmts []worker.D1Query, after *worker.D1Position) ([]worker.D1Result, error) {
	if len(stmts) == 0 {
		return []worker.D1Result{}, nil
	}
	if err := db.enter(); err != nil {
		return nil, &worker.D1Error{Index: 0, SQL: stmts[0].SQL, Err: err}
	}
	defer db.calls.Done()
	p, err := planBatch(stmts, after, !db.bookmarkReady.Load())
	if err != nil {
		return nil, err
	}
	last := len(stmts) - 1
	if err := ctx.Err(); err != nil {
		return nil, &worker.D1Error{Index: 0, SQL: stmts[0].SQL, Err: err}
	}
	start := time.Now()
	var res hrana.BatchResult
	err = db.send(ctx, "batch", p.readOnly, func(ctx context.Context) (err error) {
		res, err = db.client.Batch(ctx, p.steps)
		return err
	})
	var refused *hranaclient.Error
	switch {
	case errors.As(err, &refused) && !errors.Is(err, ErrOutcomeUnknown):
		// The server refused the batch as a whole (authentication,
		// namespace, rows too large) before it ran or rolled it back.
		return nil, &worker.D1Error{Index: 0, SQL: stmts[0].SQL, Err: err}
	case err != nil:
		return nil, &worker.D1Error{Index: last, SQL: stmts[last].SQL, Err: err}
	}
	if p.schema >= 0 {
		if r, _ := stepOutcome(&res, p.schema); r != nil {
			db.bookmarkReady.Store(true)
		}
	}
	rs, err := p.results(&res, time.Since(start))
	if err != nil && strings.Contains(err.Error(), "no such table: "+worker.D1BookmarkTable) {
		// The database was deleted and created again behind this DB's
		// back: the next batch creates the table again.
		db.bookmarkReady.Store(false)
	}
	return rs, err
}
