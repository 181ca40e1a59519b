package d1central

import (
	"context"
	"errors"
	"time"

	"github.com/dwk/fleet/appliance/libsql/hrana"
	"github.com/dwk/fleet/appliance/libsql/hranaclient"
)

// send runs one request of op with the D1 policy around the Hrana client:
// the namespace is created first if need be, the request and its retries
// are bounded by Config.Timeout, and a read-only request is retried while
// the server is unavailable. (The Hrana client itself retries only
// requests that never left the process.) A request that may write and may
// have reached the server is never repeated. do is one attempt; it is
// called with the bounded context.
func (db *DB) send(ctx context.Context, op string, readOnly bool, do func(ctx context.Context) error) error {
	rctx, cancel := context.WithTimeout(ctx, db.cfg.Timeout)
	defer cancel()
	if err := db.ensureNamespace(rctx); err != nil {
		return err
	}
	backoff := db.cfg.RetryBackoff
	for attempt := 0; ; attempt++ {
		err := do(rctx)
		if err == nil {
			return nil
		}
		if !readOnly || attempt >= db.cfg.Retries || !retryable(err) || rctx.Err() != nil || !sleep(rctx, backoff) {
			return &StoreError{Op: op, Namespace: db.cfg.Namespace, Err: err}
		}
		backoff *= 2
	}
}

// retryable reports whether a read-only request that failed with err is
// worth sending again: the server was unavailable, and the Hrana client
// has not already retried (it retries requests that were never sent).
func retryable(err error) bool {
	var te *hranaclient.TransportError
	if errors.As(err, &te) && !te.Sent {
		return false
	}
	return errors.Is(err, ErrUnavailable)
}

// ensureNamespace runs Config.CreateNamespace once, before the first
// request; a failure is returned and the next call tries again.
func (db *DB) ensureNamespace(ctx context.Context) error {
	if db.cfg.CreateNamespace == nil || db.nsReady.Load() {
		return nil
	}
	db.nsMu.Lock()
	defer db.nsMu.Unlock()
	if db.nsReady.Load() {
		return nil
	}
	if err := db.cfg.CreateNamespace(ctx, db.cfg.Namespace); err != nil {
		return &StoreError{Op: "create namespace", Namespace: db.cfg.Namespace, Err: err}
	}
	db.nsReady.Store(true)
	return nil
}

// sleep waits for d or until ctx ends, and reports whether d passed.
func sleep(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	}
}

// stepOutcome returns the result of a batch step, or its error, or
// (nil, nil) if the step was skipped or is missing.
func stepOutcome(b *hrana.BatchResult, step int) (*hrana.StmtResult, *hrana.Error) {
	var r *hrana.StmtResult
	var e *hrana.Error
	if step >= 0 && step < len(b.StepResults) {
		r = b.StepResults[step]
	}
	if step >= 0 && step < len(b.StepErrors) {
		e = b.StepErrors[step]
	}
	return r, e
}
