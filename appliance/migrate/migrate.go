// Package migrate copies what one mode's stores hold into another's: a
// local data directory's D1 databases, KV namespaces, R2 buckets and
// Durable Objects into a fleet's stores, or back. It works entry by entry (a database is one
// entry, a key or an object one each), so that a run can be repeated: an
// entry the destination already holds, equal, is skipped; one it holds
// with other content is a conflict, refused unless Options.Replace. A
// verification pass compares every entry's digest on both sides.
package migrate

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/dwk/fleet/appliance/bindings/queue"

	"github.com/dwk/fleet/appliance/worker"
)

// Stores are one side's stores: both modes' store sets provide them.
type Stores interface {
	D1(name string) (worker.D1Backend, error)
	R2(name string) (worker.R2Bucket, error)
	KV(name string) (worker.KVNamespace, error)
}

// Side is one side of a migration.
type Side struct {
	Stores
	// Objects is its Durable Object storage; nil when no class is copied.
	Objects Objects
	// Queues is its queue broker; nil when no queue is copied.
	Queues queue.Mover
}

// The kinds of store a migration copies.
const (
	KindD1 = "d1"
	KindKV = "kv"
	KindR2 = "r2"
	// KindObjects is a Durable Object class: Store.Name is the class.
	KindObjects = "do"
	// KindQueue is a queue's backlog.
	KindQueue = "queue"
)

// Store names one database, namespace or bucket to copy.
type Store struct {
	// Kind is KindD1, KindKV or KindR2.
	Kind string
	// Name is its store name (the same on both sides).
	Name string
}

func (s Store) String() string { return s.Kind + " " + s.Name }

// Options tune a Run.
type Options struct {
	// Replace overwrites entries the destination holds with other
	// content; without it they are conflicts and nothing is written.
	Replace bool
	// DryRun compares and reports, and writes nothing.
	DryRun bool
	// Progress, when set, is called as entries are copied, with the
	// store, the entries done and the total to copy; never concurrently.
	Progress func(s Store, done, total int)
	// Parallel is how many entries are copied at once. Default (0): 1.
	Parallel int
}

// Result is one store's outcome.
type Result struct {
	Store
	// Entries is how many entries the source holds: 1 for a database,
	// keys for a namespace, objects for a bucket. Bytes is their size.
	Entries int
	Bytes   int64
	// Conflicts are the entries the destination holds with other
	// content. Copied entries were absent from the destination, Replaced
	// ones held other content there, Skipped ones were there already,
	// equal.
	Conflicts, Copied, Replaced, Skipped int
	// Verified is set when every entry's digest matched after the copy.
	Verified bool
	// NewETags are the multipart R2 objects copied with a new ETag: no
	// uniform part size reproduces theirs (see parts.go).
	NewETags []string
	// Took is how long the store's comparison, copy and verification took.
	Took time.Duration
}

// ErrConflict is returned, before anything is written, when the
// destination holds other content under names the source has.
var ErrConflict = errors.New("the destination already holds other data")

// ErrMismatch is returned when the verification pass finds an entry whose
// digest differs between the two sides.
var ErrMismatch = errors.New("verification failed")

// entry is one entry's digest and size.
type entry struct {
	digest string
	size   int64
}

// side reads and writes one store kind on one side.
type kind interface {
	// entries lists src's (from=true) or dst's entries with digests.
	entries(ctx context.Context, from bool) (map[string]entry, error)
	// copy copies one entry from src to dst; replace is set when dst
	// holds other content under it.
	copy(ctx context.Context, key string, replace bool) error
}

// ordered is a kind whose entries are copied one at a time, in key order.
type ordered interface{ sequential() }

// open returns the copier of s between src and dst.
func open(s Store, src, dst Side) (kind, error) {
	switch s.Kind {
	case KindQueue:
		if src.Queues == nil || dst.Queues == nil {
			return nil, errNoQueues
		}
		return &queueKind{name: s.Name, src: src.Queues, dst: dst.Queues}, nil
	case KindObjects:
		if src.Objects == nil || dst.Objects == nil {
			return nil, errNoObjects
		}
		return &objectsKind{class: s.Name, src: src.Objects, dst: dst.Objects}, nil
	case KindD1:
		a, b, err := both(s.Name, src, dst, Stores.D1)
		return &d1Kind{src: a, dst: b}, err
	case KindKV:
		a, b, err := both(s.Name, src, dst, Stores.KV)
		return &kvKind{src: a, dst: b}, err
	case KindR2:
		a, b, err := both(s.Name, src, dst, Stores.R2)
		return &r2Kind{src: a, dst: b}, err
	}
	return nil, fmt.Errorf("migrate: unknown store kind %q", s.Kind)
}

// both opens the store name on each side with get.
func both[T any](name string, src, dst Side, get func(Stores, string) (T, error)) (a, b T, err error) {
	if a, err = get(src.Stores, name); err != nil {
		return a, b, err
	}
	b, err = get(dst.Stores, name)
	return a, b, err
}

// planned is one store's comparison.
type planned struct {
	Result
	k             kind
	copy, replace []string
	src           map[string]entry
	conflicts     []string
}

// Run copies stores from src to dst. It compares every store first and,
// when any holds conflicts and o.Replace is not set, returns ErrConflict
// naming them without writing anything; with o.DryRun it returns the
// comparison. It then copies, and verifies every store it copied into.
func Run(ctx context.Context, src, dst Side, stores []Store, o Options) ([]Result, error) {
	plans := make([]*planned, 0, len(stores))
	var conflicts []string
	for _, s := range stores {
		start := time.Now()
		p, err := plan(ctx, s, src, dst)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", s, err)
		}
		p.Took = time.Since(start)
		plans = append(plans, p)
		for _, c := range p.conflicts {
			conflicts = append(conflicts, s.String()+": "+c)
		}
	}
	results := func() []Result {
		out := make([]Result, len(plans))
		for i, p := range plans {
			out[i] = p.Result
		}
		return out
	}
	if len(conflicts) > 0 && !o.Replace {
		return results(), fmt.Errorf("%w: %s; pass --replace to overwrite it", ErrConflict, list(conflicts, 5))
	}
	if o.DryRun {
		return results(), nil
	}
	for _, p := range plans {
		start := time.Now()
		if err := p.copyAll(ctx, o); err != nil {
			return results(), err
		}
		got, err := p.k.entries(ctx, false)
		if err != nil {
			return results(), fmt.Errorf("%s: verify: %w", p.Store, err)
		}
		var bad []string
		for key, e := range p.src {
			if got[key] != e {
				bad = append(bad, label(key))
			}
		}
		if len(bad) > 0 {
			sort.Strings(bad)
			return results(), fmt.Errorf("%w: %s: %s differ after the copy", ErrMismatch, p.Store, list(bad, 5))
		}
		p.Verified = true
		if n, ok := p.k.(interface{ newETags() []string }); ok {
			p.NewETags = n.newETags()
		}
		p.Took += time.Since(start)
	}
	return results(), nil
}

// copyAll copies the planned entries, o.Parallel at a time; the first
// failure stops it.
func (p *planned) copyAll(ctx context.Context, o Options) error {
	total := len(p.copy) + len(p.replace)
	var mu sync.Mutex
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(max(o.Parallel, 1))
	if _, ok := p.k.(ordered); ok {
		g.SetLimit(1)
	}
	for _, set := range []struct {
		keys    []string
		replace bool
	}{{p.copy, false}, {p.replace, true}} {
		for _, key := range set.keys {
			g.Go(func() error {
				if err := p.k.copy(gctx, key, set.replace); err != nil {
					return fmt.Errorf("%s: copy %s: %w", p.Store, label(key), err)
				}
				mu.Lock()
				defer mu.Unlock()
				if set.replace {
					p.Replaced++
				} else {
					p.Copied++
				}
				if o.Progress != nil {
					o.Progress(p.Store, p.Copied+p.Replaced, total)
				}
				return nil
			})
		}
	}
	return g.Wait()
}

// plan compares one store's two sides.
func plan(ctx context.Context, s Store, src, dst Side) (*planned, error) {
	k, err := open(s, src, dst)
	if err != nil {
		return nil, err
	}
	from, err := k.entries(ctx, true)
	if err != nil {
		return nil, fmt.Errorf("read the source: %w", err)
	}
	to, err := k.entries(ctx, false)
	if err != nil {
		return nil, fmt.Errorf("read the destination: %w", err)
	}
	p := &planned{Result: Result{Store: s}, k: k, src: from}
	keys := make([]string, 0, len(from))
	for key := range from {
		keys = append(keys, key)
	}
	sort.Strings(keys)
	for _, key := range keys {
		e := from[key]
		p.Entries++
		p.Bytes += e.size
		switch have, ok := to[key]; {
		case !ok:
			p.copy = append(p.copy, key)
		case have == e:
			p.Skipped++
		default:
			p.replace = append(p.replace, key)
			p.conflicts = append(p.conflicts, label(key))
			p.Conflicts++
		}
	}
	return p, nil
}

// label names an entry in messages: a database's one entry is "", an
// object's key its id.
func label(key string) string {
	if key == "" {
		return "the database"
	}
	return fmt.Sprintf("%q", key)
}

// list joins up to n items and says how many more there are.
func list(items []string, n int) string {
	if len(items) <= n {
		return strings.Join(items, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(items[:n], ", "), len(items)-n)
}
