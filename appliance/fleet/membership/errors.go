package membership

import "errors"

// Sentinel errors. Test with errors.Is.
var (
	// ErrInvalidMember: a member record lacks an id or an internal
	// address, has an unknown state, or its id is too long.
	ErrInvalidMember = errors.New("membership: invalid member")
	// ErrCorrupt: a stored member record cannot be decoded.
	ErrCorrupt = errors.New("membership: member record is unreadable")
	// ErrTransition: SetState was asked to go back (draining → ready, or
	// anything → starting).
	ErrTransition = errors.New("membership: invalid state transition")
	// ErrStarted: Start was called twice.
	ErrStarted = errors.New("membership: already started")
	// ErrStopped: the Heartbeat was stopped; its record is gone.
	ErrStopped = errors.New("membership: heartbeat stopped")
	// ErrOptions: options that make no sense (negative or inconsistent
	// durations).
	ErrOptions = errors.New("membership: invalid options")
)
