package d1migrations

import (
	"errors"
	"strings"

	"github.com/dwk/fleet/appliance/bindings/d1"
)

// ErrTransactions is returned by Statements for a script that wraps its
// statements in more than one transaction.
var ErrTransactions = errors.New("the SQL holds several BEGIN TRANSACTION statements; D1 runs the whole file in one transaction of its own: remove them, or export the file again from SQLite (sqlite3 .dump writes one, which is removed)")

// Statements returns the statements of a SQL script (a migration, or a
// file given to `d1 execute --file`) as wrangler runs them: the first
// "BEGIN TRANSACTION;" and "COMMIT;" are removed when the script holds a
// BEGIN TRANSACTION (as sqlite3's .dump writes them), then the script is
// split where SQLite ends a statement (d1.Split). Empty statements and
// comments between statements are dropped.
func Statements(script string) ([]string, error) {
	if strings.Contains(script, "BEGIN TRANSACTION") {
		script = strings.Replace(script, "BEGIN TRANSACTION;", "", 1)
		script = strings.Replace(script, "COMMIT;", "", 1)
		if strings.Contains(script, "BEGIN TRANSACTION") {
			return nil, ErrTransactions
		}
	}
	return d1.Split(script), nil
}
