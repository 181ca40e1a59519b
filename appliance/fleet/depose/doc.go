// Package depose lets the members of a fleet take a holder they cannot
// reach out of service, although it still reaches libSQL and renews its
// leases.
//
// Every replica runs a Watcher. Each Interval (lease TTL/3 by default) it
//
//  1. reads every report in the coordination KV (one round trip) and
//     applies the rule below to the live members; if this replica is
//     deposed it calls Depose (the server hands back its leases, takes
//     none and answers /readyz with 503), and once it no longer is,
//     Restore;
//  2. opens a TCP connection to the internal listener of every other live
//     member, each bounded by ProbeTimeout, and writes one report row per
//     member it could not reach, ("depose", suspect, reporter), expiring
//     ReportTTL (2 lease TTLs by default) after the write, by the libSQL
//     server's clock (one round trip for all of them).
//
// # The rule
//
// A member is deposed while more than half of the other live members, and
// at least two of them, have a live report on it. Reports from replicas
// that are not live members do not count.
//
//   - One flaky peer, or one replica that is itself cut off and so reports
//     every other member, is one reporter: never enough on its own.
//   - A replica cut off from the rest is on the minority side, so a
//     majority of its peers report it; a replica on the majority side is
//     reported by at most the minority, never by more than half.
//   - With two replicas a cut looks the same from both sides, so nobody is
//     deposed: the holder keeps its objects (requests for them through the
//     other front door fail) rather than both replicas leaving.
//
// The replicas that see a member deposed also leave it out of placement,
// so that they take its objects themselves rather than forward to it.
// Fencing does not depend on any of this: a deposed holder's leases end
// before it hands them back, and the next tenure's epoch fences any write
// it still attempts.
package depose
