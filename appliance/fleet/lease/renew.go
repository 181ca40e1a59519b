package lease

import (
	"context"
	"time"

	"github.com/dwk/fleet/appliance/libsql/hrana"
)

// renewLoop renews every held lease each RenewInterval and marks leases
// lost when their deadline passes, until Close.
func (m *Manager) renewLoop() {
	defer close(m.done)
	clock := m.cfg.Clock
	next := clock.Now().Add(m.cfg.RenewInterval)
	for {
		select {
		case <-m.stop:
			return
		case <-clock.After(m.untilWake(next)):
		}
		if now := clock.Now(); !now.Before(next) {
			m.renewAll(now)
			next = now.Add(m.cfg.RenewInterval)
		}
		m.expire(clock.Now())
	}
}

// untilWake is the time until the next renewal or the earliest lease
// deadline, whichever comes first.
func (m *Manager) untilWake(next time.Time) time.Duration {
	now := m.cfg.Clock.Now()
	wake := next
	m.mu.Lock()
	for _, l := range m.held {
		if l.deadline.Before(wake) {
			wake = l.deadline
		}
	}
	m.mu.Unlock()
	return max(wake.Sub(now), time.Millisecond)
}

// renewAll renews every held lease, one round trip per 1000 leases.
// sent is the local time the requests go out: a renewed lease's deadline
// becomes sent + TTL - Margin. A lease whose key no longer holds its
// record is lost at once; when the round trip fails, deadlines stay as
// they were.
func (m *Manager) renewAll(sent time.Time) {
	m.mu.Lock()
	all := make([]*Lease, 0, len(m.held))
	for _, l := range m.held {
		all = append(all, l)
	}
	m.mu.Unlock()
	for len(all) > 0 {
		n := min(len(all), maxBatchLeases)
		m.renewBatch(all[:n], sent)
		all = all[n:]
	}
}

func (m *Manager) renewBatch(ls []*Lease, sent time.Time) {
	stmts := make([]hrana.Stmt, len(ls))
	for i, l := range ls {
		stmts[i] = renewStmt(l, m.cfg.TTL)
	}
	ctx, cancel := context.WithTimeout(m.ctx, m.renewTimeout(ls, sent))
	defer cancel()
	_, renewed, err := condBatch(ctx, m.client, stmts)
	if err != nil {
		if m.ctx.Err() == nil {
			m.log.Warn("renew leases failed; they are lost at their deadline unless a later renewal succeeds",
				"leases", len(ls), "err", err)
		}
		return
	}
	deadline := sent.Add(m.cfg.TTL - m.cfg.Margin)
	var lost []*Lease
	m.mu.Lock()
	for i, l := range ls {
		switch {
		case l.state != leaseHeld:
			// Released or lost while the renewal was in flight.
		case renewed[i]:
			if deadline.After(l.deadline) {
				l.deadline = deadline
			}
		default:
			lost = append(lost, l)
		}
	}
	m.mu.Unlock()
	for _, l := range lost {
		if m.end(l, leaseLost, "renewal refused (expired or taken over)") {
			m.log.Warn("lease lost: renewal refused (expired or taken over)", "class", l.key.class, "id", l.key.id, "epoch", l.rec.Epoch)
		}
	}
}

// renewTimeout bounds a renewal of ls sent at sent: RenewInterval, or
// longer while the renewal can still save a lease: until the earliest of
// their last renewals plus TTL, before which the server cannot have let
// the lease go. A slow renewal that lands in time keeps the leases (its
// condition fails if another member took one over meanwhile); one cut off
// at RenewInterval would have been wasted. A lease whose local deadline
// passes meanwhile is not fresh (reads confirm at the primary) until the
// renewal lands.
func (m *Manager) renewTimeout(ls []*Lease, sent time.Time) time.Duration {
	m.mu.Lock()
	defer m.mu.Unlock()
	earliest := ls[0].deadline
	for _, l := range ls[1:] {
		if l.deadline.Before(earliest) {
			earliest = l.deadline
		}
	}
	return max(m.cfg.RenewInterval, earliest.Add(m.cfg.Margin).Sub(sent))
}

// expire marks every held lease whose deadline has passed as lost.
func (m *Manager) expire(now time.Time) {
	var lost []*Lease
	m.mu.Lock()
	for _, l := range m.held {
		if !now.Before(l.deadline) {
			lost = append(lost, l)
		}
	}
	m.mu.Unlock()
	for _, l := range lost {
		if m.end(l, leaseLost, "deadline passed without a successful renewal") {
			m.log.Warn("lease lost: deadline passed without a successful renewal", "class", l.key.class, "id", l.key.id, "epoch", l.rec.Epoch)
		}
	}
}
