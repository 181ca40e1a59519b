// Package cronlease is the central-mode cron.TickClaimer: every replica's
// Scheduler evaluates every schedule, and for each due tick they race for
// a tick lease in the coordination KV (package coord). The lease is the
// key ("cron", "tick", <schedule key>, <tick, Unix ms>), created by an
// atomic check-absent-then-set — one round trip — so one replica at a
// time holds each tick and runs the handler.
//
// A won lease is a claim that lapses after the claim TTL (10 s by
// default, by the libSQL server's clock) unless the winner renews it
// (every third of the TTL, by a check of the versionstamp it last wrote)
// or records the tick done. A lapsed lease is absent to the check, so
// when the winner dies mid-run another replica's later Claim takes the
// tick over; Claim tells a loser to ask again after half the claim TTL
// while the tick is not done. The winner's renewal or done record then
// fails its check and reports cron.ErrClaimLost. A tick whose winner died
// after the handler ran but before the done record landed runs again: at
// least once.
//
// The done record holds the winner's member id and lives for a generous
// TTL (24 h by default): it must outlive every replica's chance to still
// claim that tick (a replica that was paused or fell behind claims late),
// and it is only a record after that, swept by the coordination store.
//
// A commit whose answer was lost (coord.ErrOutcomeUnknown) is resolved by
// reading the lease back: each claim carries a random token, so a replica
// recognises its own win (even if another process runs under the same
// member id), and when no lease exists it sends the same claim again. If
// the store cannot be read either, Claim returns an error and the Scheduler
// retries within the tick's grace window.
package cronlease
