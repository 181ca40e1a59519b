// Package membership tracks which replicas make up a fleet. Each replica
// heartbeats a member record into the coordination KV (package coord) under
// ("member", id), with a TTL judged by the libSQL server's clock, so a
// replica that dies drops out of the fleet when its record expires and one
// that exits cleanly drops out at once. A View lists the records at a short
// interval and serves the ready ones from memory to the load balancer and
// object placement.
//
// # Lifecycle of a record
//
//	starting → ready → draining → gone
//
// A replica writes its record as "starting" when its Heartbeat starts,
// switches it to "ready" once its probes passed and it serves, to
// "draining" when it begins its graceful exit (load balancers stop choosing
// it within one View interval), and deletes it ("gone") when it stops.
// Only ready members are offered to the load balancer and to placement.
//
// # Parts
//
//   - Member: the record, JSON-encoded in the coordination KV.
//   - Registry: reads and writes records in a coord.Store, one round trip
//     per operation (and per 1000 members for a listing).
//   - Heartbeat: one replica's own record, rewritten every TTL/3 by a
//     goroutine it owns, with SetState for state changes.
//   - View: every replica's view of the fleet, refreshed every 500 ms by
//     default; Ready is served from memory.
//
// Heartbeat and View depend on the small interfaces Recorder and Lister,
// which Registry implements and tests fake.
package membership
