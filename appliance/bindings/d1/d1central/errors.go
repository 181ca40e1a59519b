package d1central

import (
	"errors"
	"fmt"

	"github.com/dwk/fleet/appliance/libsql/hranaclient"
)

// Sentinels callers branch on with errors.Is. ErrUnavailable and
// ErrOutcomeUnknown are hranaclient's, so that one test covers every
// libSQL client in the process.
var (
	// ErrUnavailable: the libSQL server could not be reached, did not
	// answer within the deadline, or said it cannot serve now (429, 502,
	// 503, 504). Retrying later may succeed.
	ErrUnavailable = hranaclient.ErrUnavailable
	// ErrOutcomeUnknown: a request was sent and its answer lost, so its
	// statements may or may not have been applied. The backend never
	// retries such a request when it may write; the caller must find out
	// (read back) before repeating a write that is not idempotent.
	ErrOutcomeUnknown = hranaclient.ErrOutcomeUnknown
	// ErrClosed is returned by every call on a closed DB.
	ErrClosed = errors.New("d1central: database closed")
)

// StoreError is a failed exchange with the libSQL server, as opposed to a
// statement the server ran and rejected (that comes back as the step's
// *hrana.Error). Backend calls return it inside a *worker.D1Error. Its
// cause tells the rest: errors.Is(err, ErrUnavailable), ErrOutcomeUnknown,
// context.DeadlineExceeded, or a *hranaclient.Error the server sent
// (authentication, missing namespace...).
type StoreError struct {
	// Op is the operation: "batch", "exec" or "create namespace".
	Op string
	// Namespace is the libSQL database (sqld namespace) addressed.
	Namespace string
	// Err is the cause.
	Err error
}

// Error names the operation and the namespace, then the cause.
func (e *StoreError) Error() string {
	return fmt.Sprintf("d1central: %s on namespace %q: %v", e.Op, e.Namespace, e.Err)
}

// Unwrap returns the cause.
func (e *StoreError) Unwrap() error { return e.Err }

// errIncomplete is the cause when the server's answer lacks a result
// that its request implies.
var errIncomplete = errors.New("the server's answer is incomplete")

// errBookmarkCheck is the cause when a session's batch found the database
// behind its bookmark (or of another epoch) and ran nothing; BatchAfter
// then says which.
var errBookmarkCheck = errors.New("d1: the database has not reached the session's bookmark")
