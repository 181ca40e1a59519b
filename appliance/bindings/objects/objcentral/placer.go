package objcentral

import (
	"context"
	"errors"
	"fmt"

	"github.com/dwk/fleet/appliance/bindings/objects"
	"github.com/dwk/fleet/appliance/fleet/lease"
	"github.com/dwk/fleet/appliance/fleet/objectid"
	"github.com/dwk/fleet/appliance/worker"
)

// Placer is the central objects.Placer: it decides with leases where an
// object runs.
//
// Claim, in order:
//   - this replica holds a fresh lease of the object: that lease, with no
//     round trip;
//   - the request was forwarded here for this object, or rendezvous
//     hashing of the id over the ready members picks this replica: acquire
//     the lease (a read and one atomic operation); if another member holds
//     it, *objects.ElsewhereError naming that member's address;
//   - otherwise look the lease up (cached briefly; looked up again when
//     the cached holder is no longer a ready member, as a draining
//     replica releases its leases): held by another member →
//     ElsewhereError naming it; free → ElsewhereError naming the
//     rendezvous pick, which takes the object when the forwarded request
//     arrives.
//
// A draining replica takes no new leases: objects it does not hold go to
// the pick among the other ready members.
type Placer struct {
	leases  *lease.Manager
	members Members
	store   *Store // gets copies ready while leases are acquired (Preparing)
}

var _ objects.Placer = (*Placer)(nil)

// The lease manager's leases are the runtime's leases.
var _ objects.Lease = (*lease.Lease)(nil)

// NewPlacer returns a placer over leases. members lists the ready
// replicas; nil means this replica alone.
func NewPlacer(leases *lease.Manager, members Members) *Placer {
	return &Placer{leases: leases, members: members}
}

// Preparing has store get an object's local copy ready while Claim
// acquires the object's lease (see prepare.go), and returns p.
func (p *Placer) Preparing(store *Store) *Placer {
	p.store = store
	return p
}

// self is this replica as a member.
func (p *Placer) self() Member {
	c := p.leases.Config()
	return Member{ID: c.Member, Addr: c.Addr}
}

// pick is the ready member rendezvous hashing chooses for id, leaving out
// this replica when it drains. ok is false when no member qualifies.
func (p *Placer) pick(id worker.ObjectID) (Member, bool) {
	self := p.self()
	draining := p.leases.Draining()
	var ready []Member
	if p.members != nil {
		ready = p.members.Ready()
	}
	if len(ready) == 0 && !draining {
		return self, true
	}
	byID := make(map[string]Member, len(ready))
	ids := make([]string, 0, len(ready))
	for _, m := range ready {
		if draining && m.ID == self.ID {
			continue
		}
		if _, dup := byID[m.ID]; !dup {
			byID[m.ID] = m
			ids = append(ids, m.ID)
		}
	}
	if len(ids) == 0 {
		return Member{}, false
	}
	return byID[objectid.Pick(objectid.ID(id.Bytes()), ids)], true
}

// ready reports whether member is in the ready list (always, without a
// member list).
func (p *Placer) ready(member string) bool {
	if p.members == nil {
		return true
	}
	for _, m := range p.members.Ready() {
		if m.ID == member {
			return true
		}
	}
	return false
}

// Claim implements objects.Placer.
func (p *Placer) Claim(ctx context.Context, id worker.ObjectID) (objects.Lease, error) {
	class, hexID := id.Namespace(), id.String()
	if l := p.leases.Held(class, hexID); l != nil {
		return l, nil
	}
	self := p.self()
	if !forwardedHere(ctx, id) {
		target, ok := p.pick(id)
		if !ok {
			return nil, fmt.Errorf("place object %s: no ready replica: %w", id, objects.ErrDraining)
		}
		if target.ID != self.ID {
			rec, held, err := p.leases.Lookup(ctx, class, hexID)
			if err == nil && held && rec.Holder != self.ID && !p.ready(rec.Holder) {
				// The holder is draining or gone: it may have released the
				// lease since the answer was cached. Look again.
				p.leases.Invalidate(class, hexID)
				rec, held, err = p.leases.Lookup(ctx, class, hexID)
			}
			switch {
			case err != nil:
				return nil, fmt.Errorf("place object %s: %w", id, err)
			case held && rec.Holder != self.ID:
				return nil, &objects.ElsewhereError{Holder: rec.Addr}
			case !held:
				return nil, &objects.ElsewhereError{Holder: target.Addr}
			}
			// The lease names this member but is not held in memory: a
			// previous incarnation's. Take it over below.
		}
	}
	undo := func() {}
	if p.store != nil {
		undo = p.store.prepare(id)
	}
	l, err := p.leases.Acquire(ctx, class, hexID)
	if err != nil {
		undo()
	} else {
		// Open takes what was prepared; if it is not called, the copy's
		// cache entry is handed back when the lease ends.
		context.AfterFunc(l.Context(), undo)
	}
	var other *lease.HeldError
	switch {
	case err == nil:
		return l, nil
	case errors.As(err, &other):
		return nil, &objects.ElsewhereError{Holder: other.Record.Addr}
	case errors.Is(err, lease.ErrAlreadyHeld), errors.Is(err, lease.ErrLost):
		// Held here but past its deadline, about to be marked lost; or
		// acquired too late to use. The next attempt starts afresh.
		return nil, fmt.Errorf("place object %s: %w: %w", id, objects.ErrFenced, err)
	case errors.Is(err, lease.ErrDraining), errors.Is(err, lease.ErrClosed):
		if target, ok := p.pick(id); ok && target.ID != self.ID {
			return nil, &objects.ElsewhereError{Holder: target.Addr}
		}
		return nil, fmt.Errorf("place object %s: %w: %w", id, objects.ErrDraining, err)
	}
	return nil, fmt.Errorf("place object %s: %w", id, err)
}

// runsHere reports whether this replica should run the object's alarm,
// given its lease as read from the coordination store and judged: it
// holds the lease, or nobody does and placement picks this replica.
func (p *Placer) runsHere(id worker.ObjectID, le lease.Resolved) bool {
	self := p.self()
	if le.Live || le.Err != nil {
		return le.Err == nil && le.Record.Holder == self.ID
	}
	target, ok := p.pick(id)
	return ok && target.ID == self.ID
}

// Invalidate forgets the cached lease lookup of id, e.g. after its holder
// could not be reached.
func (p *Placer) Invalidate(id worker.ObjectID) {
	p.leases.Invalidate(id.Namespace(), id.String())
}
