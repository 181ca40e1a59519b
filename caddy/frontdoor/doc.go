// Package frontdoor embeds Caddy as a replica's front door in central mode:
// it renders Caddy's JSON config from dwk.json (Render) and runs it in this
// process (Start, Stop).
//
// The rendered config has one HTTP server on listen.public with three
// routes:
//
//   - the replicas' internal endpoints (/_dwk/internal/*) answer 404: they
//     are for the internal listeners only;
//   - self paths (/livez, /readyz, /_dwk/*) go to this replica's own app
//     server on listen.internal, so that health checks and admin calls
//     describe the replica the client connected to;
//   - everything else goes to a reverse proxy over the fleet's ready
//     members (module http.reverse_proxy.upstreams.dwk) with object
//     affinity (module http.reverse_proxy.selection_policies.dwk), built
//     from storage.libsql, fleet.name, fleet.secret and affinity.rules.
//
// With listen.tls, the server answers the listed domains with automatic
// HTTPS (ACME; certificates kept under Options.StorageDir, or with
// listen.tls.shared in the coordination database, shared by the fleet:
// module caddy.storage.dwk). Caddy's admin
// endpoint is disabled and the config is never written to disk.
//
// # Retries: the contract with the app server
//
// A request is retried on another replica, before any byte of a response
// reaches the client, when
//
//   - the connection to the chosen replica could not be made (any method);
//   - the connection failed before a response for GET, HEAD and OPTIONS;
//   - the replica answered 503 with X-Dwk-Retry: 1 (any method): it is
//     draining and did not start the request (package appliance/fleet/protocol).
//
// At most Options.Retries retries, Options.TryInterval apart, and none that
// would start after forward.timeout from the first attempt; each goes to
// an upstream not tried yet for that request, and the first retry also
// asks the upstream source for an early member listing. Request bodies up
// to Options.ReplayBody bytes are buffered so that retries carry them;
// a larger body that a replica started to read cannot be replayed and
// fails with 502. WebSocket upgrades are retried like GETs; once upgraded
// they stay on their replica until they close.
//
// Object requests that reach a replica other than the lease holder are
// forwarded by that replica (one extra hop), never retried here.
//
// # One per process
//
// Caddy keeps its running config in process-wide state, so a process runs
// at most one front door; Start fails with ErrRunning while one runs.
package frontdoor
