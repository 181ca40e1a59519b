// Package objects is the Durable Objects runtime of a replica: it creates
// object instances on demand, delivers their events (requests, alarms,
// WebSocket messages and closes) through the object's input and output
// gates (gates.go; one at a time, but for events of a Gated class that
// await calls), runs their alarms, evicts idle instances and drains
// gracefully.
//
// The runtime is mode-agnostic. Everything that differs between local mode
// and central mode sits behind small interfaces declared here (seams.go):
//
//   - ObjectStore opens an object's database (local: package objlocal, one
//     SQLite file per object; central: a local copy per object whose pages
//     are kept in libSQL, every write carrying an epoch guard).
//   - AlarmIndex finds due alarms across all objects (local: objlocal's
//     alarms.sqlite; central: the coordination KV with claims by CAS).
//   - Placer decides whether an object runs on this replica (local: Here,
//     always; central: leases), and Forwarder sends events for objects held
//     elsewhere to their holder.
//
// Lifecycle: New fills defaults (no side effects) → Open validates and
// starts the alarm scheduler and the idle janitor → Namespace binds object
// classes (any time) → Drain stops admission and waits → Close stops
// everything. Close and Drain are bounded by their context.
package objects
