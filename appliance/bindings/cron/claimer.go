package cron

import (
	"context"
	"time"
)

// TickClaimer decides which replica runs a tick. The Scheduler calls it once
// per due tick of every entry, before running the handler.
type TickClaimer interface {
	// Claim reports whether the caller may run tick of the entry named by
	// schedule (Entry.Key). Across every replica sharing the claimer, it
	// returns true for at most one call per (schedule, tick), and for exactly
	// one while the claimer's store is reachable. It must be safe for
	// concurrent use. On error the Scheduler does not run the tick.
	Claim(ctx context.Context, schedule string, tick time.Time) (bool, error)
}

// LocalClaimer is the TickClaimer of a single-process (local mode) host: it
// grants every tick, since no other replica could run it.
type LocalClaimer struct{}

var _ TickClaimer = LocalClaimer{}

// Claim returns true.
func (LocalClaimer) Claim(context.Context, string, time.Time) (bool, error) { return true, nil }
