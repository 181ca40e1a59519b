package probe

import "errors"

// Sentinel errors the failures wrap, besides those of packages marker
// (ErrMissing, ErrCorrupt, ErrOtherFleet, ErrWrongMode, ErrSchemaNewer,
// ErrMismatch) and markerstore (ErrNoBucket, ErrAccessDenied). Test with
// errors.Is.
var (
	// ErrUnreachable: a store could not be reached or did not answer in
	// time.
	ErrUnreachable = errors.New("store unreachable")
	// ErrUnauthorized: a store refused the configured credentials.
	ErrUnauthorized = errors.New("credentials refused")
	// ErrUnexpected: a store answered with an error no other sentinel
	// covers.
	ErrUnexpected = errors.New("store answered with an error")
	// ErrClockSkew: the local clock is too far from the libSQL server's.
	ErrClockSkew = errors.New("clock skew too large")
	// ErrCAS: a compare-and-set on the coordination KV misbehaved.
	ErrCAS = errors.New("compare-and-set misbehaved")
	// ErrConfig: Run was given an incomplete Config.
	ErrConfig = errors.New("probe: invalid config")
)

// Error is a failed check: what is wrong and how to fix it.
type Error struct {
	// Check is the failed check's name (CheckMarker…).
	Check string
	// Problem says what is wrong, naming the store and the values found.
	Problem string
	// Fix says what the operator should do.
	Fix string
	// Err wraps the sentinel and the underlying cause, if any.
	Err error
}

// Error returns "<problem>: <fix>".
func (e *Error) Error() string { return e.Problem + ": " + e.Fix }

// Unwrap returns the sentinel and cause.
func (e *Error) Unwrap() error { return e.Err }
