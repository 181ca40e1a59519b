package sqlite

import (
	"unsafe"

	sqlite3 "modernc.org/sqlite/lib"
)

// Column storage classes, as sqlite3_column_type returns them.
const (
	TypeInteger = sqlite3.SQLITE_INTEGER
	TypeFloat   = sqlite3.SQLITE_FLOAT
	TypeText    = sqlite3.SQLITE_TEXT
	TypeBlob    = sqlite3.SQLITE_BLOB
	TypeNull    = sqlite3.SQLITE_NULL
)

// Stmt is a prepared statement. Finalize it when done.
type Stmt struct {
	c *Conn
	p uintptr
	// sql and keep: see Keep.
	sql  string
	keep bool
}

// Finalize destroys the statement, or puts it back in its connection's
// cache when it was kept (see Keep). It returns the error of the last
// evaluation, if any, as SQLite does.
func (s *Stmt) Finalize() error {
	if s.p == 0 {
		return nil
	}
	if s.keep {
		return s.release()
	}
	return s.destroy()
}

// destroy finalizes the statement for good.
func (s *Stmt) destroy() error {
	if s.p == 0 {
		return nil
	}
	rc := sqlite3.Xsqlite3_finalize(s.c.tls, s.p)
	s.p = 0
	if rc != sqlite3.SQLITE_OK {
		return s.c.errorFor(rc)
	}
	return nil
}

// Step evaluates the statement up to the next row. It returns true when a
// row is available and false when the statement is done.
func (s *Stmt) Step() (bool, error) {
	switch rc := sqlite3.Xsqlite3_step(s.c.tls, s.p); rc {
	case sqlite3.SQLITE_ROW:
		return true, nil
	case sqlite3.SQLITE_DONE:
		return false, nil
	default:
		return false, s.c.errorFor(rc)
	}
}

// Reset readies the statement to run again, keeping its bindings. It
// returns the error of the last evaluation, if any, as SQLite does.
func (s *Stmt) Reset() error { return s.check(sqlite3.Xsqlite3_reset(s.c.tls, s.p)) }

// ClearBindings sets every parameter back to NULL.
func (s *Stmt) ClearBindings() error { return s.check(sqlite3.Xsqlite3_clear_bindings(s.c.tls, s.p)) }

// Readonly reports whether the statement makes no direct change to the
// database file (sqlite3_stmt_readonly). Transaction control statements
// count as read-only.
func (s *Stmt) Readonly() bool { return sqlite3.Xsqlite3_stmt_readonly(s.c.tls, s.p) != 0 }

// IsExplain reports whether the statement is an EXPLAIN or EXPLAIN QUERY PLAN.
func (s *Stmt) IsExplain() bool { return sqlite3.Xsqlite3_stmt_isexplain(s.c.tls, s.p) != 0 }

// ParamCount returns the index of the largest parameter.
func (s *Stmt) ParamCount() int { return int(sqlite3.Xsqlite3_bind_parameter_count(s.c.tls, s.p)) }

// ParamName returns the name of parameter i (1-based) with its prefix, or
// "" for an anonymous "?" parameter.
func (s *Stmt) ParamName(i int) string {
	return goString(sqlite3.Xsqlite3_bind_parameter_name(s.c.tls, s.p, int32(i)))
}

// BindNull binds NULL to parameter i (1-based).
func (s *Stmt) BindNull(i int) error {
	return s.check(sqlite3.Xsqlite3_bind_null(s.c.tls, s.p, int32(i)))
}

// BindInt64 binds an integer to parameter i.
func (s *Stmt) BindInt64(i int, v int64) error {
	return s.check(sqlite3.Xsqlite3_bind_int64(s.c.tls, s.p, int32(i), v))
}

// BindFloat binds a float to parameter i.
func (s *Stmt) BindFloat(i int, v float64) error {
	return s.check(sqlite3.Xsqlite3_bind_double(s.c.tls, s.p, int32(i), v))
}

// BindText binds text (which may contain NUL bytes) to parameter i.
func (s *Stmt) BindText(i int, v string) error {
	p, err := s.c.cBytes(v)
	if err != nil {
		return err
	}
	defer s.c.free(p)
	return s.check(sqlite3.Xsqlite3_bind_text(s.c.tls, s.p, int32(i), p, int32(len(v)), sqlite3.SQLITE_TRANSIENT))
}

// BindBlob binds a blob to parameter i; an empty v is an empty blob.
func (s *Stmt) BindBlob(i int, v []byte) error {
	if len(v) == 0 {
		return s.check(sqlite3.Xsqlite3_bind_zeroblob(s.c.tls, s.p, int32(i), 0))
	}
	p, err := s.c.malloc(len(v))
	if err != nil {
		return err
	}
	defer s.c.free(p)
	copy(unsafe.Slice((*byte)(cptr(p)), len(v)), v)
	return s.check(sqlite3.Xsqlite3_bind_blob(s.c.tls, s.p, int32(i), p, int32(len(v)), sqlite3.SQLITE_TRANSIENT))
}

func (s *Stmt) check(rc int32) error {
	if rc != sqlite3.SQLITE_OK {
		return s.c.errorFor(rc)
	}
	return nil
}

// ColumnCount returns the number of result columns.
func (s *Stmt) ColumnCount() int { return int(sqlite3.Xsqlite3_column_count(s.c.tls, s.p)) }

// ColumnName returns the name of result column i (0-based).
func (s *Stmt) ColumnName(i int) string {
	return goString(sqlite3.Xsqlite3_column_name(s.c.tls, s.p, int32(i)))
}

// ColumnDecltype returns the declared type of result column i as written
// in the schema, and false for expressions.
func (s *Stmt) ColumnDecltype(i int) (string, bool) {
	p := sqlite3.Xsqlite3_column_decltype(s.c.tls, s.p, int32(i))
	if p == 0 {
		return "", false
	}
	return goString(p), true
}

// ColumnType returns the storage class of column i in the current row.
func (s *Stmt) ColumnType(i int) int {
	return int(sqlite3.Xsqlite3_column_type(s.c.tls, s.p, int32(i)))
}

// ColumnInt64 returns column i of the current row as an integer.
func (s *Stmt) ColumnInt64(i int) int64 { return sqlite3.Xsqlite3_column_int64(s.c.tls, s.p, int32(i)) }

// ColumnFloat returns column i of the current row as a float.
func (s *Stmt) ColumnFloat(i int) float64 {
	return sqlite3.Xsqlite3_column_double(s.c.tls, s.p, int32(i))
}

// ColumnText returns column i of the current row as text.
func (s *Stmt) ColumnText(i int) string {
	p := sqlite3.Xsqlite3_column_text(s.c.tls, s.p, int32(i))
	n := int(sqlite3.Xsqlite3_column_bytes(s.c.tls, s.p, int32(i)))
	if p == 0 || n == 0 {
		return ""
	}
	return string(unsafe.Slice((*byte)(cptr(p)), n))
}

// ColumnBlob returns a copy of column i of the current row as bytes; an
// empty blob is a non-nil empty slice.
func (s *Stmt) ColumnBlob(i int) []byte {
	p := sqlite3.Xsqlite3_column_blob(s.c.tls, s.p, int32(i))
	n := int(sqlite3.Xsqlite3_column_bytes(s.c.tls, s.p, int32(i)))
	out := make([]byte, n)
	if p != 0 && n > 0 {
		copy(out, unsafe.Slice((*byte)(cptr(p)), n))
	}
	return out
}
