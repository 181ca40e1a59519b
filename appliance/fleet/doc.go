// Package fleet is the home of a central-mode fleet's lifecycle building
// blocks; each lives in a subpackage with one job:
//
//   - membership: every replica heartbeats a member record (state and
//     addresses) into the coordination KV; a View caches the ready members
//     for the load balancer and object placement.
//   - markerstore: reads, writes and deletes the mode marker in both central
//     stores (the coordination KV and the fleet's S3 bucket).
//   - probe: the start-up probes a central-mode replica runs before it
//     serves, and the report `dwk diagnose` prints.
//
// Queues (queue/queuecentral) and cron tick leases (cron/cronlease) are the
// central-mode backends of their own packages.
package fleet
