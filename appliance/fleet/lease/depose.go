package lease

import (
	"context"
	"fmt"
)

// Depose takes the manager out of service while the fleet's other members
// cannot reach it (package depose decides when): Acquire fails with
// ErrDeposed, and every held lease ends at once as lost, its context
// cancelled with ErrLost saying why, and this member's liveness record is
// deleted (one round trip, bounded by ctx, whatever the number of leases)
// so that reachable members take the objects without waiting for the TTL.
// If the delete fails, the record lapses after the TTL; the epoch of the
// next tenure fences this one either way. Depose does nothing unless the
// manager is open (not draining, closed or deposed already). It reports
// how many leases it handed back.
func (m *Manager) Depose(ctx context.Context, why string) (int, error) {
	m.mu.Lock()
	if m.state != mgrOpen {
		m.mu.Unlock()
		return 0, nil
	}
	m.state = mgrDeposed
	m.mu.Unlock()
	m.mu.Lock()
	ls := m.live
	m.mu.Unlock()
	handed := len(m.endEpoch(ls.epoch, leaseLost, "deposed: "+why))
	if err := m.dropLive(ctx, ls); err != nil {
		return handed, fmt.Errorf("lease: depose: hand back %d leases: %w", handed, err)
	}
	return handed, nil
}

// Restore puts a deposed manager back in service: Acquire takes leases
// again. It does nothing in any other state (a drain or Close begun while
// deposed wins).
func (m *Manager) Restore() {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.state == mgrDeposed {
		m.state = mgrOpen
	}
}

// Deposed reports whether the manager is deposed.
func (m *Manager) Deposed() bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.state == mgrDeposed
}
