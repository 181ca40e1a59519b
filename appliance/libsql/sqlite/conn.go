package sqlite

import (
	"errors"
	"fmt"
	"sync"
	"time"
	"unsafe"

	"modernc.org/libc"
	"modernc.org/libc/sys/types"
	sqlite3 "modernc.org/sqlite/lib"
)

// ErrClosed is returned by operations on a closed Conn.
var ErrClosed = errors.New("sqlite: connection is closed")

// Conn is one SQLite database connection.
type Conn struct {
	tls *libc.TLS
	db  uintptr

	// mu guards db against Close racing Interrupt; the other methods are
	// only ever called by the goroutine that owns the connection.
	mu sync.Mutex

	// cache holds kept statements (cache.go); owner goroutine only.
	cache stmtCache
}

// Open opens (creating it if needed) the database file at path in
// read-write mode with extended result codes.
func Open(path string) (*Conn, error) {
	c := &Conn{tls: libc.NewTLS()}
	cpath, err := libc.CString(path)
	if err != nil {
		c.tls.Close()
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	defer c.free(cpath)
	pdb, err := c.malloc(int(unsafe.Sizeof(uintptr(0))))
	if err != nil {
		c.tls.Close()
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	defer c.free(pdb)
	*(*uintptr)(cptr(pdb)) = 0
	flags := int32(sqlite3.SQLITE_OPEN_READWRITE | sqlite3.SQLITE_OPEN_CREATE | sqlite3.SQLITE_OPEN_FULLMUTEX)
	rc := sqlite3.Xsqlite3_open_v2(c.tls, cpath, pdb, flags, 0)
	c.db = *(*uintptr)(cptr(pdb))
	if rc != sqlite3.SQLITE_OK {
		err := c.errorFor(rc)
		if c.db != 0 {
			sqlite3.Xsqlite3_close_v2(c.tls, c.db)
		}
		c.db = 0
		c.tls.Close()
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	sqlite3.Xsqlite3_extended_result_codes(c.tls, c.db, 1)
	return c, nil
}

// Close closes the connection. It finalizes the cached statements (see
// Cached) and nothing else: callers finalize their own statements first.
// Closing twice is a no-op.
func (c *Conn) Close() error {
	c.dropCache()
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.db == 0 {
		return nil
	}
	rc := sqlite3.Xsqlite3_close_v2(c.tls, c.db)
	var err error
	if rc != sqlite3.SQLITE_OK {
		err = c.errorFor(rc)
	}
	c.db = 0
	c.tls.Close()
	return err
}

// Interrupt makes the statement running on c, if any, fail with
// SQLITE_INTERRUPT. It is safe to call from any goroutine; when no
// statement runs it has no effect on later ones.
func (c *Conn) Interrupt() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.db == 0 {
		return
	}
	// A TLS is not safe for concurrent use, and the owner may be running
	// a statement on c.tls right now.
	tls := libc.NewTLS()
	sqlite3.Xsqlite3_interrupt(tls, c.db)
	tls.Close()
}

// SetBusyTimeout makes statements wait up to d for locks held by other
// connections before failing with SQLITE_BUSY.
func (c *Conn) SetBusyTimeout(d time.Duration) error {
	if c.db == 0 {
		return ErrClosed
	}
	if rc := sqlite3.Xsqlite3_busy_timeout(c.tls, c.db, int32(d/time.Millisecond)); rc != sqlite3.SQLITE_OK {
		return c.errorFor(rc)
	}
	return nil
}

// DisableDoubleQuotedStrings makes a double-quoted word that names no
// column an error, in DDL and DML alike, instead of SQLite's legacy
// reading of it as a string literal (SQLITE_DBCONFIG_DQS_DDL and _DML).
// Call it before preparing any statement.
func (c *Conn) DisableDoubleQuotedStrings() error {
	if c.db == 0 {
		return ErrClosed
	}
	off := libc.NewVaList(int32(0), uintptr(0))
	if off == 0 {
		return errors.New("sqlite: cannot allocate memory")
	}
	defer c.free(off)
	for _, op := range []int32{sqlite3.SQLITE_DBCONFIG_DQS_DDL, sqlite3.SQLITE_DBCONFIG_DQS_DML} {
		if rc := sqlite3.Xsqlite3_db_config(c.tls, c.db, op, off); rc != sqlite3.SQLITE_OK {
			return c.errorFor(rc)
		}
	}
	return nil
}

// DisableCheckpointOnClose stops SQLite from checkpointing the WAL (and
// deleting it) when this connection is the last one of its database to
// close (SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE). With wal_autocheckpoint=0 as
// well, only explicit checkpoints move frames out of the WAL, so a WAL
// reader such as the backup sees every committed frame.
func (c *Conn) DisableCheckpointOnClose() error {
	if c.db == 0 {
		return ErrClosed
	}
	on := libc.NewVaList(int32(1), uintptr(0))
	if on == 0 {
		return errors.New("sqlite: cannot allocate memory")
	}
	defer c.free(on)
	if rc := sqlite3.Xsqlite3_db_config(c.tls, c.db, sqlite3.SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, on); rc != sqlite3.SQLITE_OK {
		return c.errorFor(rc)
	}
	return nil
}

// LimitLength is the limit id for the largest string or blob.
const LimitLength = sqlite3.SQLITE_LIMIT_LENGTH

// SetLimit sets one of SQLite's run-time limits (sqlite3_limit) and
// returns its previous value.
func (c *Conn) SetLimit(id, value int) int {
	return int(sqlite3.Xsqlite3_limit(c.tls, c.db, int32(id), int32(value)))
}

// Autocommit reports whether no explicit transaction is open.
func (c *Conn) Autocommit() bool {
	return c.db != 0 && sqlite3.Xsqlite3_get_autocommit(c.tls, c.db) != 0
}

// Changes returns the rows changed by the last INSERT, UPDATE or DELETE.
func (c *Conn) Changes() int64 { return int64(sqlite3.Xsqlite3_changes64(c.tls, c.db)) }

// TotalChanges returns the rows changed since the connection was opened,
// including changes made by triggers.
func (c *Conn) TotalChanges() int64 { return int64(sqlite3.Xsqlite3_total_changes64(c.tls, c.db)) }

// LastInsertRowID returns the rowid of the last successful INSERT.
func (c *Conn) LastInsertRowID() int64 { return sqlite3.Xsqlite3_last_insert_rowid(c.tls, c.db) }

// Exec runs every statement in sql, discarding rows. It is meant for the
// server's own statements (pragmas, checkpoints).
func (c *Conn) Exec(sql string) error {
	for {
		st, tail, err := c.Prepare(sql)
		if err != nil {
			return err
		}
		if st == nil {
			return nil
		}
		for {
			row, err := st.Step()
			if err != nil {
				st.Finalize()
				return err
			}
			if !row {
				break
			}
		}
		if err := st.Finalize(); err != nil {
			return err
		}
		sql = tail
	}
}

// QueryInt64s runs the single statement sql and returns the integer
// columns of its first row (nil when it returns no row). The statement
// is kept in the connection's cache.
func (c *Conn) QueryInt64s(sql string) ([]int64, error) {
	st := c.Cached(sql)
	if st == nil {
		var err error
		if st, _, err = c.Prepare(sql); err != nil {
			return nil, err
		}
		if st == nil {
			return nil, nil
		}
		st.Keep(sql)
	}
	defer st.Finalize()
	row, err := st.Step()
	if err != nil || !row {
		return nil, err
	}
	out := make([]int64, st.ColumnCount())
	for i := range out {
		out[i] = st.ColumnInt64(i)
	}
	return out, nil
}

// Prepare compiles the first statement of sql and returns it with the rest
// of the text. It returns a nil *Stmt when sql holds no statement (only
// blanks, comments or semicolons).
func (c *Conn) Prepare(sql string) (*Stmt, string, error) {
	if c.db == 0 {
		return nil, "", ErrClosed
	}
	if len(sql) == 0 {
		return nil, "", nil
	}
	csql, err := c.cBytes(sql)
	if err != nil {
		return nil, "", err
	}
	defer c.free(csql)
	out, err := c.malloc(2 * int(unsafe.Sizeof(uintptr(0))))
	if err != nil {
		return nil, "", err
	}
	defer c.free(out)
	pstmt, ptail := out, out+unsafe.Sizeof(uintptr(0))
	*(*uintptr)(cptr(pstmt)) = 0
	*(*uintptr)(cptr(ptail)) = 0
	rc := sqlite3.Xsqlite3_prepare_v2(c.tls, c.db, csql, int32(len(sql)), pstmt, ptail)
	if rc != sqlite3.SQLITE_OK {
		return nil, "", c.errorFor(rc)
	}
	rest := ""
	if tail := *(*uintptr)(cptr(ptail)); tail != 0 {
		if off := int(tail - csql); off >= 0 && off < len(sql) {
			rest = sql[off:]
		}
	}
	p := *(*uintptr)(cptr(pstmt))
	if p == 0 {
		return nil, rest, nil
	}
	return &Stmt{c: c, p: p}, rest, nil
}

// malloc allocates n bytes of C memory.
func (c *Conn) malloc(n int) (uintptr, error) {
	p := libc.Xmalloc(c.tls, types.Size_t(n))
	if p == 0 && n != 0 {
		return 0, fmt.Errorf("sqlite: cannot allocate %d bytes", n)
	}
	return p, nil
}

// free releases C memory from malloc or cBytes.
func (c *Conn) free(p uintptr) {
	if p != 0 {
		libc.Xfree(c.tls, p)
	}
}

// cBytes copies s into C memory with a terminating NUL.
func (c *Conn) cBytes(s string) (uintptr, error) {
	p, err := c.malloc(len(s) + 1)
	if err != nil {
		return 0, err
	}
	buf := unsafe.Slice((*byte)(cptr(p)), len(s)+1)
	copy(buf, s)
	buf[len(s)] = 0
	return p, nil
}

// goString copies a NUL-terminated C string.
func goString(p uintptr) string {
	if p == 0 {
		return ""
	}
	return libc.GoString(p)
}

// cptr turns an address of C memory (from libc's allocator or owned by
// SQLite, never by the Go heap) into a pointer Go can dereference.
func cptr(p uintptr) unsafe.Pointer { return *(*unsafe.Pointer)(unsafe.Pointer(&p)) }
