package objects

import (
	"context"
	"fmt"
	"net/http"
	"time"

	"github.com/dwk/fleet/appliance/worker"
)

// ObjectStore opens object databases. Local mode: objlocal.Store (one SQLite
// file per object). Central mode: objcentral.Store (a local copy of each
// object, its pages kept as rows in a libSQL database many objects share).
type ObjectStore interface {
	// Open returns the database of object id, creating it if it does not
	// exist yet. The runtime opens an object at most once at a time per
	// replica, under lease, and closes the returned ObjectDB when the
	// instance stops. A remote backend must put lease.Epoch() into the
	// guard of every write (Batch, Transaction, DeleteAll) in the same round
	// trip, and fail the write with an error wrapping ErrFenced when a newer
	// holder has taken the object over; it must also make every write the
	// previous holder committed visible before Open returns
	// (sync-before-serve).
	Open(ctx context.Context, id worker.ObjectID, lease Lease) (ObjectDB, error)
}

// ObjectDB is one open object database.
type ObjectDB interface {
	worker.StorageBackend
	// Close releases the database. Calls after Close fail.
	Close() error
}

// OutputGate is implemented by an ObjectDB that serves reads locally and
// commits writes to a source of truth elsewhere (central mode's local
// replicas). The runtime holds each event's writes and has them committed
// together, before anything the event produces leaves the replica: the
// first byte of its response, a WebSocket message it sends, and the end
// of the event. So no response or message ever reflects a write that
// could still be lost.
type OutputGate interface {
	// Hold makes writes commit locally only, until Confirm or Release.
	Hold()
	// Confirm commits every write made so far at the source of truth, in
	// one round trip; it sends nothing when nothing was written. After a
	// failed Confirm the database refuses every call: the runtime stops the
	// instance, and the next event opens the object afresh.
	Confirm(ctx context.Context) error
	// Release confirms and stops holding: writes commit one call at a time
	// again.
	Release(ctx context.Context) error
}

// AlarmIndex lets the scheduler find due alarms without opening every
// object. The authoritative alarm lives in the object's own database; the
// index must hold an entry for every object that has one (it may hold
// stale entries: the runtime reconciles them when it looks at the object).
// The runtime always writes the index before the object database when it
// sets an alarm, and after it when it deletes one, so a crash leaves at most
// a stale entry, never a lost alarm.
type AlarmIndex interface {
	// Put records e, replacing the object's previous entry.
	Put(ctx context.Context, e AlarmEntry) error
	// Delete removes the object's entry; a missing entry is not an error.
	Delete(ctx context.Context, id worker.ObjectID) error
	// Due returns up to limit entries of the given namespaces with At <= now,
	// earliest first. An index shared by several replicas must claim each
	// entry it returns (for example by CAS with a visibility timeout) so that
	// no other replica gets it while the claim holds; the claim ends at the
	// next Put or Delete of the object, or when it expires, so delivery is
	// at least once.
	Due(ctx context.Context, namespaces []string, now time.Time, limit int) ([]AlarmEntry, error)
}

// AlarmEntry is one object's entry in the AlarmIndex.
type AlarmEntry struct {
	// Object is the object the alarm belongs to; its Name may be empty.
	Object worker.ObjectID
	// At is when the scheduler should next look at the object: the alarm's
	// time, or the time of the next retry.
	At time.Time
	// Retries is the number of failed attempts so far.
	Retries int
}

// Placer decides which replica runs an object. Local mode: Here.
// Central mode: leases in the coordination KV.
type Placer interface {
	// Claim is called before an instance starts on this replica. It returns
	// the lease the instance runs under, or an error wrapping an
	// *ElsewhereError when another replica runs (or should run) the object;
	// the runtime then forwards the event there. While the returned lease is
	// fresh, serving an event must need no round trip to Claim again.
	Claim(ctx context.Context, id worker.ObjectID) (Lease, error)
}

// Lease is this replica's right to run one object.
type Lease interface {
	// Epoch is the fencing token: strictly increasing per object across
	// holders. Storage backends guard writes with it.
	Epoch() int64
	// Lost is closed when the lease ends other than by Release (expired,
	// taken over). The runtime then stops the instance, closing its
	// WebSockets with 1012. A nil channel means never.
	Lost() <-chan struct{}
	// Release hands the lease back so another replica may take the object
	// at once. The runtime calls it after the instance stopped and its
	// database was closed.
	Release(ctx context.Context) error
}

// Forwarder delivers an event for an object another replica runs. Central
// mode implements it with internal HTTP authenticated by the fleet secret;
// WebSocket upgrades must be proxied to the holder.
type Forwarder interface {
	// Forward sends r to the object's holder and writes its response to w.
	Forward(w http.ResponseWriter, r *http.Request, id worker.ObjectID, holder string)
}

// ElsewhereError says that an object runs on another replica.
type ElsewhereError struct {
	// Holder is the internal address of the replica that runs the object.
	Holder string
}

// Error names the holder.
func (e *ElsewhereError) Error() string {
	return fmt.Sprintf("object runs on replica %s", e.Holder)
}

// Here is the local-mode Placer: every object runs on this replica, under a
// lease that never ends.
type Here struct{}

var _ Placer = Here{}

// Claim always succeeds.
func (Here) Claim(context.Context, worker.ObjectID) (Lease, error) { return hereLease{}, nil }

type hereLease struct{}

var _ Lease = hereLease{}

func (hereLease) Epoch() int64                  { return 0 }
func (hereLease) Lost() <-chan struct{}         { return nil }
func (hereLease) Release(context.Context) error { return nil }
