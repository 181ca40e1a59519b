package lease

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/dwk/fleet/appliance/fleet/coord"
	"github.com/dwk/fleet/appliance/libsql/hrana"
)

// liveState is this manager's liveness epoch. Guarded by Manager.mu.
type liveState struct {
	epoch    int64     // 0: none; the next Acquire starts one
	value    []byte    // the stored liveness record of epoch
	deadline time.Time // local time at which epoch (and every lease under it) counts as lost
}

// renewLoop sends the heartbeat each RenewInterval and ends every lease
// when the liveness deadline passes, until Close.
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
			m.heartbeat(now)
			next = now.Add(m.cfg.RenewInterval)
		}
		m.expire(clock.Now())
	}
}

// untilWake is the time until the next heartbeat or the liveness
// deadline, whichever comes first.
func (m *Manager) untilWake(next time.Time) time.Duration {
	now := m.cfg.Clock.Now()
	wake := next
	m.mu.Lock()
	if m.live.epoch > 0 && m.live.deadline.Before(wake) {
		wake = m.live.deadline
	}
	m.mu.Unlock()
	return max(wake.Sub(now), time.Millisecond)
}

// heartbeat extends this member's liveness record by the TTL, in one
// round trip whatever the number of leases held: sent is the local time
// the request goes out, and the liveness deadline becomes sent + TTL -
// Margin. A refused heartbeat (the record lapsed, or a later incarnation
// of this member replaced it) ends every lease at once; when the round
// trip fails, the deadline stays as it was.
func (m *Manager) heartbeat(sent time.Time) {
	m.mu.Lock()
	ls := m.live
	m.mu.Unlock()
	if ls.epoch == 0 {
		return
	}
	ctx, cancel := context.WithTimeout(m.ctx, m.renewTimeout(ls, sent))
	defer cancel()
	_, ok, err := condBatch(ctx, m.client, []hrana.Stmt{renewStmt(m.liveKey, ls.value, m.cfg.TTL)})
	if err != nil {
		if m.ctx.Err() == nil {
			m.log.Warn("heartbeat failed; every lease is lost at the liveness deadline unless a later heartbeat succeeds",
				"leases", m.Count(), "live_epoch", ls.epoch, "err", err)
		}
		return
	}
	if !ok[0] {
		m.endEpoch(ls.epoch, leaseLost, "heartbeat refused (its liveness record lapsed or was replaced)")
		return
	}
	m.mu.Lock()
	if m.live.epoch == ls.epoch {
		if d := sent.Add(m.cfg.TTL - m.cfg.Margin); d.After(m.live.deadline) {
			m.live.deadline = d
		}
	}
	m.mu.Unlock()
}

// renewTimeout bounds a heartbeat of ls sent at sent: RenewInterval, or
// longer while it can still save the epoch: until the last successful
// heartbeat plus TTL, before which the server cannot have let the record
// go. A slow heartbeat that lands in time keeps the leases; one cut off at
// RenewInterval would have been wasted. While the local deadline has
// passed no lease is fresh (reads confirm at the primary) until it lands.
func (m *Manager) renewTimeout(ls liveState, sent time.Time) time.Duration {
	return max(m.cfg.RenewInterval, ls.deadline.Add(m.cfg.Margin).Sub(sent))
}

// expire ends the liveness epoch, and every lease under it, once its
// deadline has passed.
func (m *Manager) expire(now time.Time) {
	m.mu.Lock()
	ls := m.live
	m.mu.Unlock()
	if ls.epoch > 0 && !now.Before(ls.deadline) {
		m.endEpoch(ls.epoch, leaseLost, "liveness deadline passed without a successful heartbeat")
	}
}

// endEpoch forgets liveness epoch (if still current) and ends every lease
// held under it with state, saying why. The next Acquire starts a new
// epoch, which ends this one at the server too.
func (m *Manager) endEpoch(epoch int64, state leaseState, why string) []*Lease {
	m.mu.Lock()
	if m.live.epoch != epoch {
		m.mu.Unlock()
		return nil
	}
	m.live = liveState{}
	all := make([]*Lease, 0, len(m.held))
	for _, l := range m.held {
		all = append(all, l)
	}
	m.mu.Unlock()
	var ended []*Lease
	for _, l := range all {
		if m.end(l, state, why) {
			ended = append(ended, l)
		}
	}
	if len(ended) > 0 && state == leaseLost {
		m.log.Warn("leases lost: "+why, "leases", len(ended), "live_epoch", epoch)
	}
	return ended
}

// liveStart is one start of a liveness epoch, which concurrent callers
// share.
type liveStart struct {
	done  chan struct{}
	epoch int64
	err   error
}

// liveEpoch returns the current liveness epoch, starting one if there is
// none or its deadline has passed: it bumps the member's liveness counter
// and writes the liveness record in one atomic operation (after one read),
// which ends any earlier epoch of this member, and every lease under it,
// for every reader at once. Callers that find a start under way wait for
// its outcome, each no longer than its own context allows.
func (m *Manager) liveEpoch(ctx context.Context) (int64, error) {
	m.mu.Lock()
	ls := m.live
	if ls.epoch > 0 && m.cfg.Clock.Now().Before(ls.deadline) {
		m.mu.Unlock()
		return ls.epoch, nil
	}
	if st := m.starting; st != nil {
		m.mu.Unlock()
		select {
		case <-st.done:
			return st.epoch, st.err
		case <-ctx.Done():
			return 0, fmt.Errorf("start liveness: %w", ctx.Err())
		}
	}
	st := &liveStart{done: make(chan struct{})}
	m.starting = st
	m.mu.Unlock()
	st.epoch, st.err = m.startLive(ctx, ls)
	m.mu.Lock()
	m.starting = nil
	m.mu.Unlock()
	close(st.done)
	return st.epoch, st.err
}

// startLive starts a liveness epoch in place of ls.
func (m *Manager) startLive(ctx context.Context, ls liveState) (int64, error) {
	if ls.epoch > 0 {
		m.endEpoch(ls.epoch, leaseLost, "liveness deadline passed without a successful heartbeat")
	}
	ck, lk := LiveEpochKeyFor(m.cfg.Member), LiveKeyFor(m.cfg.Member)
	for range acquireAttempts {
		cur, err := m.cfg.Coord.Get(ctx, ck)
		if err != nil {
			return 0, fmt.Errorf("start liveness: read epoch counter: %w", err)
		}
		n, ok := cur.Uint64()
		if cur.Exists() && !ok {
			return 0, fmt.Errorf("start liveness: epoch counter: %w", ErrCorrupt)
		}
		rec := liveRecord{Epoch: int64(n) + 1}
		value := rec.encode()
		sent := m.cfg.Clock.Now()
		res, err := m.cfg.Coord.Atomic().Check(ck, cur.Versionstamp).Sum(ck, 1).Set(lk, value, m.cfg.TTL).Commit(ctx)
		if err != nil {
			if !(errors.Is(err, coord.ErrOutcomeUnknown) && m.wroteIt(ctx, lk, value)) {
				return 0, fmt.Errorf("start liveness: %w", err)
			}
		} else if !res.OK {
			continue // another incarnation of this member started one: go again
		}
		m.mu.Lock()
		m.live = liveState{epoch: rec.Epoch, value: value, deadline: sent.Add(m.cfg.TTL - m.cfg.Margin)}
		m.mu.Unlock()
		m.log.Info("liveness epoch started", "live_epoch", rec.Epoch)
		return rec.Epoch, nil
	}
	return 0, fmt.Errorf("start liveness: %w", ErrContended)
}

// dropLive deletes the liveness record of epoch, if it still holds it,
// in one round trip: every lease under the epoch ends for every reader at
// once. The caller has ended the leases locally.
func (m *Manager) dropLive(ctx context.Context, ls liveState) error {
	if ls.epoch == 0 {
		return nil
	}
	if _, _, err := condBatch(ctx, m.client, []hrana.Stmt{deleteStmt(m.liveKey, ls.value)}); err != nil {
		return fmt.Errorf("end liveness epoch %d: %w", ls.epoch, err)
	}
	return nil
}
