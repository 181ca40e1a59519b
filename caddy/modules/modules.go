// Package modules plugs every dwk Caddy module into Caddy. Import it for
// its side effects, as xcaddy does:
//
//	xcaddy build --with github.com/dwk/fleet/caddy/modules
//
// It registers http.reverse_proxy.upstreams.dwk (package dwkupstreams),
// http.reverse_proxy.selection_policies.dwk (package dwkaffinity),
// caddy.storage.dwk (package dwkstorage), caddy.listeners.dwk_conns
// (package dwkconns), http.handlers.dwk_direct (package dwkdirect) and
// http.reverse_proxy.transport.dwk (package dwktransport).
package modules

import (
	// Modules register themselves in init.
	_ "github.com/dwk/fleet/caddy/dwkaffinity"
	_ "github.com/dwk/fleet/caddy/dwkconns"
	_ "github.com/dwk/fleet/caddy/dwkdirect"
	_ "github.com/dwk/fleet/caddy/dwkstorage"
	_ "github.com/dwk/fleet/caddy/dwktransport"
	_ "github.com/dwk/fleet/caddy/dwkupstreams"
)
