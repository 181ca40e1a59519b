package d1local

import (
	"context"
	"errors"
	"fmt"

	"github.com/dwk/fleet/appliance/bindings/d1"
	"github.com/dwk/fleet/appliance/libsql/sqlite"
)

// conn is one SQLite connection with its statement cache. One call uses it
// at a time (see pool).
type conn struct {
	c     *sqlite.Conn
	cache *stmtCache
	// own holds the connection's fixed statements (BEGIN, COMMIT...),
	// prepared on first use.
	own map[string]*sqlite.Stmt
	// stopInterrupt ends the watch interruptOn started; nil when none runs.
	stopInterrupt func()
}

// openConn opens path with the settings of appliance/process/sqlitedb: WAL,
// synchronous FULL, a busy timeout and foreign keys on. A reader also gets
// query_only, so a statement wrongly taken for a read fails instead of
// writing outside the writer's serialisation. Double-quoted strings are
// identifiers only, never string literals.
func openConn(ctx context.Context, path string, readOnly bool) (*conn, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	sc, err := sqlite.Open(path)
	if err != nil {
		return nil, err
	}
	c := &conn{c: sc, cache: newStmtCache(stmtCacheSize), own: make(map[string]*sqlite.Stmt)}
	if err := c.setUp(ctx, readOnly); err != nil {
		c.close()
		return nil, err
	}
	return c, nil
}

// setUp applies openConn's settings; ctx's end interrupts it.
func (c *conn) setUp(ctx context.Context, readOnly bool) error {
	defer c.interruptOn(ctx)()
	if err := c.c.DisableDoubleQuotedStrings(); err != nil {
		return fmt.Errorf("disable double-quoted strings: %w", err)
	}
	if err := c.c.SetBusyTimeout(busyTimeout); err != nil {
		return fmt.Errorf("busy timeout: %w", err)
	}
	pragmas := []string{"PRAGMA journal_mode=WAL", "PRAGMA synchronous=FULL", "PRAGMA foreign_keys=ON"}
	if readOnly {
		pragmas = append(pragmas, "PRAGMA query_only=ON")
	}
	for _, p := range pragmas {
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := c.c.Exec(p); err != nil {
			return fmt.Errorf("%s: %w", p, err)
		}
	}
	return nil
}

// close finalizes the cached statements and closes the connection.
func (c *conn) close() error {
	errs := []error{c.cache.clear()}
	for _, st := range c.own {
		errs = append(errs, st.Finalize())
	}
	errs = append(errs, c.c.Close())
	return errors.Join(errs...)
}

// interruptOn makes ctx's end interrupt whatever the connection runs,
// until the returned function (or rollback) is called. A statement that
// has not started yet when ctx ends is not interrupted: callers check
// ctx before each step (see step).
func (c *conn) interruptOn(ctx context.Context) (restore func()) {
	if ctx.Done() == nil {
		return func() {}
	}
	fired := make(chan struct{})
	stop := context.AfterFunc(ctx, func() {
		c.c.Interrupt()
		close(fired)
	})
	c.stopInterrupt = func() {
		if !stop() {
			<-fired // the interrupt lands before the next statement starts
		}
	}
	return c.endInterrupt
}

// endInterrupt ends the watch interruptOn started, if any; once it
// returns, no interrupt from it can reach a later statement.
func (c *conn) endInterrupt() {
	if c.stopInterrupt != nil {
		c.stopInterrupt()
		c.stopInterrupt = nil
	}
}

// step checks ctx, then evaluates st up to its next row. An ended ctx stops
// the statement even between two steps, where an interrupt would be lost.
func step(ctx context.Context, st *sqlite.Stmt) (bool, error) {
	if err := ctx.Err(); err != nil {
		return false, err
	}
	return st.Step()
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
	st, rest, err := c.c.Prepare(body)
	if err != nil {
		return nil, err
	}
	if st == nil {
		return nil, d1.ErrNoStatement
	}
	if d1.SkipSpace(rest) != "" {
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
// COMMIT...), which return no rows.
func (c *conn) internal(sql string) error {
	st := c.own[sql]
	if st == nil {
		var err error
		if st, _, err = c.c.Prepare(sql); err != nil {
			return err
		}
		c.own[sql] = st
	}
	defer st.Reset()
	_, err := st.Step()
	return err
}

// rollback ends the open transaction, if any. It runs uninterrupted: it must
// work precisely when a cancelled context stopped the statement before it.
// Every call starts with it too, so that a connection whose last ROLLBACK
// failed never carries that transaction into the next call.
func (c *conn) rollback() {
	c.endInterrupt()
	if !c.c.Autocommit() {
		c.internal("ROLLBACK")
	}
}
