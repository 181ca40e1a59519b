package d1migrations

import (
	"context"
	"fmt"
	"strings"

	"github.com/dwk/fleet/appliance/bindings/d1"
	"github.com/dwk/fleet/appliance/worker"
)

// DefaultTable is the tracking table wrangler uses when the wrangler file
// sets no migrations_table.
const DefaultTable = "d1_migrations"

// Applied is one row of the tracking table.
type Applied struct {
	// ID is the row's id: the order migrations were applied in.
	ID int64
	// Name is the migration's name (File.Name).
	Name string
	// AppliedAt is applied_at as stored: "YYYY-MM-DD HH:MM:SS" in UTC
	// when SQLite's CURRENT_TIMESTAMP filled it.
	AppliedAt string
}

// CreateTableSQL is the statement that creates the tracking table table,
// wrangler's (getCreateMigrationsTableQuery) character for character.
func CreateTableSQL(table string) string {
	return "CREATE TABLE IF NOT EXISTS " + quoteIdent(table) + `(
		id         INTEGER PRIMARY KEY AUTOINCREMENT,
		name       TEXT UNIQUE,
		applied_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP NOT NULL
);`
}

// quoteIdent quotes a SQLite identifier in double quotes.
func quoteIdent(id string) string {
	return `"` + strings.ReplaceAll(id, `"`, `""`) + `"`
}

// readApplied returns the rows of table in id order; none when the table
// does not exist.
func readApplied(ctx context.Context, db worker.D1Backend, table string) ([]Applied, error) {
	res, err := db.Batch(ctx, []worker.D1Query{{SQL: "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = ?", Args: []any{table}}})
	if err != nil {
		return nil, fmt.Errorf("read migrations table %s: %w", table, err)
	}
	if n, _ := res[0].Rows[0][0].(int64); n == 0 {
		return nil, nil
	}
	res, err = db.Batch(ctx, []worker.D1Query{{SQL: "SELECT id, name, applied_at FROM " + quoteIdent(table) + " ORDER BY id"}})
	if err != nil {
		return nil, fmt.Errorf("read migrations table %s: %w", table, err)
	}
	out := make([]Applied, 0, len(res[0].Rows))
	for _, row := range res[0].Rows {
		a := Applied{Name: d1.Text(row[1]), AppliedAt: d1.Text(row[2])}
		a.ID, _ = row[0].(int64)
		out = append(out, a)
	}
	return out, nil
}
