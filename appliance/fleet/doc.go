// Package fleet groups what the replicas of a central-mode fleet use to
// work together; each subpackage has one job:
//
//   - coord: the coordination KV, one libSQL database every replica shares.
//   - lease: fenced per-object leases on the coordination KV.
//   - membership: member records (state and addresses) and the cached view
//     of ready members that the front door and placement read.
//   - objectid: object ids and their placement over member ids.
//   - marker, markerstore: the mode marker and its copies in both central
//     stores.
//   - probe: the start-up probes and the report `dwk diagnose` prints.
//   - namespaces: the names of a fleet's libSQL databases.
//   - internalauth: authentication of calls between replicas.
//   - protocol: the contract between the front door and the app server.
//
// Queues (bindings/queue/queuecentral) and cron tick leases
// (bindings/cron/cronlease) are the central-mode backends of their bindings.
package fleet
