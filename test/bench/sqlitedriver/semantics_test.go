package sqlitedriver

import (
	"database/sql"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"zombiezen.com/go/sqlite"
	"zombiezen.com/go/sqlite/sqlitex"
)

// TestDocumentedBehaviour pins the driver behaviours docs/sqlite-driver.md
// cites for D1, where values must come back exactly as stored and argument
// counts must be checked. If a driver release changes one, this fails and
// the document needs updating.
func TestDocumentedBehaviour(t *testing.T) {
	const stored = "2024-01-02T10:00:00.000Z"
	for _, name := range []string{"sqlite", "sqlite3"} {
		t.Run(name, func(t *testing.T) {
			db, err := sql.Open(name, filepath.Join(t.TempDir(), "b.db"))
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			db.SetMaxOpenConns(1)
			if _, err := db.Exec("CREATE TABLE t (d DATETIME); INSERT INTO t VALUES ('" + stored + "')"); err != nil {
				t.Fatal(err)
			}
			var got any
			if err := db.QueryRow("SELECT d FROM t").Scan(&got); err != nil {
				t.Fatal(err)
			}
			if _, ok := got.(time.Time); !ok {
				t.Errorf("DATETIME text scanned into any is %T %v, the document says time.Time", got, got)
			}
			_, err = db.Exec("SELECT ?", 1, 2)
			tooManyAccepted := err == nil
			if want := name == "sqlite"; tooManyAccepted != want {
				t.Errorf("too many arguments accepted = %v (%v), the document says %v", tooManyAccepted, err, want)
			}
			rows, err := db.Query("SELECT 1 AS a, 2 AS a")
			if err != nil {
				t.Fatal(err)
			}
			cols, _ := rows.Columns()
			rows.Close()
			if !slices.Equal(cols, []string{"a", "a"}) {
				t.Errorf("duplicate column names = %q", cols)
			}
		})
	}
	t.Run("zombiezen", func(t *testing.T) {
		c, err := sqlite.OpenConn(filepath.Join(t.TempDir(), "z.db"))
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		if err := sqlitex.ExecuteScript(c, "CREATE TABLE t (d DATETIME); INSERT INTO t VALUES ('"+stored+"')", nil); err != nil {
			t.Fatal(err)
		}
		st := c.Prep("SELECT d, 1 AS a, 2 AS a FROM t")
		defer st.Reset()
		if _, err := st.Step(); err != nil {
			t.Fatal(err)
		}
		if got := st.ColumnText(0); got != stored {
			t.Errorf("DATETIME text = %q, want %q", got, stored)
		}
		if got := []string{st.ColumnName(1), st.ColumnName(2)}; !slices.Equal(got, []string{"", "a"}) {
			t.Errorf("duplicate column names = %q, the document says [\"\" \"a\"]", got)
		}
	})
}
