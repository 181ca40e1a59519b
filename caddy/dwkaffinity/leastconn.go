package dwkaffinity

import (
	"math/rand/v2"

	"github.com/caddyserver/caddy/v2/modules/caddyhttp/reverseproxy"
)

// leastConn returns the usable upstream with the fewest active requests,
// ties broken at random, preferring upstreams not yet tried for the
// request; nil when none is available.
func leastConn(pool reverseproxy.UpstreamPool, t *tried) *reverseproxy.Upstream {
	for _, skipTried := range []bool{true, false} {
		var best *reverseproxy.Upstream
		least, ties := -1, 0
		for _, up := range pool {
			if !usable(up, t, skipTried) {
				continue
			}
			n := up.NumRequests()
			switch {
			case least < 0 || n < least:
				best, least, ties = up, n, 1
			case n == least:
				// Reservoir sampling: each tied upstream wins with
				// probability 1/ties.
				ties++
				if rand.IntN(ties) == 0 {
					best = up
				}
			}
		}
		if best != nil || t.empty() {
			return best
		}
	}
	return nil
}
