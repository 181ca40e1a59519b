package d1local

import (
	"context"
	"errors"
	"fmt"

	"zombiezen.com/go/sqlite"
	"zombiezen.com/go/sqlite/sqlitex"

	"github.com/dwk/fleet/appliance/bindings/d1"
)

// conn is one SQLite connection with its statement cache. One call uses it
// at a time (see pool).
type conn struct {
	c     *sqlite.Conn
	cache *stmtCache
	names columnNames
}

// openConn opens path with the settings of appliance/process/sqlitedb: WAL,
// synchronous FULL, a busy timeout and foreign keys on. A reader also gets
// query_only, so a statement wrongly taken for a read fails instead of
// writing outside the writer's serialisation.
func openConn(ctx context.Context, path string, readOnly bool) (*conn, error) {
	sc, err := sqlite.OpenConn(path, sqlite.OpenReadWrite|sqlite.OpenCreate|sqlite.OpenWAL)
	if err != nil {
		return nil, err
	}
	if ctx.Done() != nil {
		sc.SetInterrupt(ctx.Done())
		defer sc.SetInterrupt(nil)
	}
	sc.SetBusyTimeout(busyTimeout)
	pragmas := []string{"PRAGMA synchronous=FULL", "PRAGMA foreign_keys=ON"}
	if readOnly {
		pragmas = append(pragmas, "PRAGMA query_only=ON")
	}
	for _, p := range pragmas {
		if err := sqlitex.ExecuteTransient(sc, p, nil); err != nil {
			sc.Close()
			return nil, fmt.Errorf("%s: %w", p, err)
		}
	}
	return &conn{c: sc, cache: newStmtCache(stmtCacheSize), names: newColumnNames()}, nil
}

// close finalizes the cached statements and closes the connection.
func (c *conn) close() error {
	err := errors.Join(c.cache.clear(), c.c.Close())
	c.names.close()
	return err
}

// interruptOn makes ctx's end interrupt whatever the connection runs, until
// the returned function is called.
func (c *conn) interruptOn(ctx context.Context) (restore func()) {
	if ctx.Done() == nil {
		return func() {}
	}
	c.c.SetInterrupt(ctx.Done())
	return func() { c.c.SetInterrupt(nil) }
}

// prepare returns the prepared statement for sql, which must hold exactly
// one statement. The caller must release it before preparing another.
func (c *conn) prepare(sql string) (*sqlite.Stmt, error) {
	if st := c.cache.get(sql); st != nil {
		return st, nil
	}
	body := d1.SkipSpace(sql)
	if body == "" {
		return nil, d1.ErrNoStatement
	}
	st, trailing, err := c.c.PrepareTransient(body)
	if err != nil {
		return nil, err
	}
	if d1.SkipSpace(body[len(body)-trailing:]) != "" {
		st.Finalize()
		return nil, d1.ErrMultipleStatements
	}
	c.cache.put(sql, st)
	return st, nil
}

// release readies a statement from prepare for its next use. Its errors
// repeat the failure of the last step, which the caller already has.
func release(st *sqlite.Stmt) {
	st.Reset()
	st.ClearBindings()
}

// internal runs one of the connection's own fixed statements (BEGIN,
// COMMIT...) and returns the first column of its first row, if any.
func (c *conn) internal(sql string) (int64, error) {
	st, err := c.c.Prepare(sql)
	if err != nil {
		return 0, err
	}
	defer st.Reset()
	row, err := st.Step()
	if err != nil || !row {
		return 0, err
	}
	return st.ColumnInt64(0), nil
}

// rollback ends the open transaction, if any. It runs uninterrupted: it must
// work precisely when a cancelled context stopped the statement before it.
// Every call starts with it too, so that a connection whose last ROLLBACK
// failed never carries that transaction into the next call.
func (c *conn) rollback() {
	c.c.SetInterrupt(nil)
	if !c.c.AutocommitEnabled() {
		c.internal("ROLLBACK")
	}
}
