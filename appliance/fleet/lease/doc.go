// Package lease is the lease manager of a replica: it gives this replica
// the exclusive right to run one object at a time, per object, across the
// fleet, on top of the coordination KV (package coord).
//
// # Records and liveness
//
// A lease is the coordination key KeyFor(class, id) = ("lease", class, id)
// holding a JSON Record {holder, addr, epoch, live}, written without an
// expiry. It is held while its holder's liveness record LiveKeyFor(member)
// = ("live", member), JSON {epoch}, exists with the record's live epoch:
// that one key per member expires TTL after the member's last heartbeat,
// by the libSQL server's clock. Each time a member starts a liveness
// epoch it bumps its counter LiveEpochKeyFor(member) in the same atomic
// operation, so an epoch that lapsed or was replaced never lives again:
// one lapse ends every lease the member held, at once, and keeping any
// number of leases costs one heartbeat per RenewInterval (the design of
// epoch-based leases). Readers judge records with Liveness (or a
// Manager's Resolve), which caches live answers briefly and dead ones for
// good.
//
// Epochs are the fencing tokens: the counter EpochKeyFor(class, id) =
// ("epoch", class, id) never expires and is bumped by one in the same
// atomic operation that writes the lease, with a check on its
// versionstamp, so epochs increase strictly per object even across
// liveness epochs and releases.
//
// # Acquire, heartbeat, release
//
// Acquire first tries to take the lease as the object's first: epoch 1,
// in one atomic operation that checks that neither the lease nor the
// epoch counter exists (one round trip, all a new object costs) and,
// when they do, reads them instead in the same round trip
// (coord.Atomic.ReadOnFail). It then reads, if the lease names another
// member, that member's liveness (one round trip, unless its epoch is
// known to have ended); it takes the lease if no live lease exists,
// writing both keys in one atomic operation (one round trip) that checks
// that neither changed. A member's first Acquire, and
// the first after its liveness epoch ended, starts a new epoch (two round
// trips).
//
// Every RenewInterval the manager extends its liveness record if it still
// holds exactly this epoch (one statement, one round trip). The holder
// counts its epoch, and every lease under it, as lost at the local time it
// sent the last successful heartbeat (or started the epoch) plus TTL minus
// Margin: the server expires the record no earlier than TTL after it
// received that request, so the holder always gives up before anyone else
// can take over. A refused heartbeat ends every lease at once; failing
// heartbeats (libSQL unreachable) end them at the deadline. Losing a lease
// closes its Lost channel and cancels its Context, so work running under
// it stops.
//
// Release deletes the key if it still holds this holder's record, so
// another replica can take the object at once. Drain stops new
// acquisitions; Close and Depose delete the liveness record, which hands
// every held lease back in one round trip.
//
// The heartbeat and release write coord's table directly (coordsql.go)
// because a refusal there is an outcome, not a failed commit; they follow
// coord's layout and versionstamp rules (see appliance/fleet/coord/doc.go).
//
// # History
//
// The atomic operation of Acquire also writes the tenure (epoch, holder,
// address, time) under HistoryKeyFor(class, id, epoch) =
// ("leasehistory", class, id, epoch), with a HistoryTTL expiry, and deletes
// the tenure HistoryLen epochs older: a bounded recent history at no extra
// round trip. History reads it back for the fleet page's object view.
// Releases and expiries are not recorded; a tenure ends where the next
// begins.
//
// # Lookups
//
// Lookup reads a lease for the load balancer and forwarding paths, judges
// it by its holder's liveness and caches the answer for LookupCacheTTL;
// Current reads past every cache. Held answers without a round trip for
// leases this replica holds.
package lease
