package hranaclient

import (
	"context"
	"sync/atomic"
)

// Tally counts the round trips sent on behalf of one unit of work, such as
// one HTTP request a server handles. Attach it with [WithTally]: every
// request any Client sends under that context (or a context derived from
// it) adds one, retries included. Round trips under other contexts —
// background work such as lease renewals and heartbeats — never reach it.
//
// A Tally splits its count by database: round trips to its namespace (for
// dwk, the coordination database) and round trips to any other. Counting
// costs one context lookup and one atomic add per round trip. The zero
// value counts nothing under its namespace; use [NewTally].
type Tally struct {
	namespace string
	in, other atomic.Int64
}

// NewTally returns a tally that counts round trips to namespace apart
// from the rest.
func NewTally(namespace string) *Tally { return &Tally{namespace: namespace} }

// Counts returns the round trips counted so far: those sent to the tally's
// namespace, and those sent to any other database.
func (t *Tally) Counts() (namespace, other int64) { return t.in.Load(), t.other.Load() }

func (t *Tally) add(namespace string) {
	if namespace == t.namespace {
		t.in.Add(1)
	} else {
		t.other.Add(1)
	}
}

type tallyKey struct{}

// WithTally returns a context that carries t: the round trips every Client
// sends under it are counted in t.
func WithTally(ctx context.Context, t *Tally) context.Context {
	return context.WithValue(ctx, tallyKey{}, t)
}

// TallyFrom returns the tally ctx carries, or nil.
func TallyFrom(ctx context.Context) *Tally {
	t, _ := ctx.Value(tallyKey{}).(*Tally)
	return t
}
