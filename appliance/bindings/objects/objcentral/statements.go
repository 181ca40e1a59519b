package objcentral

import (
	"context"
	"fmt"
	"strings"

	"github.com/dwk/fleet/appliance/bindings/d1"
	"github.com/dwk/fleet/appliance/libsql/hrana"
	"github.com/dwk/fleet/appliance/libsql/hranaclient"
	"github.com/dwk/fleet/appliance/worker"
)

// checkQuery refuses what the object storage API does not run: an empty
// query, or several statements with arguments.
func checkQuery(q worker.D1Query) error {
	texts := d1.Split(q.SQL)
	switch {
	case len(texts) == 0:
		return fmt.Errorf("%w: no SQL statement in %q", ErrStatement, q.SQL)
	case len(texts) > 1 && len(q.Args) > 0:
		return fmt.Errorf("%w: several statements with arguments; bind arguments to one statement at a time", ErrStatement)
	}
	return nil
}

// checkedTx applies checkQuery inside a transaction.
type checkedTx struct{ tx worker.SQLExecer }

func (t checkedTx) Exec(ctx context.Context, q worker.D1Query) (worker.D1Result, error) {
	if err := checkQuery(q); err != nil {
		return worker.D1Result{}, err
	}
	return t.tx.Exec(ctx, q)
}

// isConstraint recognises a constraint failure, which is how the epoch
// guard fails.
func isConstraint(e *hranaclient.Error) bool {
	return strings.HasPrefix(e.Code, "SQLITE_CONSTRAINT") || strings.Contains(e.Message, "constraint failed")
}

// noRows asks the server not to send rows for st.
func noRows(st hrana.Stmt) hrana.Stmt {
	f := false
	st.WantRows = &f
	return st
}

// leaseCause returns err, with the lease's end added when that is why ctx
// was cancelled.
func leaseCause(ctx context.Context, err error) error {
	if cause := context.Cause(ctx); cause != nil && cause != ctx.Err() {
		return fmt.Errorf("%w (%w)", cause, err)
	}
	return err
}
