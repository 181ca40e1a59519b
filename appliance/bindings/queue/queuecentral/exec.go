package queuecentral

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/dwk/fleet/appliance/libsql/hrana"
	"github.com/dwk/fleet/appliance/libsql/hranaclient"
)

// execute runs one statement in one round trip. A statement that failed
// because the database stayed locked past the server's busy timeout did
// not run, and is sent again until ctx ends.
func (b *Broker) execute(ctx context.Context, op string, stmt hrana.Stmt) (hrana.StmtResult, error) {
	for attempt := 1; ; attempt++ {
		res, err := b.c.Execute(ctx, stmt)
		if err == nil {
			return res, nil
		}
		if !isBusy(err) {
			return hrana.StmtResult{}, fmt.Errorf("%s: %w", op, err)
		}
		if werr := backoff(ctx, attempt); werr != nil {
			return hrana.StmtResult{}, fmt.Errorf("%s: %w (database busy: %w)", op, werr, err)
		}
	}
}

// transact runs stmts in one transaction in one round trip:
//
//	BEGIN IMMEDIATE; stmts…; COMMIT; ROLLBACK (if BEGIN ran and COMMIT did not)
//
// each step running only if the one before it succeeded. It returns the
// statements' results, or the first failure, after which nothing was
// written (except after an error wrapping hranaclient.ErrOutcomeUnknown).
// A BEGIN refused because the database was busy is sent again.
func (b *Broker) transact(ctx context.Context, op string, stmts []hrana.Stmt) ([]hrana.StmtResult, error) {
	steps := transactionSteps(stmts)
	commit := len(stmts) + 1
	for attempt := 1; ; attempt++ {
		res, err := b.c.Batch(ctx, steps)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", op, err)
		}
		if e := hranaclient.StepError(res, 0); e != nil {
			if !isBusy(e) {
				return nil, fmt.Errorf("%s: begin: %w", op, e)
			}
			if werr := backoff(ctx, attempt); werr != nil {
				return nil, fmt.Errorf("%s: %w (database busy: %w)", op, werr, e)
			}
			continue
		}
		for i := 1; i <= commit; i++ {
			if e := hranaclient.StepError(res, i); e != nil {
				return nil, fmt.Errorf("%s: statement %d: %w", op, i, e)
			}
		}
		if !hranaclient.StepRan(res, commit) {
			return nil, fmt.Errorf("%s: COMMIT did not run and no step reported why", op)
		}
		out := make([]hrana.StmtResult, len(stmts))
		for i := range stmts {
			out[i] = *res.StepResults[i+1]
		}
		return out, nil
	}
}

// transactionSteps wraps stmts in BEGIN IMMEDIATE … COMMIT, with a
// ROLLBACK that runs if BEGIN ran and COMMIT did not.
func transactionSteps(stmts []hrana.Stmt) []hrana.BatchStep {
	steps := make([]hrana.BatchStep, 0, len(stmts)+3)
	steps = append(steps, hrana.BatchStep{Stmt: hrana.NewStmt(`BEGIN IMMEDIATE`)})
	for _, s := range append(stmts, hrana.NewStmt(`COMMIT`)) {
		steps = append(steps, hrana.BatchStep{Condition: hrana.CondOK(uint32(len(steps) - 1)), Stmt: s})
	}
	commit := uint32(len(steps) - 1)
	return append(steps, hrana.BatchStep{
		Condition: hrana.CondAnd(*hrana.CondOK(0), *hrana.CondNot(hrana.CondOK(commit))),
		Stmt:      hrana.NewStmt(`ROLLBACK`),
	})
}

// runAll runs stmts as one batch in which each runs only if the one before
// succeeded, and returns the first failure.
func runAll(ctx context.Context, batch func(context.Context, []hrana.BatchStep) (hrana.BatchResult, error), stmts []hrana.Stmt) error {
	steps := make([]hrana.BatchStep, len(stmts))
	for i, s := range stmts {
		steps[i] = hrana.BatchStep{Stmt: s}
		if i > 0 {
			steps[i].Condition = hrana.CondOK(uint32(i - 1))
		}
	}
	res, err := batch(ctx, steps)
	if err != nil {
		return err
	}
	for i := range steps {
		if e := stepError(res, i); e != nil {
			return e
		}
	}
	return nil
}

// stepError is hranaclient.StepError as an error (nil when the step
// succeeded).
func stepError(res hrana.BatchResult, i int) error {
	if e := hranaclient.StepError(res, i); e != nil {
		return e
	}
	return nil
}

// isBusy recognises a statement refused because another connection held
// the database: it did not run.
func isBusy(err error) bool {
	var e *hranaclient.Error
	if !errors.As(err, &e) || e.Status != 0 {
		return false
	}
	return strings.HasPrefix(e.Code, "SQLITE_BUSY") || strings.HasPrefix(e.Code, "SQLITE_LOCKED") ||
		strings.Contains(e.Message, "database is locked")
}

// backoff waits a little longer on every attempt, or until ctx ends.
func backoff(ctx context.Context, attempt int) error {
	t := time.NewTimer(time.Duration(min(attempt, 20)) * 5 * time.Millisecond)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
