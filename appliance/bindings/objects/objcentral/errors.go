package objcentral

import (
	"errors"

	"github.com/dwk/fleet/appliance/worker"
)

// Errors of the package. Storage calls refused by fencing wrap
// objects.ErrFenced instead. ErrClosed, ErrStale and ErrForwardLoop are
// outages (worker.Unavailable): the event may succeed if retried.
var (
	// ErrNoEpoch: Store.Open was given a lease without a positive epoch
	// (objects.Here's, for instance); central storage cannot fence it.
	ErrNoEpoch = errors.New("objcentral: central object storage needs a lease with a positive epoch")
	// ErrClosed: a call on a closed object database.
	ErrClosed = worker.Outage("objcentral: object database closed")
	// ErrStatement: a statement the backend refuses before sending it
	// (empty, or several statements with arguments).
	ErrStatement = errors.New("objcentral: unsupported statement")
	// ErrStale: the last commit of a replica's writes to the primary
	// failed, so its local copy may hold writes the primary does not; it
	// serves nothing more and is rebuilt from the primary when the object
	// is opened again.
	ErrStale = worker.Outage("objcentral: the local copy is stale after a failed commit")
	// ErrLegacy: an object database in the row format of earlier versions.
	ErrLegacy = errors.New("objcentral: object database in an earlier format")
	// ErrForwardLoop: a request was forwarded MaxHops times without
	// reaching the object's holder.
	ErrForwardLoop = worker.Outage("objcentral: object request forwarded too many times")
)
