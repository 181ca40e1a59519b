package lease

import (
	"context"
	"fmt"
	"time"

	"github.com/dwk/fleet/appliance/libsql/hrana"
)

// Lease is this replica's tenure of one object. It satisfies the object
// runtime's objects.Lease. All methods are safe for concurrent use.
type Lease struct {
	m       *Manager
	key     objKey
	encoded []byte // tuple encoding of the lease key
	rec     Record
	value   []byte // the stored bytes of rec; release matches on them

	ctx    context.Context
	cancel context.CancelCauseFunc
	lost   chan struct{}

	// Guarded by m.mu.
	state leaseState
}

type leaseState uint8

const (
	leaseHeld leaseState = iota
	leaseLost
	leaseReleased
)

// Class and ID name the leased object.
func (l *Lease) Class() string { return l.key.class }

// ID is the leased object's id.
func (l *Lease) ID() string { return l.key.id }

// Epoch is the fencing token of this tenure: strictly greater than the
// epoch of every earlier tenure of the object.
func (l *Lease) Epoch() int64 { return l.rec.Epoch }

// Record is the record this lease wrote.
func (l *Lease) Record() Record { return l.rec }

// Lost is closed when the lease ends other than by Release: the holder's
// liveness epoch ended (a heartbeat was refused, or the liveness deadline
// passed) or the replica was deposed. By then Context is done.
func (l *Lease) Lost() <-chan struct{} { return l.lost }

// Context is cancelled when the lease ends, lost or released; its cause
// wraps ErrLost or ErrReleased and says why. Run work that must stop with the lease under
// it.
func (l *Lease) Context() context.Context { return l.ctx }

// Deadline is the local time at which the lease counts as lost unless a
// heartbeat succeeds before it: the liveness deadline of its epoch (zero
// once that epoch ended).
func (l *Lease) Deadline() time.Time {
	l.m.mu.Lock()
	defer l.m.mu.Unlock()
	if l.m.live.epoch != l.rec.Live {
		return time.Time{}
	}
	return l.m.live.deadline
}

// Fresh reports whether the lease is held and its deadline has not
// passed, by the local clock, without any round trip.
func (l *Lease) Fresh() bool {
	now := l.m.cfg.Clock.Now()
	l.m.mu.Lock()
	defer l.m.mu.Unlock()
	return l.state == leaseHeld && l.m.live.epoch == l.rec.Live && now.Before(l.m.live.deadline)
}

// Release hands the lease back: it stops counting as held at once, and
// its key is deleted (one round trip) if it still holds this tenure's
// record, so another replica can take the object at once. Releasing a
// lost or released lease does nothing. If the delete fails, the record
// still names this member while its liveness epoch lives: requests for the
// object come here, and this replica takes it again.
func (l *Lease) Release(ctx context.Context) error {
	if !l.m.end(l, leaseReleased, "released by its holder") {
		return nil
	}
	if _, _, err := condBatch(ctx, l.m.client, []hrana.Stmt{releaseStmt(l)}); err != nil {
		return fmt.Errorf("release lease %s/%s (epoch %d): %w", l.key.class, l.key.id, l.rec.Epoch, err)
	}
	return nil
}
