// Package lapse tells a replica that forwarded a request for an object
// when the member it forwarded to stops holding the object, so that the
// request need not wait for the forward deadline.
//
// A holder that freezes (SIGSTOP, a stalled VM) or is cut off keeps the
// connection open and never answers. It also stops renewing its lease,
// which the libSQL server expires TTL after the last renewal; another
// replica may then take the object. A Watcher started for the forward
// reads the object's lease (uncached, one round trip) every Interval once
// the request has waited Delay, and fires when
//
//   - the lease does not name the member (it names another, or none: it
//     lapsed, or the forward went to the member by placement and the
//     member has not taken it), and the member's own record, read
//     uncached, has expired too (its heartbeat, written on the same
//     schedule as lease renewals, stopped) or says its peers deposed it
//     (package depose): such a member will not answer, nor take the
//     object; or
//   - the member is no longer listed as a live member.
//
// A lease that does not name a member whose record is live does not
// fire: the member is draining (it hands its leases back after the
// requests it took, and answers them), slow, or about to take the object,
// and its answer is awaited.
//
// A read that fails decides nothing: the forward deadline still bounds
// the wait. The watcher never touches the request; the forwarder decides
// what the client gets (a 504 when the request may have run, a replay on
// the new holder when nothing was sent).
//
// Fencing does not depend on it: a former holder that wakes up and runs
// the request anyway cannot commit, because the new holder raised the
// object's epoch.
package lapse
