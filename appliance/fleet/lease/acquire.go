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
// or if the live lease names this member (a previous incarnation of this
// replica: the new epoch fences it). It reads the lease and its epoch
// counter (one round trip), then writes both in one atomic operation (one
// round trip) that checks neither changed. The same operation records the
// tenure in the object's lease history (see History).
//
// It fails with a *HeldError (wrapping ErrHeld) when another member holds
// the lease, ErrAlreadyHeld when this manager holds it, ErrDraining (or
// ErrDeposed, which wraps it) or ErrClosed when the manager takes no new
// leases, and ErrContended after
// losing several races in a row. After an error wrapping
// coord.ErrOutcomeUnknown the lease may have been written; it then
// expires after the TTL, unless a re-read showed it was and Acquire
// adopted it.
func (m *Manager) Acquire(ctx context.Context, class, id string) (*Lease, error) {
	k, encoded, err := keyOf(class, id)
	if err != nil {
		return nil, err
	}
	if err := m.admit(k); err != nil {
		return nil, fmt.Errorf("acquire lease %s/%s: %w", class, id, err)
	}
	lk, ek := KeyFor(class, id), EpochKeyFor(class, id)
	for range acquireAttempts {
		ents, err := m.cfg.Coord.GetMany(ctx, []tuple.Key{lk, ek})
		if err != nil {
			return nil, fmt.Errorf("acquire lease %s/%s: read: %w", class, id, err)
		}
		cur, epoch := ents[0], ents[1]
		if cur.Exists() {
			rec, err := DecodeRecord(cur.Value)
			if err != nil {
				return nil, fmt.Errorf("acquire lease %s/%s: %w", class, id, err)
			}
			rec.Expires = cur.Expires
			m.remember(k, rec, true)
			if rec.Holder != m.cfg.Member {
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
		rec := Record{Holder: m.cfg.Member, Addr: m.cfg.Addr, Epoch: int64(n) + 1}
		value := rec.encode()
		sent := m.cfg.Clock.Now()
		op := m.cfg.Coord.Atomic().
			Check(lk, cur.Versionstamp).
			Check(ek, epoch.Versionstamp).
			Sum(ek, 1).
			Set(lk, value, m.cfg.TTL)
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
