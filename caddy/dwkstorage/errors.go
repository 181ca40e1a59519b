package dwkstorage

import (
	"errors"

	"github.com/dwk/fleet/appliance/fleet/coord"
)

// Sentinel errors. Test with errors.Is. A missing key is reported with an
// error wrapping fs.ErrNotExist, as certmagic requires.
var (
	// ErrConfig wraps every configuration problem.
	ErrConfig = errors.New("dwk storage: invalid configuration")
	// ErrWrongSecret: the value was sealed under another secret. Load
	// and Stat wrap it together with fs.ErrNotExist.
	ErrWrongSecret = errors.New("dwk storage: value was sealed with a different secret")
	// ErrCorrupt: the value is not a sealed value, or it was changed.
	ErrCorrupt = errors.New("dwk storage: value is corrupt")
	// ErrInvalidKey: a key is empty where a file is needed, or too long.
	ErrInvalidKey = errors.New("dwk storage: invalid key")
	// ErrValueTooLarge: a value exceeds MaxValueSize.
	ErrValueTooLarge = errors.New("dwk storage: value too large")
	// ErrNotHeld: Unlock or RenewLockLease of a lock this storage does not
	// hold. Nothing was changed.
	ErrNotHeld = errors.New("dwk storage: lock not held by this owner")
	// ErrLockLost: the lock expired or another owner took it while this
	// storage believed it held it.
	ErrLockLost = errors.New("dwk storage: lock lost")
	// ErrClosed: the storage is closed.
	ErrClosed = errors.New("dwk storage: closed")
)

// retryable reports whether a failed round trip may succeed if sent again.
func retryable(err error) bool {
	return errors.Is(err, coord.ErrUnavailable) || errors.Is(err, coord.ErrOutcomeUnknown)
}
