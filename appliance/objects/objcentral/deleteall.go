package objcentral

import (
	"context"
	"fmt"
	"strings"

	"github.com/dwk/fleet/appliance/hrana"
	"github.com/dwk/fleet/appliance/hranaclient"
)

// schemaList lists what DeleteAll drops: views first, then virtual tables
// (which drop their own shadow tables), then the other tables (indexes and
// triggers go with their tables). The epoch table stays.
const schemaList = `SELECT type, name FROM sqlite_schema
	WHERE type IN ('view', 'table') AND name NOT LIKE 'sqlite\_%' ESCAPE '\' AND name <> '_dwk_epoch'
	ORDER BY CASE WHEN type = 'view' THEN 0 WHEN sql LIKE 'CREATE VIRTUAL TABLE%' THEN 1 ELSE 2 END, name`

// deleteAll drops every object of the database but the epoch table inside
// one guarded transaction: foreign keys are deferred to the commit, when
// every table is gone, so drop order between tables does not matter.
func deleteAll(ctx context.Context, c *hranaclient.Client, epoch int64) error {
	st := c.Stream()
	defer st.Close(context.WithoutCancel(ctx))
	res, err := st.Batch(ctx, chain(
		hrana.NewStmt(`BEGIN IMMEDIATE`),
		noRows(hrana.NewStmt(epochGuard, hrana.Integer(epoch))),
		hrana.NewStmt(`PRAGMA defer_foreign_keys = ON`),
		hrana.NewStmt(schemaList),
	))
	if err != nil {
		return err
	}
	if e := hranaclient.StepError(res, 0); e != nil {
		return fmt.Errorf("begin: %w", e)
	}
	if e := hranaclient.StepError(res, 1); e != nil {
		if isConstraint(e) {
			return fencedError(epoch, e)
		}
		return fmt.Errorf("epoch guard: %w", e)
	}
	for i := 2; i < 4; i++ {
		if e := hranaclient.StepError(res, i); e != nil {
			return fmt.Errorf("list schema: %w", e)
		}
	}
	var stmts []hrana.Stmt
	for _, row := range res.StepResults[3].Rows {
		kind, name := row[0].Text, row[1].Text
		verb := "DROP TABLE IF EXISTS "
		if kind == "view" {
			verb = "DROP VIEW IF EXISTS "
		}
		stmts = append(stmts, noRows(hrana.NewStmt(verb+quoteIdent(name))))
	}
	stmts = append(stmts, hrana.NewStmt(`COMMIT`))
	steps := chain(stmts...)
	commit := len(steps) - 1
	res, err = st.Batch(ctx, steps)
	if err != nil {
		return err
	}
	for i := range steps {
		if e := hranaclient.StepError(res, i); e != nil {
			return fmt.Errorf("drop: %w", e)
		}
	}
	if !hranaclient.StepRan(res, commit) {
		return fmt.Errorf("commit did not run")
	}
	return nil
}

// quoteIdent quotes a SQL identifier.
func quoteIdent(s string) string { return `"` + strings.ReplaceAll(s, `"`, `""`) + `"` }
