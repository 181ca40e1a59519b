package d1local

import (
	"context"
	"fmt"

	"github.com/dwk/fleet/appliance/bindings/d1"
	"github.com/dwk/fleet/appliance/libsql/sqlite"
	"github.com/dwk/fleet/appliance/worker"
)

// exec runs the statements of script one at a time and returns how many
// succeeded.
func (c *conn) exec(ctx context.Context, script string) (n int, err error) {
	if err := ctx.Err(); err != nil {
		return 0, &worker.D1Error{Index: 0, SQL: script, Err: err}
	}
	c.rollback()
	defer c.interruptOn(ctx)()
	last := ""
	defer func() {
		if c.c.Autocommit() {
			return
		}
		c.rollback()
		if err == nil {
			err = stmtError(ctx, n-1, last, d1.ErrOpenTransaction)
		}
	}()
	for rest := d1.SkipSpace(script); rest != ""; rest = d1.SkipSpace(rest) {
		st, tail, err := c.c.Prepare(rest)
		if err != nil {
			// SQLite does not say where a statement it cannot parse ends;
			// the lexer's split names it for the error.
			return n, stmtError(ctx, n, d1.Split(rest)[0], err)
		}
		if st == nil {
			break
		}
		last, rest = rest[:len(rest)-len(tail)], tail
		if err := stepAll(ctx, st); err != nil {
			return n, stmtError(ctx, n, last, err)
		}
		n++
	}
	return n, nil
}

// stepAll runs st to completion, discarding its rows, and finalizes it.
func stepAll(ctx context.Context, st *sqlite.Stmt) error {
	if k := st.ParamCount(); k != 0 {
		st.Finalize()
		return fmt.Errorf("%w: Exec takes no arguments, the statement has %d parameters", d1.ErrParamCount, k)
	}
	for {
		row, err := step(ctx, st)
		if err != nil {
			st.Finalize()
			return err
		}
		if !row {
			return st.Finalize()
		}
	}
}
