package objcentral

import (
	"context"
	"fmt"
	"strings"

	"github.com/dwk/fleet/appliance/libsql/hrana"
	"github.com/dwk/fleet/appliance/libsql/hranaclient"
	"github.com/dwk/fleet/appliance/worker"
)

// Earlier versions kept an object's tables themselves in its primary
// database, one statement per round trip. The first open by this version
// imports them: it reads the schema and every row (two round trips),
// rebuilds them in the local replica, and its first commit ships every
// page and drops the old tables in the same transaction.

// legacyTables counts tables written by the earlier, row-per-row
// format, which kept the object's own tables in its database.
const legacyTables = `SELECT count(*) FROM sqlite_schema WHERE type = 'table'
	AND name NOT LIKE '\_dwk\_%' ESCAPE '\' AND name NOT LIKE 'sqlite\_%' ESCAPE '\'`

// legacySchema lists the object's own schema objects in creation order.
const legacySchema = `SELECT type, name, sql FROM sqlite_schema WHERE sql IS NOT NULL
	AND name NOT LIKE '\_dwk\_%' ESCAPE '\' AND name NOT LIKE 'sqlite\_%' ESCAPE '\' ORDER BY rowid`

type schemaObject struct{ typ, name, sql string }

// importLegacy copies the row-format database behind c into the freshly
// opened replica d and arranges for its first commit to replace the old
// tables with pages.
func importLegacy(ctx context.Context, c *hranaclient.Client, d *DB) error {
	res, err := c.Batch(ctx, chain(
		hrana.NewStmt(legacySchema),
		hrana.NewStmt(`SELECT count(*) FROM sqlite_schema WHERE name = 'sqlite_sequence'`),
	))
	if err != nil {
		return fmt.Errorf("read the earlier schema: %w", err)
	}
	for i := 0; i < 2; i++ {
		if e := hranaclient.StepError(res, i); e != nil {
			return fmt.Errorf("read the earlier schema: %w", e)
		}
	}
	var objs []schemaObject
	for _, row := range res.StepResults[0].Rows {
		o := schemaObject{typ: row[0].Text, name: row[1].Text, sql: row[2].Text}
		if o.typ == "table" && strings.HasPrefix(strings.ToUpper(strings.TrimSpace(o.sql)), "CREATE VIRTUAL") {
			return fmt.Errorf("%w: virtual table %q cannot be imported", ErrLegacy, o.name)
		}
		objs = append(objs, o)
	}
	hasSeq := res.StepResults[1].Rows[0][0].Int > 0
	var reads []hrana.Stmt
	var tables []schemaObject
	for _, o := range objs {
		if o.typ == "table" {
			tables = append(tables, o)
			reads = append(reads, hrana.NewStmt(`SELECT * FROM `+quoteIdent(o.name)))
		}
	}
	if hasSeq {
		reads = append(reads, hrana.NewStmt(`SELECT name, seq FROM sqlite_sequence`))
	}
	var rows hrana.BatchResult
	if len(reads) > 0 {
		if rows, err = c.Batch(ctx, chain(reads...)); err != nil {
			return fmt.Errorf("read the earlier rows: %w", err)
		}
		for i := range reads {
			if e := hranaclient.StepError(rows, i); e != nil {
				return fmt.Errorf("read the earlier rows: %w", e)
			}
		}
	}
	err = d.local.Transaction(ctx, func(tx worker.SQLExecer) error {
		exec := func(sql string, args ...any) error {
			_, err := tx.Exec(ctx, worker.D1Query{SQL: sql, Args: args})
			return err
		}
		if err := exec(`PRAGMA defer_foreign_keys = ON`); err != nil {
			return err
		}
		for i, t := range tables {
			if err := exec(t.sql); err != nil {
				return fmt.Errorf("create %s: %w", t.name, err)
			}
			r := rows.StepResults[i]
			marks := strings.TrimSuffix(strings.Repeat("?, ", len(r.Cols)), ", ")
			insert := `INSERT INTO ` + quoteIdent(t.name) + ` VALUES (` + marks + `)`
			for _, row := range r.Rows {
				args := make([]any, len(row))
				for j, v := range row {
					args[j] = goValue(v)
				}
				if err := exec(insert, args...); err != nil {
					return fmt.Errorf("copy a row of %s: %w", t.name, err)
				}
			}
		}
		if hasSeq {
			if err := exec(`DELETE FROM sqlite_sequence`); err != nil {
				return err
			}
			for _, row := range rows.StepResults[len(tables)].Rows {
				if err := exec(`INSERT INTO sqlite_sequence (name, seq) VALUES (?, ?)`, goValue(row[0]), goValue(row[1])); err != nil {
					return err
				}
			}
		}
		for _, o := range objs {
			if o.typ != "table" {
				if err := exec(o.sql); err != nil {
					return fmt.Errorf("create %s %s: %w", o.typ, o.name, err)
				}
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("import the earlier tables: %w", err)
	}
	var drops []hrana.Stmt
	for i := len(objs) - 1; i >= 0; i-- {
		o := objs[i]
		switch o.typ {
		case "table", "view":
			drops = append(drops, noRows(hrana.NewStmt(`DROP `+strings.ToUpper(o.typ)+` IF EXISTS `+quoteIdent(o.name))))
		}
	}
	if hasSeq {
		drops = append(drops, noRows(hrana.NewStmt(`DELETE FROM sqlite_sequence`)))
	}
	d.mu.Lock()
	d.full, d.also = true, drops
	d.mu.Unlock()
	return nil
}

// goValue turns a Hrana value into an argument of the storage API.
func goValue(v hrana.Value) any {
	switch v.Kind {
	case hrana.KindInteger:
		return v.Int
	case hrana.KindFloat:
		return v.Float
	case hrana.KindText:
		return v.Text
	case hrana.KindBlob:
		return v.Blob
	}
	return nil
}

// quoteIdent quotes a SQL identifier.
func quoteIdent(name string) string { return `"` + strings.ReplaceAll(name, `"`, `""`) + `"` }
