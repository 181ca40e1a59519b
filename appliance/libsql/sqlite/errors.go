package sqlite

import (
	"fmt"

	sqlite3 "modernc.org/sqlite/lib"
)

// Result codes the server branches on.
const (
	CodeError     = sqlite3.SQLITE_ERROR
	CodeBusy      = sqlite3.SQLITE_BUSY
	CodeInterrupt = sqlite3.SQLITE_INTERRUPT
	CodeReadOnly  = sqlite3.SQLITE_READONLY
)

// Error is a failure reported by SQLite.
type Error struct {
	// Code is the extended result code; Primary gives the primary one.
	Code int
	// Message is sqlite3_errmsg at the time of the failure.
	Message string
	// Offset is the byte offset in the SQL text that the error refers to,
	// or -1 (sqlite3_error_offset).
	Offset int
}

// Primary returns the primary result code (the low byte of Code).
func (e *Error) Primary() int { return e.Code & 0xff }

// Error returns the SQLite message and code.
func (e *Error) Error() string {
	return fmt.Sprintf("%s (%d)", e.Message, e.Code)
}

// errorFor builds an *Error for rc from the connection's error state.
func (c *Conn) errorFor(rc int32) error {
	msg := ""
	if c.db != 0 {
		msg = goString(sqlite3.Xsqlite3_errmsg(c.tls, c.db))
	}
	if msg == "" {
		msg = goString(sqlite3.Xsqlite3_errstr(c.tls, rc))
	}
	off := -1
	if c.db != 0 {
		off = int(sqlite3.Xsqlite3_error_offset(c.tls, c.db))
	}
	return &Error{Code: int(rc), Message: msg, Offset: off}
}
