package cronlease

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/dwk/fleet/appliance/fleet/coord"
	"github.com/dwk/fleet/appliance/fleet/coord/tuple"
)

// Tick is one won tick of a schedule: when it was due and who ran it.
type Tick struct {
	// Schedule is the cron.Entry.Key of the schedule.
	Schedule string `json:"schedule"`
	// At is the tick's time.
	At time.Time `json:"at"`
	// Member is the replica that won the tick and ran it.
	Member string `json:"member"`
}

// Recent returns up to n of the latest won ticks of schedule, newest
// first, in one round trip. Tick leases live for the claimer's TTL, so
// older ticks are gone.
func (c *Claimer) Recent(ctx context.Context, schedule string, n int) ([]Tick, error) {
	page, err := c.store.List(ctx, coord.Selector{Prefix: tuple.Key{"cron", "tick", schedule}},
		coord.ListOptions{Limit: n, Reverse: true})
	if err != nil {
		return nil, fmt.Errorf("recent cron ticks of %q: %w", schedule, err)
	}
	out := make([]Tick, 0, len(page.Entries))
	for _, e := range page.Entries {
		ms, ok := e.Key[len(e.Key)-1].(int64)
		var l Lease
		if !ok || json.Unmarshal(e.Value, &l) != nil {
			continue
		}
		out = append(out, Tick{Schedule: schedule, At: time.UnixMilli(ms).UTC(), Member: l.Member})
	}
	return out, nil
}
