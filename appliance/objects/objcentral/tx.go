package objcentral

import (
	"context"
	"fmt"
	"time"

	"github.com/dwk/fleet/appliance/hrana"
	"github.com/dwk/fleet/appliance/hranaclient"
	"github.com/dwk/fleet/appliance/worker"
)

// Transaction implements worker.StorageBackend on a Hrana stream: the
// first request opens the transaction (BEGIN IMMEDIATE) and runs the epoch
// guard in it, so the write lock is held and the epoch checked before fn
// runs; each statement is then one round trip, and the commit (or
// rollback) closes the stream in the same request. The server rolls back
// a stream left idle past its limit (10 s on sqld and dwk libsql).
func (d *DB) Transaction(ctx context.Context, fn func(tx worker.SQLExecer) error) (err error) {
	ctx, done, err := d.begin(ctx)
	if err != nil {
		return err
	}
	defer done()
	st := d.c.Stream()
	open := chain(
		hrana.NewStmt(`PRAGMA foreign_keys = ON`),
		hrana.NewStmt(`BEGIN IMMEDIATE`),
		noRows(hrana.NewStmt(epochGuard, hrana.Integer(d.epoch))),
	)
	res, err := st.Batch(ctx, open)
	if err == nil {
		err = openError(res, d.epoch)
	}
	finished := false
	defer func() {
		if !finished {
			// fn failed or panicked, or the open failed: roll back and
			// close in one request, bounded even if ctx is done.
			rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
			defer cancel()
			st.Pipeline(rctx, []hrana.StreamRequest{
				{Type: hrana.TypeExecute, Stmt: ptr(hrana.NewStmt(`ROLLBACK`))},
				{Type: hrana.TypeClose},
			})
			st.Close(rctx)
		}
	}()
	if err != nil {
		return fmt.Errorf("object storage transaction: %w", leaseCause(ctx, err))
	}
	if err := fn(&streamTx{st: st}); err != nil {
		return err
	}
	out, err := st.Pipeline(ctx, []hrana.StreamRequest{
		{Type: hrana.TypeExecute, Stmt: ptr(hrana.NewStmt(`COMMIT`))},
		{Type: hrana.TypeClose},
	})
	if err != nil {
		return fmt.Errorf("object storage transaction: commit: %w", leaseCause(ctx, err))
	}
	finished = true
	if e := out[0].Error; e != nil {
		return fmt.Errorf("object storage transaction: commit: %w", e)
	}
	return nil
}

// openError checks the result of the transaction's opening batch.
func openError(res hrana.BatchResult, epoch int64) error {
	for i, what := range []string{"enable foreign keys", "begin"} {
		if e := hranaclient.StepError(res, i); e != nil {
			return fmt.Errorf("%s: %w", what, e)
		}
	}
	if e := hranaclient.StepError(res, 2); e != nil {
		if isConstraint(e) {
			return fencedError(epoch, e)
		}
		return fmt.Errorf("epoch guard: %w", e)
	}
	if !hranaclient.StepRan(res, 2) {
		return fmt.Errorf("epoch guard did not run")
	}
	return nil
}

// streamTx runs statements inside an open stream transaction.
type streamTx struct{ st *hranaclient.Stream }

// Exec implements worker.SQLExecer: one round trip per call. A statement
// error leaves the transaction open, as SQLite does.
func (t *streamTx) Exec(ctx context.Context, q worker.D1Query) (worker.D1Result, error) {
	pq, err := prepareQuery(q)
	if err != nil {
		return worker.D1Result{}, err
	}
	start := time.Now()
	res, err := t.st.Batch(ctx, chain(pq.parts...))
	if err != nil {
		return worker.D1Result{}, err
	}
	for i := range pq.parts {
		if e := hranaclient.StepError(res, i); e != nil {
			return worker.D1Result{}, e
		}
	}
	last := len(pq.parts) - 1
	r := res.StepResults[last]
	if r == nil {
		return worker.D1Result{}, fmt.Errorf("statement did not run")
	}
	return d1Result(pq.kinds[last], r, time.Since(start)), nil
}

func ptr[T any](v T) *T { return &v }
