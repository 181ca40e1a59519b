package objcentral

import "sync/atomic"

// Stats counts what a Store's local replicas did since the store was
// made. Every field only grows, except CacheBytes and CommitStreams.
type Stats struct {
	// OpensCurrent counts opens whose local copy was current: no page was
	// fetched.
	OpensCurrent int64
	// OpensIncremental counts opens that fetched only the pages written
	// since the local copy's version.
	OpensIncremental int64
	// OpensFull counts opens that fetched every page: no trusted copy.
	OpensFull int64
	// PagesFetched counts pages fetched by opens.
	PagesFetched int64
	// Commits counts round trips that committed writes at a primary.
	Commits int64
	// PagesCommitted counts pages those commits shipped.
	PagesCommitted int64
	// CommitFailures counts commits that failed (fenced, outage); each
	// left a copy stale.
	CommitFailures int64
	// CacheBytes is the size of the copies on disk now.
	CacheBytes int64
	// CommitStreams is how many held objects have a commit stream (a
	// WebSocket to their primary) open now.
	CommitStreams int64
}

// counters are a Store's Stats as it updates them.
type counters struct {
	opensCurrent, opensIncremental, opensFull, pagesFetched atomic.Int64
	commits, pagesCommitted, commitFailures                 atomic.Int64
}

// Stats returns the store's counters.
func (s *Store) Stats() Stats {
	c := s.counters
	st := Stats{
		OpensCurrent: c.opensCurrent.Load(), OpensIncremental: c.opensIncremental.Load(), OpensFull: c.opensFull.Load(),
		PagesFetched: c.pagesFetched.Load(), Commits: c.commits.Load(), PagesCommitted: c.pagesCommitted.Load(),
		CommitFailures: c.commitFailures.Load(), CacheBytes: s.cache.bytes(),
	}
	if s.streams != nil {
		st.CommitStreams = int64(s.streams.InUse())
	}
	return st
}

// countOpen records how an open synced its copy.
func (c *counters) countOpen(local *copyMeta, h head, pages int) {
	switch {
	case current(local, h):
		c.opensCurrent.Add(1)
	case local != nil && local.Gen == h.gen && local.Version <= h.version:
		c.opensIncremental.Add(1)
	default:
		c.opensFull.Add(1)
	}
	c.pagesFetched.Add(int64(pages))
}
