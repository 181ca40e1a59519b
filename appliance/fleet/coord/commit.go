package coord

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// MaxShared is the most Shared operations one transaction commits.
const MaxShared = 16

// commitAlone commits one operation in a transaction of its own.
func (s *Store) commitAlone(ctx context.Context, a *Atomic) (CommitResult, error) {
	out, errs := s.commit(ctx, []*Atomic{a})
	if errors.Is(errs[0], errRolledBack) {
		// Alone, nothing else rolled it back: the transaction did not
		// commit, and wrote nothing.
		return CommitResult{}, errors.New("atomic commit: the transaction was rolled back before it committed; nothing was written")
	}
	return out[0], errs[0]
}

// commitShared commits a batch of Shared operations in one transaction.
// Those that an error rolling back the whole transaction took down with
// it are then committed alone.
func (s *Store) commitShared(ctx context.Context, ops []*Atomic) ([]CommitResult, []error) {
	out, errs := s.commit(ctx, ops)
	for i, err := range errs {
		if errors.Is(err, errRolledBack) {
			out[i], errs[i] = s.commitAlone(ctx, ops[i])
		}
	}
	return out, errs
}

// commit sends ops in one transaction, in one round trip (again while the
// database was too busy to begin it), and returns each one's outcome.
func (s *Store) commit(ctx context.Context, ops []*Atomic) ([]CommitResult, []error) {
	fail := func(err error) ([]CommitResult, []error) {
		errs := make([]error, len(ops))
		for i, a := range ops {
			errs[i] = fmt.Errorf("atomic commit (%d checks, %d mutations): %w", len(a.checks), len(a.muts), err)
		}
		return make([]CommitResult, len(ops)), errs
	}
	plan, err := planCommit(ops)
	if err != nil {
		return fail(err)
	}
	for attempt := 1; ; attempt++ {
		res, err := s.c.Batch(ctx, plan.steps)
		if err != nil {
			return fail(err)
		}
		out, errs, retry := plan.result(res)
		if !retry {
			return out, errs
		}
		// The database stayed locked past the server's busy timeout and
		// the transaction never began: sending it again is safe.
		if werr := sleepCtx(ctx, time.Duration(attempt)*5*time.Millisecond); werr != nil {
			return fail(fmt.Errorf("%w (database busy)", werr))
		}
	}
}

// sleepCtx waits for d or until ctx ends.
func sleepCtx(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
