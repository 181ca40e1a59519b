// Package d1 holds what every D1 backend shares beyond the worker API: the
// few rules about SQL text that a backend must apply before the engine sees
// it, and the errors for breaking them.
//
// Backends live in their own packages: d1local runs a D1 database on a
// SQLite file, and the central backend runs it on a libSQL database. Package
// d1test is the conformance suite both must pass unchanged.
//
// The lexing here follows SQLite's tokenizer (tokenize.c, complete.c): the
// same whitespace, comments, quoting and identifier characters, so that a
// backend that cannot ask the engine (a remote one) still splits and
// classifies SQL exactly as SQLite would.
package d1

import "errors"

// Errors for SQL a D1 backend refuses before running it. Backends wrap them in
// a *worker.D1Error naming the statement.
var (
	// ErrNoStatement: the SQL of a prepared statement is empty or only
	// whitespace and comments.
	ErrNoStatement = errors.New("d1: no SQL statement")
	// ErrMultipleStatements: a prepared statement holds more than one SQL
	// statement (use Batch or Exec for several).
	ErrMultipleStatements = errors.New("d1: a prepared statement must hold exactly one SQL statement")
	// ErrParamCount: the number of bound arguments differs from the number of
	// parameters in the statement.
	ErrParamCount = errors.New("d1: wrong number of bound arguments")
	// ErrTransactionControl: BEGIN, COMMIT, ROLLBACK, SAVEPOINT and the like
	// are not allowed in a prepared statement; a batch is the transaction.
	ErrTransactionControl = errors.New("d1: transaction control statements are not allowed; use Batch")
	// ErrOpenTransaction: an Exec script began a transaction and did not end
	// it. The backend rolls it back rather than let it leak into later calls.
	ErrOpenTransaction = errors.New("d1: the script left a transaction open; it was rolled back")
)
