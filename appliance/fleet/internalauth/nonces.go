package internalauth

import (
	"sync"
	"time"
)

// nonces remembers the nonces of accepted requests for at least keep, in
// two generations of length keep: a nonce lives in the current one until
// it rotates, then in the previous one for another keep. At most max are
// held in all.
type nonces struct {
	keep time.Duration
	max  int

	mu    sync.Mutex
	start time.Time
	cur   map[string]struct{}
	prev  map[string]struct{}
}

func newNonces(keep time.Duration, max int) *nonces {
	return &nonces{keep: keep, max: max, cur: map[string]struct{}{}, prev: map[string]struct{}{}}
}

// add records nonce at now. It returns ErrReplayed for a nonce already
// held and ErrBusy when the memory is full.
func (n *nonces) add(nonce string, now time.Time) error {
	n.mu.Lock()
	defer n.mu.Unlock()
	switch age := now.Sub(n.start); {
	case n.start.IsZero() || age >= 2*n.keep:
		clear(n.prev)
		clear(n.cur)
		n.start = now
	case age >= n.keep:
		n.prev, n.cur = n.cur, n.prev
		clear(n.cur)
		n.start = n.start.Add(n.keep)
	}
	if _, ok := n.cur[nonce]; ok {
		return ErrReplayed
	}
	if _, ok := n.prev[nonce]; ok {
		return ErrReplayed
	}
	if len(n.cur)+len(n.prev) >= n.max {
		return ErrBusy
	}
	n.cur[nonce] = struct{}{}
	return nil
}

// len is the number of nonces held.
func (n *nonces) len() int {
	n.mu.Lock()
	defer n.mu.Unlock()
	return len(n.cur) + len(n.prev)
}
