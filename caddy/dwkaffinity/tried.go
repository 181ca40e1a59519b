package dwkaffinity

import "slices"

// tried is the dial addresses of the upstreams already chosen for one
// request. The reverse proxy calls Select once per attempt, from the
// request's goroutine.
type tried struct{ dials []string }

func (t *tried) add(dial string) {
	if !t.has(dial) {
		t.dials = append(t.dials, dial)
	}
}

func (t *tried) has(dial string) bool { return slices.Contains(t.dials, dial) }

func (t *tried) empty() bool { return len(t.dials) == 0 }
