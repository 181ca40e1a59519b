package cron

import (
	"context"
	"errors"
	"time"
)

// ErrClaimLost reports that a won claim lapsed (its holder did not renew
// it in time) and another replica took the tick over.
var ErrClaimLost = errors.New("cron: the tick's claim lapsed and another replica took it over")

// TickClaimer decides which replica runs a tick. The Scheduler calls Claim
// once per due tick of every entry before running the handler, and again
// after Claim.Retry while another replica's claim of the tick may lapse.
type TickClaimer interface {
	// Claim asks to run tick of the entry named by schedule (Entry.Key).
	// Across every replica sharing the claimer, at most one caller holds a
	// (schedule, tick) at a time, and one wins it while the claimer's
	// store is reachable. A won claim lapses unless its holder renews it;
	// a later Claim, by any replica, may then win the tick again, unless
	// the holder recorded it done. It must be safe for concurrent use. On
	// error the Scheduler does not run the tick.
	Claim(ctx context.Context, schedule string, tick time.Time) (Claim, error)
}

// Claim is a TickClaimer's answer.
type Claim struct {
	// Held is set when the caller won the tick: it runs the handler,
	// renewing Held meanwhile, then calls Held.Done.
	Held HeldTick
	// Retry, when Held is nil, is when to ask again: another replica
	// holds the tick and has not recorded it done, so its claim may still
	// lapse (it died). Zero means the tick is settled (it ran to
	// completion, or the claimer never hands a tick over).
	Retry time.Duration
}

// HeldTick is a won claim of one tick, kept while its handler runs.
type HeldTick interface {
	// RenewEvery is how often Renew must succeed for the claim not to
	// lapse; zero means it never lapses and Renew need not be called.
	RenewEvery() time.Duration
	// Renew keeps the claim. ErrClaimLost: it lapsed and another replica
	// took the tick over; the caller should stop running it.
	Renew(ctx context.Context) error
	// Done records that the tick ran, so that no replica claims it again.
	// ErrClaimLost: the claim had lapsed and another replica took the
	// tick over, which may run it too.
	Done(ctx context.Context) error
}

// LocalClaimer is the TickClaimer of a single-process (local mode) host: it
// grants every tick, since no other replica could run it.
type LocalClaimer struct{}

var _ TickClaimer = LocalClaimer{}

// Claim grants the tick, with a claim that never lapses.
func (LocalClaimer) Claim(context.Context, string, time.Time) (Claim, error) {
	return Claim{Held: localTick{}}, nil
}

// localTick is a claim that never lapses.
type localTick struct{}

var _ HeldTick = localTick{}

func (localTick) RenewEvery() time.Duration   { return 0 }
func (localTick) Renew(context.Context) error { return nil }
func (localTick) Done(context.Context) error  { return nil }
