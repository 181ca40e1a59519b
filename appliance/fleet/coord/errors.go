package coord

import (
	"errors"

	"github.com/dwk/fleet/appliance/libsql/hranaclient"
)

// Sentinel errors. Test with errors.Is.
var (
	// ErrInvalidKey: a key is empty, has a part of an unsupported type, or
	// encodes to more than MaxKeySize bytes.
	ErrInvalidKey = errors.New("coord: invalid key")
	// ErrValueTooLarge: a value exceeds MaxValueSize.
	ErrValueTooLarge = errors.New("coord: value too large")
	// ErrInvalidExpiry: expireIn is negative.
	ErrInvalidExpiry = errors.New("coord: expireIn must not be negative")
	// ErrTooManyOps: an atomic operation exceeds MaxChecks or MaxMutations,
	// or GetMany/Watch exceed MaxGetMany keys.
	ErrTooManyOps = errors.New("coord: too many operations")
	// ErrNotU64: Sum met a live value that is not a u64 counter. The
	// atomic operation did not commit.
	ErrNotU64 = errors.New("coord: sum on a value that is not a u64")
	// ErrCommitted: Commit was called twice on one Atomic.
	ErrCommitted = errors.New("coord: atomic operation already committed")
	// ErrInvalidCursor: a list cursor that List did not issue for this
	// selector and direction.
	ErrInvalidCursor = errors.New("coord: invalid list cursor")
	// ErrInvalidLimit: a list limit outside 0..MaxListLimit.
	ErrInvalidLimit = errors.New("coord: list limit must be 0 (default) to 1000")
	// ErrClosed: the Store is closed.
	ErrClosed = errors.New("coord: store closed")
	// ErrNoDatabase: the coordination database (namespace) does not exist.
	ErrNoDatabase = errors.New("coord: coordination database does not exist")
	// ErrSchemaTooNew: the database was laid out by a newer dwk.
	ErrSchemaTooNew = errors.New("coord: coordination database schema is newer than this binary")
	// ErrUnavailable: libSQL could not be reached or did not answer in
	// time (the same sentinel as hranaclient's).
	ErrUnavailable = hranaclient.ErrUnavailable
	// ErrOutcomeUnknown: the request was sent but its answer was lost; an
	// atomic operation may or may not have committed (the same sentinel as
	// hranaclient's).
	ErrOutcomeUnknown = hranaclient.ErrOutcomeUnknown
)
