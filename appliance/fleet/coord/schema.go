package coord

import (
	"context"
	"fmt"

	"github.com/dwk/fleet/appliance/libsql/hrana"
	"github.com/dwk/fleet/appliance/libsql/hranaclient"
)

// SchemaVersion is the table layout this package writes and reads. Open
// refuses a database whose coord_meta.schema_version is higher.
const SchemaVersion = 1

// schemaSteps create the tables in one transaction; a replica racing
// another to create them waits for the other's BEGIN IMMEDIATE.
var schemaSteps = []string{
	`BEGIN IMMEDIATE`,
	`CREATE TABLE IF NOT EXISTS coord_meta (
		id             INTEGER PRIMARY KEY CHECK (id = 1),
		schema_version INTEGER NOT NULL,
		versionstamp   INTEGER NOT NULL,
		check_ok       INTEGER NOT NULL DEFAULT 1
	)`,
	`CREATE TABLE IF NOT EXISTS coord_kv (
		key          BLOB PRIMARY KEY,
		value        BLOB NOT NULL,
		versionstamp INTEGER NOT NULL,
		expires_at   INTEGER
	) WITHOUT ROWID`,
	`CREATE INDEX IF NOT EXISTS coord_kv_expires ON coord_kv (expires_at) WHERE expires_at IS NOT NULL`,
	`INSERT INTO coord_meta (id, schema_version, versionstamp) VALUES (1, ` + fmt.Sprint(SchemaVersion) + `, 0)
		ON CONFLICT (id) DO NOTHING`,
	`COMMIT`,
}

// ensureSchema creates the tables if needed and checks the schema version,
// in one round trip.
func (s *Store) ensureSchema(ctx context.Context) error {
	steps := make([]hrana.BatchStep, 0, len(schemaSteps)+2)
	for i, sql := range schemaSteps {
		st := hrana.BatchStep{Stmt: hrana.NewStmt(sql)}
		if i > 0 {
			st.Condition = hrana.CondOK(uint32(i - 1))
		}
		steps = append(steps, st)
	}
	commit := uint32(len(schemaSteps) - 1)
	steps = append(steps,
		hrana.BatchStep{Condition: hrana.CondAnd(*hrana.CondOK(0), *hrana.CondNot(hrana.CondOK(commit))), Stmt: hrana.NewStmt(`ROLLBACK`)},
		hrana.BatchStep{Stmt: hrana.NewStmt(`SELECT schema_version FROM coord_meta WHERE id = 1`)},
	)
	res, err := s.c.Batch(ctx, steps)
	if err != nil {
		if hranaclient.IsCode(err, hrana.CodeNamespaceNotFound) {
			return fmt.Errorf("%w: namespace %q: create it first (terraform apply, or libsqladmin.Create): %w", ErrNoDatabase, s.c.Namespace(), err)
		}
		return fmt.Errorf("create coordination schema: %w", err)
	}
	for i := range schemaSteps {
		if e := hranaclient.StepError(res, i); e != nil {
			return fmt.Errorf("create coordination schema: %w", e)
		}
	}
	last := len(steps) - 1
	if e := hranaclient.StepError(res, last); e != nil {
		return fmt.Errorf("read coordination schema version: %w", e)
	}
	rows := res.StepResults[last].Rows
	if len(rows) != 1 || len(rows[0]) != 1 || rows[0][0].Kind != hrana.KindInteger {
		return fmt.Errorf("read coordination schema version: coord_meta has no row")
	}
	if v := rows[0][0].Int; v > SchemaVersion {
		return fmt.Errorf("%w: database has schema %d, this dwk knows %d: upgrade dwk", ErrSchemaTooNew, v, SchemaVersion)
	}
	return nil
}
