package sqlitedriver

import (
	"database/sql"
	"fmt"
	"net/url"
	"path/filepath"
	"strings"
	"testing"

	_ "github.com/ncruces/go-sqlite3/driver" // registers "sqlite3"
	_ "modernc.org/sqlite"                   // registers "sqlite"
	"zombiezen.com/go/sqlite"
	"zombiezen.com/go/sqlite/sqlitex"
)

// target is one driver opened on one file, with the three operations the
// benchmarks time. Every target holds a single connection, so the figures
// compare engines and bindings, not pool behaviour.
type target interface {
	// insert stores one row in its own (autocommit) transaction.
	insert(v string) error
	// get reads the value of row id.
	get(id int64) (string, error)
	// insertMany stores n rows in one BEGIN IMMEDIATE transaction.
	insertMany(n int, v string) error
	close() error
}

// driver opens a target on path with the given PRAGMA synchronous level.
type driver struct {
	name string
	open func(path, sync string) (target, error)
}

var drivers = []driver{
	{"modernc", func(path, sync string) (target, error) { return openSQL("sqlite", path, sync) }},
	{"ncruces", func(path, sync string) (target, error) { return openSQL("sqlite3", path, sync) }},
	{"zombiezen", openZombiezen},
}

const schema = `CREATE TABLE IF NOT EXISTS t (id INTEGER PRIMARY KEY, v TEXT NOT NULL)`

// sqlTarget drives a database/sql driver through prepared statements.
type sqlTarget struct {
	db       *sql.DB
	ins, sel *sql.Stmt
}

func openSQL(driverName, path, sync string) (target, error) {
	q := url.Values{}
	q.Add("_pragma", "journal_mode(WAL)")
	q.Add("_pragma", "busy_timeout(5000)")
	q.Add("_pragma", "synchronous("+sync+")")
	q.Set("_txlock", "immediate")
	db, err := sql.Open(driverName, "file:"+path+"?"+q.Encode())
	if err != nil {
		return nil, err
	}
	db.SetMaxOpenConns(1)
	if _, err := db.Exec(schema); err != nil {
		db.Close()
		return nil, fmt.Errorf("%s: schema: %w", driverName, err)
	}
	t := &sqlTarget{db: db}
	if t.ins, err = db.Prepare(`INSERT INTO t (v) VALUES (?)`); err != nil {
		db.Close()
		return nil, err
	}
	if t.sel, err = db.Prepare(`SELECT v FROM t WHERE id = ?`); err != nil {
		db.Close()
		return nil, err
	}
	return t, nil
}

func (t *sqlTarget) insert(v string) error {
	_, err := t.ins.Exec(v)
	return err
}

func (t *sqlTarget) get(id int64) (string, error) {
	var v string
	err := t.sel.QueryRow(id).Scan(&v)
	return v, err
}

func (t *sqlTarget) insertMany(n int, v string) error {
	tx, err := t.db.Begin()
	if err != nil {
		return err
	}
	ins := tx.Stmt(t.ins)
	for range n {
		if _, err := ins.Exec(v); err != nil {
			tx.Rollback()
			return err
		}
	}
	return tx.Commit()
}

func (t *sqlTarget) close() error { return t.db.Close() }

// zzTarget drives zombiezen's direct API with its cached statements.
type zzTarget struct{ c *sqlite.Conn }

func openZombiezen(path, sync string) (target, error) {
	c, err := sqlite.OpenConn(path, sqlite.OpenReadWrite|sqlite.OpenCreate|sqlite.OpenWAL)
	if err != nil {
		return nil, err
	}
	c.SetBusyTimeout(5e9)
	for _, s := range []string{"PRAGMA synchronous=" + sync, schema} {
		if err := sqlitex.ExecuteTransient(c, s, nil); err != nil {
			c.Close()
			return nil, fmt.Errorf("zombiezen: %s: %w", s, err)
		}
	}
	return &zzTarget{c: c}, nil
}

func (t *zzTarget) insert(v string) error {
	return sqlitex.Execute(t.c, `INSERT INTO t (v) VALUES (?)`, &sqlitex.ExecOptions{Args: []any{v}})
}

func (t *zzTarget) get(id int64) (string, error) {
	st := t.c.Prep(`SELECT v FROM t WHERE id = ?`)
	st.BindInt64(1, id)
	defer st.Reset()
	ok, err := st.Step()
	if err != nil || !ok {
		return "", fmt.Errorf("zombiezen: get %d: row %v, %v", id, ok, err)
	}
	return st.ColumnText(0), nil
}

func (t *zzTarget) insertMany(n int, v string) (err error) {
	if err := sqlitex.Execute(t.c, "BEGIN IMMEDIATE", nil); err != nil {
		return err
	}
	defer func() {
		if err != nil {
			sqlitex.Execute(t.c, "ROLLBACK", nil)
		}
	}()
	st := t.c.Prep(`INSERT INTO t (v) VALUES (?)`)
	for range n {
		st.BindText(1, v)
		if _, err := st.Step(); err != nil {
			return err
		}
		if err := st.Reset(); err != nil {
			return err
		}
	}
	return sqlitex.Execute(t.c, "COMMIT", nil)
}

func (t *zzTarget) close() error { return t.c.Close() }

// openTarget opens d on a fresh file in the benchmark's temporary directory
// (TMPDIR moves it, e.g. onto the disk under test).
func openTarget(b *testing.B, d driver, sync string) target {
	b.Helper()
	dir := b.TempDir()
	path := filepath.Join(dir, strings.ToLower(d.name)+".db")
	t, err := d.open(path, sync)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() {
		if err := t.close(); err != nil {
			b.Error(err)
		}
	})
	return t
}
