// Package cronlease is the central-mode cron.TickClaimer: every replica's
// Scheduler evaluates every schedule, and for each due tick they race for
// a tick lease in the coordination KV (package coord). The lease is the
// key ("cron", "tick", <schedule key>, <tick, Unix ms>), created by an
// atomic check-absent-then-set — one round trip — so exactly one replica
// fleet-wide wins each tick and runs the handler.
//
// The lease holds the winner's member id and expires after a generous TTL
// (24 h by default, by the libSQL server's clock): it must outlive every
// replica's chance to still claim that tick (a replica that was paused or
// fell behind claims late), and it is only a record after that, swept by
// the coordination store.
//
// A commit whose answer was lost (coord.ErrOutcomeUnknown) is resolved by
// reading the lease back: each claim carries a random token, so a replica
// recognises its own win (even if another process runs under the same
// member id), and when no lease exists it sends the same claim again. If
// the store cannot be read either, Claim returns an error and the Scheduler
// does not run the tick here: the tick may then run nowhere, which is the
// at-most-once side of the trade.
package cronlease
