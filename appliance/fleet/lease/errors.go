package lease

import (
	"errors"
	"fmt"
)

// Errors of the package. Test with errors.Is.
var (
	// ErrHeld: another member holds a live lease; see HeldError for whom.
	ErrHeld = errors.New("lease: held by another member")
	// ErrAlreadyHeld: Acquire was called for a lease this manager holds.
	ErrAlreadyHeld = errors.New("lease: already held by this member")
	// ErrContended: Acquire lost the race for a free lease several times
	// in a row.
	ErrContended = errors.New("lease: contended; try again")
	// ErrDraining: the manager drains and takes no new leases.
	ErrDraining = errors.New("lease: manager is draining")
	// ErrDeposed: the fleet's other members cannot reach this replica;
	// it takes no leases until Restore. It wraps ErrDraining, so callers
	// that send work elsewhere while draining do so now too.
	ErrDeposed = fmt.Errorf("%w: deposed by its unreachable peers", ErrDraining)
	// ErrClosed: the manager is closed (or was never opened).
	ErrClosed = errors.New("lease: manager is closed")
	// ErrLost is the context cause of a lease that ended other than by
	// Release: its liveness epoch ended (a heartbeat was refused or its
	// deadline passed) or the replica was deposed.
	ErrLost = errors.New("lease: lost")
	// ErrReleased is the context cause of a released lease.
	ErrReleased = errors.New("lease: released")
	// ErrCorrupt: a lease key or epoch counter holds a value this package
	// did not write.
	ErrCorrupt = errors.New("lease: malformed record")
)

// HeldError reports the member that holds a lease. It wraps ErrHeld.
type HeldError struct {
	Record Record
}

// Error names the holder.
func (e *HeldError) Error() string {
	return fmt.Sprintf("lease held by member %q at %s (epoch %d)", e.Record.Holder, e.Record.Addr, e.Record.Epoch)
}

// Unwrap returns ErrHeld.
func (e *HeldError) Unwrap() error { return ErrHeld }
