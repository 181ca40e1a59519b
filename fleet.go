// Package fleet is the root of dwk fleet. Importing it links the Caddy
// modules (http.reverse_proxy.upstreams.dwk and
// http.reverse_proxy.selection_policies.dwk), so a plain Caddy binary gets
// them with `xcaddy build --with github.com/dwk/fleet`.
package fleet

import _ "github.com/dwk/fleet/caddy/modules" // registers the Caddy modules
