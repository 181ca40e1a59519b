package d1central

import (
	"database/sql"
	"testing"

	"github.com/dwk/fleet/appliance/worker"
)

// TestSQLConnector writes through the D1 API and reads the same database
// through libsql-client-go, and the other way round.
func TestSQLConnector(t *testing.T) {
	e := startEnv(t)
	cfg := e.config(t)
	db := openConfig(t, cfg)
	d := worker.NewD1(db)
	ctx := t.Context()
	if _, err := d.Exec(ctx, "CREATE TABLE t (v TEXT); INSERT INTO t VALUES ('from d1')"); err != nil {
		t.Fatal(err)
	}
	c, err := SQLConnector(cfg)
	if err != nil {
		t.Fatal(err)
	}
	sdb := sql.OpenDB(c)
	defer sdb.Close()
	var v string
	if err := sdb.QueryRowContext(ctx, "SELECT v FROM t").Scan(&v); err != nil || v != "from d1" {
		t.Fatalf("read through libsql-client-go: %q, %v; want 'from d1'", v, err)
	}
	if _, err := sdb.ExecContext(ctx, "INSERT INTO t VALUES (?)", "from database/sql"); err != nil {
		t.Fatal(err)
	}
	row, err := d.Prepare("SELECT count(*) AS n FROM t").First(ctx)
	if err != nil || row["n"] != int64(2) {
		t.Errorf("count through D1 = %v, %v; want 2", row, err)
	}
	if _, err := SQLConnector(Config{URL: "ftp://x"}); err == nil {
		t.Errorf("SQLConnector of a bad URL succeeded")
	}
}
