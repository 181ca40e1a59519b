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
// a free lease (after its first try, which takes the object as never
// leased).
const acquireAttempts = 3

// Acquire takes the lease of object id of class if no live lease exists,
// or if the lease names this member (a previous incarnation of this
// replica, or a lease this manager let go: the new epoch fences it). A
// lease is live while its holder's liveness epoch is (see Liveness). It
// starts this member's liveness epoch if there is none (two round trips,
// once). It first writes the lease and its epoch counter as the object's
// first (epoch 1) in one atomic operation that checks that neither exists
// (one round trip: all a new object costs, and shared by the acquires this
// manager sends at the same moment, see coord.Atomic.Shared). Each write
// that finds them changed reads them in its round trip
// (coord.Atomic.ReadOnFail); only when the lease read names another
// member is that member's liveness record read (one round trip), then
// both are written again, checking that neither changed since the read
// (one round trip). The same operation records the tenure in the object's
// lease history (see History).
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
	// Most objects acquired were never leased: the first try takes both
	// keys as absent.
	cur, epoch := coord.Entry{Key: lk}, coord.Entry{Key: ek}
	for range 1 + acquireAttempts {
		live, err := m.liveEpoch(ctx)
		if err != nil {
			return nil, fmt.Errorf("acquire lease %s/%s: %w", class, id, err)
		}
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
		op := m.cfg.Coord.Atomic().Shared().
			Check(lk, cur.Versionstamp).
			Check(ek, epoch.Versionstamp).
			Sum(ek, 1).
			Set(lk, value, 0).
			ReadOnFail(lk, ek)
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
		// The lease or the counter is not what the try assumed: go on
		// with them as the same round trip read them.
		cur, epoch = res.Read[0], res.Read[1]
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
