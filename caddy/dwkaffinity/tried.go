package dwkaffinity

import (
	"net/http"
	"slices"

	"github.com/caddyserver/caddy/v2/modules/caddyhttp"
)

// triedVar is the request variable holding the upstreams tried so far.
const triedVar = "dwk.tried_upstreams"

// tried is the dial addresses of the upstreams already chosen for one
// request. The reverse proxy calls Select once per attempt, from the
// request's goroutine.
type tried struct{ dials []string }

// triedFor returns r's tried set, creating it on the first attempt. A
// request that Caddy did not prepare (no request variables) gets a fresh
// set every time.
func triedFor(r *http.Request) *tried {
	if t, ok := caddyhttp.GetVar(r.Context(), triedVar).(*tried); ok {
		return t
	}
	t := &tried{}
	caddyhttp.SetVar(r.Context(), triedVar, t)
	return t
}

func (t *tried) add(dial string) {
	if !t.has(dial) {
		t.dials = append(t.dials, dial)
	}
}

func (t *tried) has(dial string) bool { return slices.Contains(t.dials, dial) }

func (t *tried) empty() bool { return len(t.dials) == 0 }
