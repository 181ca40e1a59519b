package cronlease

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/dwk/fleet/appliance/bindings/cron"
	"github.com/dwk/fleet/appliance/fleet/coord"
	"github.com/dwk/fleet/appliance/fleet/coord/tuple"
)

// heldTick is a won tick lease. Renew and Done write it only if it still
// carries the versionstamp this process last wrote: a lease that lapsed
// (absent to the check) or that another replica took over fails the
// check, and the claim is lost.
type heldTick struct {
	c       *Claimer
	key     tuple.Key
	lease   Lease
	running []byte

	mu sync.Mutex
	vs coord.Versionstamp
}

var _ cron.HeldTick = (*heldTick)(nil)

// RenewEvery is a third of the claim TTL, so that two renewals may fail
// before the claim lapses.
func (h *heldTick) RenewEvery() time.Duration { return h.c.claimTTL / 3 }

// Renew extends the claim by the claim TTL.
func (h *heldTick) Renew(ctx context.Context) error {
	if err := h.write(ctx, h.running, h.c.claimTTL, false); err != nil {
		return fmt.Errorf("renew cron tick claim %v: %w", h.key, err)
	}
	return nil
}

// Done records the tick done, for the TTL.
func (h *heldTick) Done(ctx context.Context) error {
	done := h.lease
	done.Done = true
	value, err := json.Marshal(done)
	if err != nil {
		return fmt.Errorf("encode lease: %w", err)
	}
	if err := h.write(ctx, value, h.c.ttl, true); err != nil {
		return fmt.Errorf("record cron tick %v done: %w", h.key, err)
	}
	return nil
}

// write replaces the lease if it is still this claim's. A failed check or
// a lost answer is resolved by reading the lease back: this claim's token
// means a write of its own landed unheard (its versionstamp is adopted
// and the write sent again, unless it already recorded the tick done);
// anything else means the claim is lost.
func (h *heldTick) write(ctx context.Context, value []byte, ttl time.Duration, done bool) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	for attempt := 1; ; attempt++ {
		res, err := h.c.store.Atomic().Check(h.key, h.vs).Set(h.key, value, ttl).Commit(ctx)
		switch {
		case err == nil && res.OK:
			h.vs = res.Versionstamp
			return nil
		case err != nil && !errors.Is(err, coord.ErrOutcomeUnknown):
			return err
		}
		l, e, rerr := h.c.holder(ctx, h.key)
		switch {
		case rerr != nil && err != nil:
			return fmt.Errorf("%w; reading the lease back: %w", err, rerr)
		case rerr != nil:
			return rerr
		case !e.Exists() || l.Token != h.lease.Token:
			return cron.ErrClaimLost
		case done && l.Done:
			h.vs = e.Versionstamp
			return nil
		case attempt == maxAttempts:
			return fmt.Errorf("%d writes with lost answers or moved versionstamps (last: %v)", attempt, err)
		}
		h.vs = e.Versionstamp
	}
}
