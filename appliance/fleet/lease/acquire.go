package lease

import (
	"bytes"
	"context"
	"errors"
	"fmt"

	"github.com/dwk/fleet/appliance/fleet/coord"
	"github.com/dwk/fleet/appliance/fleet/coord/tuple"
)

// acquireAttempts bounds how often Acquire retries after losing a race for
// a free lease.
const acquireAttempts = 3

// Acquire takes the lease of object id of class if no live lease exists,
// or if the lease names this member (a previous incarnation of this
// replica, or a lease this manager let go: the new epoch fences it). A
// lease is live while its holder's liveness epoch is (see Liveness). It
// starts this member's liveness epoch if there is none (two round trips,
// once). An object that never had a lease gets its first, epoch 1, in one
// round trip (acquireFirst); otherwise that round trip reads the lease and
// its epoch counter and, only when the lease names another member, that
// member's liveness record is read (one round trip), then both are
// written in one atomic operation (one round trip) that checks neither
// changed. The same operation records the tenure in
// the object's lease history (see History).
//
// It fails with a *HeldError (wrapping ErrHeld) when another member holds
// the lease, ErrAlreadyHeld when this manager holds it, ErrDraining (or
// ErrDeposed, which wraps it) or ErrClosed when the manager takes no new
// leases, and ErrContended after losing several races in a row. After an
// error wrapping coord.ErrOutcomeUnknown the lease may have been written;
// it then names this member, which takes it again when asked, unless a
// re-read showed it was and Acquire adopted it.
func (m *Manager) Acquire(ctx context.Context, class, id string) (*Lease, error) {
	k, encoded, err := keyOf(class, id)
	if err != nil {
		return nil, err
	}
	if err := m.admit(k); err != nil {
		return nil, fmt.Errorf("acquire lease %s/%s: %w", class, id, err)
	}
	lk, ek := KeyFor(class, id), EpochKeyFor(class, id)
	for attempt := range acquireAttempts {
		live, err := m.liveEpoch(ctx)
		if err != nil {
			return nil, fmt.Errorf("acquire lease %s/%s: %w", class, id, err)
		}
		var ents []coord.Entry
		if attempt == 0 {
			// Most first attempts are at objects never leased: take
			// the lease as the object's first in one round trip, which
			// reads the lease and its counter instead when they exist.
			l, read, err := m.acquireFirst(ctx, k, encoded, class, id, live)
			if l != nil || err != nil {
				return l, err
			}
			ents = read
		} else if ents, err = m.cfg.Coord.GetMany(ctx, []tuple.Key{lk, ek}); err != nil {
			return nil, fmt.Errorf("acquire lease %s/%s: read: %w", class, id, err)
		}
		cur, epoch := ents[0], ents[1]
		if cur.Exists() {
			rs, err := m.resolve(ctx, []coord.Entry{cur}, true)
			if err != nil {
				return nil, fmt.Errorf("acquire lease %s/%s: %w", class, id, err)
			}
			if rs[0].Err != nil {
				return nil, fmt.Errorf("acquire lease %s/%s: %w", class, id, rs[0].Err)
			}
			if rec := rs[0].Record; rs[0].Live && rec.Holder != m.cfg.Member {
				m.remember(k, rec, true)
				return nil, &HeldError{Record: rec}
			}
			if err := m.admit(k); err != nil {
				// A concurrent Acquire of this manager won.
				return nil, fmt.Errorf("acquire lease %s/%s: %w", class, id, err)
			}
		}
		n, ok := epoch.Uint64()
		if epoch.Exists() && !ok {
			return nil, fmt.Errorf("acquire lease %s/%s: epoch counter: %w", class, id, ErrCorrupt)
		}
		rec := Record{Holder: m.cfg.Member, Addr: m.cfg.Addr, Epoch: int64(n) + 1, Live: live}
		value := rec.encode()
		sent := m.cfg.Clock.Now()
		op := m.cfg.Coord.Atomic().
			Check(lk, cur.Versionstamp).
			Check(ek, epoch.Versionstamp).
			Sum(ek, 1).
			Set(lk, value, 0)
		res, err := recordTenure(op, class, id, rec, sent).Commit(ctx)
		if err != nil {
			if errors.Is(err, coord.ErrOutcomeUnknown) && m.wroteIt(ctx, lk, value) {
				return m.adopt(k, encoded, rec, value, sent)
			}
			return nil, fmt.Errorf("acquire lease %s/%s: %w", class, id, err)
		}
		if res.OK {
			return m.adopt(k, encoded, rec, value, sent)
		}
		// Someone wrote the lease or the counter since the read: look again.
	}
	return nil, fmt.Errorf("acquire lease %s/%s: %w", class, id, ErrContended)
}

// acquireFirst takes the lease of an object that has never had one (no
// lease, no epoch counter) with epoch 1, in one round trip. When the
// object has had one, nothing is written and it returns the lease and its
// epoch counter, read in the same round trip, for Acquire to go on with.
func (m *Manager) acquireFirst(ctx context.Context, k objKey, encoded []byte, class, id string, live int64) (*Lease, []coord.Entry, error) {
	lk, ek := KeyFor(class, id), EpochKeyFor(class, id)
	rec := Record{Holder: m.cfg.Member, Addr: m.cfg.Addr, Epoch: 1, Live: live}
	value := rec.encode()
	sent := m.cfg.Clock.Now()
	op := m.cfg.Coord.Atomic().
		Check(lk, 0).
		Check(ek, 0).
		Sum(ek, 1).
		Set(lk, value, 0).
		ReadOnFail(lk, ek)
	res, err := recordTenure(op, class, id, rec, sent).Commit(ctx)
	if err != nil {
		if errors.Is(err, coord.ErrOutcomeUnknown) && m.wroteIt(ctx, lk, value) {
			l, err := m.adopt(k, encoded, rec, value, sent)
			return l, nil, err
		}
		return nil, nil, fmt.Errorf("acquire lease %s/%s: %w", class, id, err)
	}
	if res.OK {
		l, err := m.adopt(k, encoded, rec, value, sent)
		return l, nil, err
	}
	return nil, res.Read, nil
}

// admit checks that the manager takes new leases and does not hold k.
func (m *Manager) admit(k objKey) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	switch m.state {
	case mgrNew, mgrClosed:
		return ErrClosed
	case mgrDraining:
		return ErrDraining
	case mgrDeposed:
		return ErrDeposed
	}
	if m.held[k] != nil {
		return ErrAlreadyHeld
	}
	return nil
}

// wroteIt re-reads a lease key after an acquire with an unknown outcome
// and reports whether it holds exactly value.
func (m *Manager) wroteIt(ctx context.Context, key tuple.Key, value []byte) bool {
	e, err := m.cfg.Coord.Get(context.WithoutCancel(ctx), key)
	return err == nil && e.Exists() && bytes.Equal(e.Value, value)
}
