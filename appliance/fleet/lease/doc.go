// Package lease is the lease manager of a replica: it gives this replica
// the exclusive right to run one object at a time, per object, across the
// fleet, on top of the coordination KV (package coord).
//
// # Records
//
// A lease is the coordination key KeyFor(class, id) = ("lease", class, id)
// holding a JSON Record {holder, addr, epoch}, written with an expiry
// (expireIn = TTL) that the libSQL server's clock judges. Epochs are the
// fencing tokens: the counter EpochKeyFor(class, id) = ("epoch", class, id)
// never expires and is bumped by one in the same atomic operation that
// writes the lease, with a check on its versionstamp, so epochs increase
// strictly per object even across expiries and releases. The Caddy
// affinity policy and other readers decode records with DecodeRecord.
//
// # Acquire, renew, release
//
// Acquire reads the lease and the epoch counter (one round trip) and then
// writes both in one atomic operation (one round trip) that checks that
// neither changed. The holder counts a lease as lost at the local time it
// sent the acquire (or the last successful renewal) plus TTL minus Margin:
// the server expires the key no earlier than TTL after it received that
// request, so the holder always gives up before anyone else can take over.
//
// Every RenewInterval the manager renews all held leases together, in one
// Hrana batch (one round trip for up to 1000 leases) that, for each lease,
// extends the expiry only if the key still holds exactly this holder's
// record (holder and epoch); outcomes are per lease, so one lost lease does
// not fail the others. A lease whose renewal is refused is lost at once; a
// lease whose renewals fail (libSQL unreachable) is lost at its deadline.
// Losing a lease closes its Lost channel and cancels its Context, so work
// running under it stops.
//
// Release deletes the key if it still holds this holder's record, so
// another replica can take the object at once. Drain stops new
// acquisitions; Close releases every held lease in one round trip.
//
// The renew and release batches write coord's table directly (coordsql.go)
// because coord's atomic operations are all-or-nothing; they follow coord's
// layout and versionstamp rules (see appliance/fleet/coord/doc.go).
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
// Lookup reads a lease for the load balancer and forwarding paths and
// caches the answer for LookupCacheTTL. Held answers without a round trip
// for leases this replica holds.
package lease
