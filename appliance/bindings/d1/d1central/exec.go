package d1central

import (
	"context"
	"fmt"
	"time"

	"github.com/dwk/fleet/appliance/bindings/d1"
	"github.com/dwk/fleet/appliance/libsql/hrana"
	"github.com/dwk/fleet/appliance/libsql/hranaclient"
	"github.com/dwk/fleet/appliance/worker"
)

// streamCloseTimeout bounds closing the stream a failed Exec leaves open.
const streamCloseTimeout = 5 * time.Second

// Exec runs the statements of sql one after another, each in its own
// implicit transaction, and stops at the first failure, which it returns
// as a *worker.D1Error with the statement's index; the result then counts
// the statements that succeeded. Statements are split with d1.Split, as
// SQLite would split them, and may not have parameters. A script may use
// BEGIN and COMMIT, but a transaction it leaves open is rolled back and
// reported as an error (d1.ErrOpenTransaction).
//
// Exec costs one round trip per statement, all on one Hrana stream (so a
// script's BEGIN ... COMMIT spans requests). Sending statement by
// statement keeps the count exact when the context ends or the server
// goes away in the middle, which one Hrana batch could not tell. A
// request is retried only if it never left the process. The first request
// also enables foreign keys; the last one also asks whether a transaction
// is left open, and closes the stream. When any statement ran, one more
// request advances the database's commit position (worker.D1Position).
func (db *DB) Exec(ctx context.Context, sql string) (worker.D1ExecResult, error) {
	start := time.Now()
	if err := db.enter(); err != nil {
		return worker.D1ExecResult{}, &worker.D1Error{Index: 0, SQL: sql, Err: err}
	}
	defer db.calls.Done()
	if err := ctx.Err(); err != nil {
		return worker.D1ExecResult{}, &worker.D1Error{Index: 0, SQL: sql, Err: err}
	}
	n, err := db.script(ctx, d1.Split(sql))
	if n > 0 {
		// The statements that ran committed one by one; the position
		// counts them as one commit, after the last.
		if berr := db.advance(context.WithoutCancel(ctx)); berr != nil && err == nil {
			err = &worker.D1Error{Index: n - 1, SQL: sql, Err: fmt.Errorf("d1 exec: the statements took effect, but advancing the bookmark failed: %w", berr)}
		}
	}
	return worker.D1ExecResult{Count: n, Duration: time.Since(start)}, err
}

// advance counts one commit in the database's position, in a request of
// its own.
func (db *DB) advance(ctx context.Context) error {
	steps := []hrana.BatchStep{{Stmt: noRows(d1.BookmarkSchema)}, {Condition: hrana.CondOK(0), Stmt: noRows(d1.BookmarkAdvance)}}
	var res hrana.BatchResult
	err := db.send(ctx, "advance bookmark", false, func(ctx context.Context) (err error) {
		res, err = db.client.Batch(ctx, steps)
		return err
	})
	if err != nil {
		return err
	}
	if r, e := stepOutcome(&res, 1); r == nil {
		if e != nil {
			return e
		}
		return errIncomplete
	}
	return nil
}

// script runs stmts on one stream and returns how many succeeded.
func (db *DB) script(ctx context.Context, stmts []string) (n int, err error) {
	s := db.client.Stream()
	answered := true // the server answered the last request
	defer func() { db.closeStream(ctx, s, answered) }()
	for i, sql := range stmts {
		if p := scanParams(sql); p.count > 0 {
			return n, &worker.D1Error{Index: i, SQL: sql,
				Err: fmt.Errorf("%w: Exec takes no arguments, the statement has %d parameters", d1.ErrParamCount, p.count)}
		}
		last := i == len(stmts)-1
		var results []hrana.StreamResult
		// Not retried even when read-only: after a lost answer the
		// stream's state on the server is unknown, and the Hrana client
		// has closed it.
		err := db.send(ctx, "exec", false, func(ctx context.Context) (err error) {
			results, err = s.Pipeline(ctx, execRequests(sql, i == 0, last))
			return err
		})
		if err != nil {
			answered = false
			return n, &worker.D1Error{Index: i, SQL: sql, Err: err}
		}
		if err := execOutcome(results, i == 0); err != nil {
			return n, &worker.D1Error{Index: i, SQL: sql, Err: err}
		}
		n++
		if last && !autocommit(results[1]) {
			// The close that followed has rolled the transaction back.
			return n, &worker.D1Error{Index: i, SQL: sql, Err: d1.ErrOpenTransaction}
		}
	}
	return n, nil
}

// execRequests returns the pipeline for one statement of a script: a
// batch running it (after the foreign-key pragma on the first request),
// and on the last request get_autocommit and close.
func execRequests(sql string, first, last bool) []hrana.StreamRequest {
	var steps []hrana.BatchStep
	if first {
		steps = append(steps, hrana.BatchStep{Stmt: noRows(pragmaForeignKeys)})
	}
	st := hrana.BatchStep{Stmt: noRows(sql)}
	if first {
		st.Condition = hrana.CondOK(0)
	}
	steps = append(steps, st)
	reqs := []hrana.StreamRequest{{Type: hrana.TypeBatch, Batch: &hrana.Batch{Steps: steps}}}
	if last {
		reqs = append(reqs, hrana.StreamRequest{Type: hrana.TypeGetAutocommit}, hrana.StreamRequest{Type: hrana.TypeClose})
	}
	return reqs
}

// execOutcome returns the error of the statement execRequests sent, or
// of the pragma before it.
func execOutcome(results []hrana.StreamResult, first bool) error {
	if len(results) == 0 {
		return errIncomplete
	}
	r := results[0]
	if r.Error != nil {
		return fmt.Errorf("d1 exec: %w", r.Error)
	}
	if r.Response == nil || r.Response.Batch == nil {
		return fmt.Errorf("d1 exec: no batch result: %w", errIncomplete)
	}
	b := r.Response.Batch
	step := 0
	if first {
		if _, e := stepOutcome(b, 0); e != nil {
			return fmt.Errorf("d1 exec: enable foreign keys: %w", e)
		}
		step = 1
	}
	switch res, e := stepOutcome(b, step); {
	case e != nil:
		return e
	case res == nil:
		return fmt.Errorf("d1 exec: statement skipped: %w", errIncomplete)
	}
	return nil
}

// autocommit reads a get_autocommit result. A server without Hrana 3
// refuses the request; no transaction is reported open then (the close
// after it rolled back whatever was).
func autocommit(r hrana.StreamResult) bool {
	if r.Error != nil {
		return true
	}
	return r.Response != nil && r.Response.Type == hrana.TypeGetAutocommit && r.Response.IsAutocommit
}

// closeStream closes a stream a script may have left open, rolling back
// its transaction, and ignores failures: the server closes idle streams
// by itself. If the server answered the last request, the close waits for
// its answer, so that the rollback is done when Exec returns; otherwise
// it runs in the background, owned by the DB (Close waits for it). Either
// way it is bounded by streamCloseTimeout and outlives ctx.
func (db *DB) closeStream(ctx context.Context, s *hranaclient.Stream, wait bool) {
	run := func() {
		cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), streamCloseTimeout)
		defer cancel()
		_ = s.Close(cctx) // best effort, see above
	}
	if wait {
		run()
		return
	}
	db.calls.Add(1)
	go func() {
		defer db.calls.Done()
		run()
	}()
}
