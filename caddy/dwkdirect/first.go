package dwkdirect

import (
	"context"
	"net/http"
	"strings"
)

// triedKey is the context key under which serveFirst tells the dwk_direct
// handler inside Caddy that this member was tried already (its value is
// the member's dial address).
type triedKey struct{}

// reserved reports whether path may name one of the front door's reserved
// paths (under /_dwk, any case), which only Caddy's routes answer.
func reserved(path string) bool {
	return strings.Contains(strings.ToLower(path), "/_dwk")
}

// serveFirst serves r before Caddy sees it, as the dwk_direct handler in
// Caddy would; a replay goes through caddy, whose dwk_direct handler then
// skips the member that was tried. It reports whether it took r.
func (d *Direct) serveFirst(w http.ResponseWriter, r *http.Request, caddy http.Handler) bool {
	handled, _ := d.serve(w, r, func(w http.ResponseWriter, r *http.Request, tried string) error {
		caddy.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), triedKey{}, tried)))
		return nil
	})
	return handled
}
