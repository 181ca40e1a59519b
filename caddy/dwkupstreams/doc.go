// Package dwkupstreams is the Caddy module http.reverse_proxy.upstreams.dwk:
// a dynamic upstream source that offers the reverse proxy the fleet's ready
// members, read from the coordination KV.
//
// A background goroutine lists the member records (package
// appliance/fleet/membership) every refresh interval (500ms by default);
// GetUpstreams serves the last listing from memory. Members in any state
// but ready — starting, draining — are never offered, so a replica that
// begins to drain leaves rotation within one refresh interval plus one
// round trip, and membership changes never need a config reload (which
// would drop WebSockets). While listings fail, the last good one is served.
// Before the first listing succeeds GetUpstreams returns an error and the
// proxy answers 502/503 (retries, if configured, wait for it).
//
// The source also owns the lease-holder cache of the dwk selection policy
// (module http.reverse_proxy.selection_policies.dwk, package dwkaffinity):
// with every upstream list it attaches the member snapshot the list was
// built from and the lease lookups to the request (package fleetview), so
// that the policy ranks the same members by their member ids, exactly as
// object placement does, without a second connection. After a failed
// attempt (a retry) the reverse proxy calls ResetCache, which asks for an
// early listing.
//
// JSON:
//
//	"dynamic_upstreams": {
//		"source": "dwk",
//		"url": "http://libsql.internal:8080",
//		"auth_token": "{env.DWK_LIBSQL_TOKEN}",
//		"fleet": "prod",
//		"refresh": "500ms"
//	}
//
// Caddyfile (inside reverse_proxy):
//
//	dynamic dwk {
//		url             http://libsql.internal:8080
//		auth_token      {env.DWK_LIBSQL_TOKEN}
//		fleet           prod
//		namespace       dwk-coord-prod
//		address         internal|public
//		refresh         500ms
//		timeout         2s
//		lease_cache_ttl 1s
//		lease_timeout   250ms
//	}
//
// Every option but url and fleet (or namespace) is optional.
package dwkupstreams
