package objcentral

import "errors"

// Errors of the package. Storage calls refused by fencing wrap
// objects.ErrFenced instead.
var (
	// ErrNoEpoch: Store.Open was given a lease without a positive epoch
	// (objects.Here's, for instance); central storage cannot fence it.
	ErrNoEpoch = errors.New("objcentral: central object storage needs a lease with a positive epoch")
	// ErrClosed: a call on a closed object database.
	ErrClosed = errors.New("objcentral: object database closed")
	// ErrStatement: a statement the backend refuses before sending it
	// (empty, or several statements with arguments).
	ErrStatement = errors.New("objcentral: unsupported statement")
	// ErrForwardLoop: a request was forwarded MaxHops times without
	// reaching the object's holder.
	ErrForwardLoop = errors.New("objcentral: object request forwarded too many times")
)
