package backup

import (
	"cmp"
	"context"
	"slices"
	"strings"
	"time"
)

// generation is one generation of a namespace as listed in the bucket.
type generation struct {
	name     string
	start    time.Time
	snapshot bool
	segments []segment // by seq
	keys     []string  // every object of the generation
}

type segment struct {
	key string
	segInfo
}

// history is everything the bucket holds about one namespace.
type history struct {
	gens      []*generation // by start
	deletions []time.Time   // sorted
	markers   []string      // deletion marker keys, by time
}

// readHistory lists namespace name's objects.
func (s *store) readHistory(ctx context.Context, name string) (history, error) {
	keys, _, err := s.list(ctx, name+"/", "")
	if err != nil {
		return history{}, err
	}
	var h history
	byName := map[string]*generation{}
	for _, k := range keys {
		rest := strings.TrimPrefix(k, name+"/")
		if d, ok := strings.CutPrefix(rest, deletedPrefix); ok {
			if t, ok := parseTimeName(d); ok {
				h.deletions = append(h.deletions, t)
				h.markers = append(h.markers, k)
			}
			continue
		}
		g, obj, ok := strings.Cut(rest, "/")
		start, okT := parseTimeName(g)
		if !ok || !okT {
			continue
		}
		gen := byName[g]
		if gen == nil {
			gen = &generation{name: g, start: start}
			byName[g] = gen
			h.gens = append(h.gens, gen)
		}
		gen.keys = append(gen.keys, k)
		switch {
		case obj == snapshotName:
			gen.snapshot = true
		case strings.HasPrefix(obj, walDir):
			if i, ok := parseSegmentName(obj); ok {
				gen.segments = append(gen.segments, segment{key: k, segInfo: i})
			}
		}
	}
	slices.SortFunc(h.gens, func(a, b *generation) int { return a.start.Compare(b.start) })
	for _, g := range h.gens {
		// A segment uploaded twice (a retry after a timeout that had
		// succeeded) has one number and two extents from the same start:
		// the longer goes last.
		slices.SortFunc(g.segments, func(a, b segment) int {
			if c := cmp.Compare(a.seq, b.seq); c != 0 {
				return c
			}
			return cmp.Compare(a.frame, b.frame)
		})
	}
	idx := make([]int, len(h.deletions))
	for i := range idx {
		idx[i] = i
	}
	slices.SortFunc(idx, func(a, b int) int { return h.deletions[a].Compare(h.deletions[b]) })
	dels, marks := make([]time.Time, len(idx)), make([]string, len(idx))
	for i, j := range idx {
		dels[i], marks[i] = h.deletions[j], h.markers[j]
	}
	h.deletions, h.markers = dels, marks
	return h, nil
}

// at returns the generation to restore for time t, or nil when the
// namespace did not exist then (never created, or deleted).
func (h history) at(t time.Time) *generation {
	var g *generation
	for _, x := range h.gens {
		if x.snapshot && !x.start.After(t) {
			g = x
		}
	}
	if g == nil {
		return nil
	}
	for _, d := range h.deletions {
		if d.After(g.start) && !d.After(t) {
			return nil
		}
	}
	return g
}

// expired returns the keys retention lets go at cutoff: generations older
// than the newest complete one that began by cutoff (which a restore to
// cutoff still needs), deletion markers older than that one, and
// everything of a namespace deleted before cutoff and not re-created.
func (h history) expired(cutoff time.Time) []string {
	var keys []string
	if n := len(h.deletions); n > 0 && !h.deletions[n-1].After(cutoff) {
		last := h.deletions[n-1]
		recreated := false
		for _, g := range h.gens {
			if g.start.After(last) {
				recreated = true
			}
		}
		if !recreated {
			for _, g := range h.gens {
				keys = append(keys, g.keys...)
			}
			return append(keys, h.markers...)
		}
	}
	var base *generation
	for _, g := range h.gens {
		if g.snapshot && !g.start.After(cutoff) {
			base = g
		}
	}
	if base == nil {
		return nil
	}
	for _, g := range h.gens {
		if g.start.Before(base.start) {
			keys = append(keys, g.keys...)
		}
	}
	for i, d := range h.deletions {
		if d.Before(base.start) {
			keys = append(keys, h.markers[i])
		}
	}
	return keys
}

// pruneInterval is how often the whole bucket is swept for expired
// objects.
func pruneInterval(retention time.Duration) time.Duration {
	return min(max(retention/8, 10*time.Second), time.Hour)
}

// prune removes namespace name's expired objects.
func (r *Replicator) prune(ctx context.Context, name string) error {
	h, err := r.st.readHistory(ctx, name)
	if err != nil {
		return err
	}
	return r.st.remove(ctx, h.expired(r.now().Add(-r.cfg.Retention)))
}

// pruneAll prunes every namespace in the bucket, live or deleted.
func (r *Replicator) pruneAll(ctx context.Context) error {
	_, dirs, err := r.st.list(ctx, "", "/")
	if err != nil {
		return err
	}
	for _, d := range dirs {
		if err := r.prune(ctx, strings.TrimSuffix(d, "/")); err != nil {
			return err
		}
	}
	return nil
}
