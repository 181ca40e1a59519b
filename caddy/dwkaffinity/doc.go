// Package dwkaffinity is the Caddy module
// http.reverse_proxy.selection_policies.dwk: it sends each request for a
// Durable Object to the replica that runs the object, and balances every
// other request by least connections.
//
// # Choosing an upstream
//
// The configured rules (a path pattern with {name}, a header, or a query
// parameter; package caddy/internal/affinity) find the object's namespace
// and name in the request; its id is objectid.FromName(fleet secret,
// namespace, name), the id the application computes with IDFromName. Then,
// among the upstreams that are available and not yet tried for this
// request:
//
//  1. the lease holder, when the lease lookup (cached, see the dwk
//     upstream source) names a ready member;
//  2. otherwise the placement choice: objectid.Pick of the object id over
//     the member ids of the ready members — the function, the member ids
//     and the ready set the object runtime uses to place an object that has
//     no live lease, so most first requests land where the object will
//     start;
//  3. requests that address no object: the upstream with the fewest active
//     requests (ties broken at random).
//
// Member ids and lease lookups come from the dwk upstream source
// (http.reverse_proxy.upstreams.dwk) in the same reverse_proxy, which
// attaches them to the request. With any other upstream source the policy
// ranks upstreams by their dial address and knows no lease holders.
//
// Upstreams already tried for a request are skipped on its retries (unless
// no other is left), so a retry after a draining replica's 503 goes to the
// next choice at once rather than to the same replica.
//
// # Placeholders
//
// Select sets, for header_up, logs and matchers:
//
//	{http.reverse_proxy.dwk.object_id}         the object id, hex; "" if none
//	{http.reverse_proxy.dwk.object_namespace}  the object namespace; "" if none
//	{http.reverse_proxy.dwk.selected_by}       lease, placement or least_conn
//
// # Configuration
//
// JSON:
//
//	"selection_policy": {
//		"policy": "dwk",
//		"secret": "{env.DWK_FLEET_SECRET}",
//		"rules": [
//			{"namespace": "Counter", "path": "/counter/{name}/..."},
//			{"namespace": "ChatRoom", "header": "X-Chat-Room"},
//			{"namespace": "ChatRoom", "query": "room"}
//		]
//	}
//
// Caddyfile (inside reverse_proxy):
//
//	lb_policy dwk {
//		secret {env.DWK_FLEET_SECRET}
//		path   /counter/{name}/... Counter
//		header X-Chat-Room         ChatRoom
//		query  room                ChatRoom
//	}
//
// Correctness never depends on this policy: a replica that receives a
// request for an object it does not hold forwards it to the holder. See
// package caddy/frontdoor for the retry contract with the app server.
package dwkaffinity
