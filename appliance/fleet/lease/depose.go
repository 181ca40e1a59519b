package lease

import (
	"context"
	"fmt"

	"github.com/dwk/fleet/appliance/libsql/hrana"
)

// Depose takes the manager out of service while the fleet's other members
// cannot reach it (package depose decides when): Acquire fails with
// ErrDeposed, and every held lease ends at once as lost, its context
// cancelled with ErrLost saying why, and its key is deleted (one round
// trip per 1000 leases, bounded by ctx) so that reachable members take
// the objects without waiting for the TTL. A key that cannot be deleted
// expires after the TTL; the epoch of the next tenure fences this one
// either way. Depose does nothing unless the manager is open (not
// draining, closed or deposed already). It reports how many leases it
// handed back.
func (m *Manager) Depose(ctx context.Context, why string) (int, error) {
	m.mu.Lock()
	if m.state != mgrOpen {
		m.mu.Unlock()
		return 0, nil
	}
	m.state = mgrDeposed
	all := make([]*Lease, 0, len(m.held))
	for _, l := range m.held {
		all = append(all, l)
	}
	m.mu.Unlock()
	var mine []*Lease
	for _, l := range all {
		if m.end(l, leaseLost, "deposed: "+why) {
			mine = append(mine, l)
		}
	}
	handed := len(mine)
	for len(mine) > 0 {
		n := min(len(mine), maxBatchLeases)
		stmts := make([]hrana.Stmt, n)
		for i, l := range mine[:n] {
			stmts[i] = releaseStmt(l)
		}
		if _, _, err := condBatch(ctx, m.client, stmts); err != nil {
			return handed, fmt.Errorf("lease: depose: hand back %d leases: %w", n, err)
		}
		mine = mine[n:]
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
