package hrana

import "fmt"

// Error is the Hrana Error structure: a human readable message and a
// machine readable code. It is what a failed statement, batch step or
// request reports to the client. A *Error is also a Go error.
type Error struct {
	// Message is an English description of the failure.
	Message string `json:"message"`
	// Code is one of the Code constants, or a SQLite primary result code
	// name such as "SQLITE_CONSTRAINT". It may be empty.
	Code string `json:"code,omitempty"`
}

// Error returns the message, prefixed with the code when there is one.
func (e *Error) Error() string {
	if e.Code == "" {
		return e.Message
	}
	return e.Code + ": " + e.Message
}

// Errorf builds an *Error with code and a formatted message.
func Errorf(code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// Error codes. Those shared with sqld keep sqld's spelling; the codes
// marked "dwk" are this project's and are documented in docs/libsql.md.
const (
	CodeSQLParse                   = "SQL_PARSE_ERROR"
	CodeSQLNoStatement             = "SQL_NO_STATEMENT"
	CodeSQLManyStatements          = "SQL_MANY_STATEMENTS"
	CodeSQLInput                   = "SQL_INPUT_ERROR"
	CodeArgsInvalid                = "ARGS_INVALID"
	CodeArgsBothPositionalAndNamed = "ARGS_BOTH_POSITIONAL_AND_NAMED"
	CodeTransactionTimeout         = "TRANSACTION_TIMEOUT"
	CodeTransactionBusy            = "TRANSACTION_BUSY"
	CodeBlocked                    = "BLOCKED"
	CodeResponseTooLarge           = "RESPONSE_TOO_LARGE"
	CodeStreamExpired              = "STREAM_EXPIRED"
	CodeStreamNotOpen              = "STREAM_NOT_OPEN"
	CodeCursorNotOpen              = "CURSOR_NOT_OPEN"
	CodeSQLStoreTooMany            = "SQL_STORE_TOO_MANY"
	CodeSQLStoreTooLarge           = "SQL_STORE_TOO_LARGE"
	CodeSQLiteInterrupt            = "SQLITE_INTERRUPT"

	CodeAuthHeaderMissing     = "AUTH_HTTP_HEADER_MISSING"
	CodeAuthHeaderInvalid     = "AUTH_HTTP_HEADER_INVALID"
	CodeAuthUnsupportedScheme = "AUTH_HTTP_HEADER_UNSUPPORTED_SCHEME"
	CodeAuthJWTMissing        = "AUTH_JWT_MISSING"
	CodeAuthJWTInvalid        = "AUTH_JWT_INVALID"
	CodeAuthJWTExpired        = "AUTH_JWT_EXPIRED"
	CodeAuthJWTImmature       = "AUTH_JWT_IMMATURE"
	CodeAuthHeaderMalformed   = "AUTH_HEADER_MALFORMED"
	CodeAuthHeaderNotFound    = "AUTH_HEADER_NOT_FOUND"

	// CodeForbidden (dwk): the credentials do not allow the operation, for
	// example a write with a read-only token.
	CodeForbidden = "FORBIDDEN"
	// CodeProtocol (dwk): the request violates the protocol; sqld sends
	// such errors as plain text without a code.
	CodeProtocol = "PROTOCOL_ERROR"
	// CodeTooManyStreams (dwk): the server's limit of open streams is reached.
	CodeTooManyStreams = "TOO_MANY_STREAMS"
	// CodeBodyTooLarge (dwk): the request body exceeds the server's limit.
	CodeBodyTooLarge = "BODY_TOO_LARGE"
	// CodeNamespaceNotFound (dwk): the addressed namespace does not exist.
	CodeNamespaceNotFound = "NAMESPACE_NOT_FOUND"
	// CodeInvalidNamespace (dwk): the namespace name is not valid.
	CodeInvalidNamespace = "INVALID_NAMESPACE"
	// CodeInternal (dwk): the server failed; the message says how.
	CodeInternal = "INTERNAL_ERROR"
	// CodeShuttingDown (dwk): the server is closing.
	CodeShuttingDown = "SHUTTING_DOWN"
)

// ProtocolError reports a request that violates the protocol: malformed
// JSON, a missing field, an unknown type tag, a reference to a stored SQL
// text or a batch step that does not exist. A correct client never causes
// one. Servers answer it by failing the whole HTTP request (400) or by
// closing the WebSocket.
type ProtocolError struct {
	// Message says what was wrong.
	Message string
}

// Error returns the message.
func (e *ProtocolError) Error() string { return e.Message }

// Protocolf builds a *ProtocolError with a formatted message.
func Protocolf(format string, args ...any) *ProtocolError {
	return &ProtocolError{Message: fmt.Sprintf(format, args...)}
}

// SQLiteCodeName returns the name sqld gives a SQLite primary result code
// (the low byte of an extended code), for use as an Error code. Like sqld
// (through rusqlite), the generic SQLITE_ERROR, SQLITE_EMPTY and
// SQLITE_FORMAT are reported as "SQLITE_UNKNOWN".
func SQLiteCodeName(code int) string {
	if name, ok := sqliteCodeNames[code&0xff]; ok {
		return name
	}
	return "SQLITE_UNKNOWN"
}

var sqliteCodeNames = map[int]string{
	2: "SQLITE_INTERNAL", 3: "SQLITE_PERM", 4: "SQLITE_ABORT",
	5: "SQLITE_BUSY", 6: "SQLITE_LOCKED", 7: "SQLITE_NOMEM", 8: "SQLITE_READONLY",
	9: "SQLITE_INTERRUPT", 10: "SQLITE_IOERR", 11: "SQLITE_CORRUPT", 12: "SQLITE_NOTFOUND",
	13: "SQLITE_FULL", 14: "SQLITE_CANTOPEN", 15: "SQLITE_PROTOCOL",
	17: "SQLITE_SCHEMA", 18: "SQLITE_TOOBIG", 19: "SQLITE_CONSTRAINT", 20: "SQLITE_MISMATCH",
	21: "SQLITE_MISUSE", 22: "SQLITE_NOLFS", 23: "SQLITE_AUTH",
	25: "SQLITE_RANGE", 26: "SQLITE_NOTADB",
}
