package lease

import (
	"context"
	"fmt"
	"time"
)

// maxCached bounds the lookup cache; past it, expired answers are dropped
// and, if that is not enough, the whole cache.
const maxCached = 10000

// cached is one Lookup answer.
type cached struct {
	rec   Record
	ok    bool
	until time.Time
}

// Lookup returns the live lease of object id of class and whether there is
// one. It answers without a round trip for leases this manager holds and,
// for LookupCacheTTL, from the answers of earlier lookups; otherwise it
// reads the lease (one round trip). A cached answer may be stale by up to
// LookupCacheTTL: callers that act on it must tolerate a holder that has
// just changed (forwarding does: the old holder forwards once more or
// takes the object).
func (m *Manager) Lookup(ctx context.Context, class, id string) (Record, bool, error) {
	k, _, err := keyOf(class, id)
	if err != nil {
		return Record{}, false, err
	}
	if l := m.Held(class, id); l != nil {
		return l.rec, true, nil
	}
	now := m.cfg.Clock.Now()
	m.mu.Lock()
	c, hit := m.cache[k]
	m.mu.Unlock()
	if hit && now.Before(c.until) {
		return c.rec, c.ok, nil
	}
	e, err := m.cfg.Coord.Get(ctx, KeyFor(class, id))
	if err != nil {
		return Record{}, false, fmt.Errorf("look up lease %s/%s: %w", class, id, err)
	}
	if !e.Exists() {
		m.remember(k, Record{}, false)
		return Record{}, false, nil
	}
	rec, err := DecodeRecord(e.Value)
	if err != nil {
		return Record{}, false, fmt.Errorf("look up lease %s/%s: %w", class, id, err)
	}
	rec.Expires = e.Expires
	m.remember(k, rec, true)
	return rec, true, nil
}

// Invalidate drops the cached answer for the object, e.g. after its
// supposed holder could not be reached.
func (m *Manager) Invalidate(class, id string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	delete(m.cache, objKey{class: class, id: id})
}

// remember caches a lookup answer.
func (m *Manager) remember(k objKey, rec Record, ok bool) {
	if m.cfg.LookupCacheTTL < 0 {
		return
	}
	now := m.cfg.Clock.Now()
	m.mu.Lock()
	defer m.mu.Unlock()
	if len(m.cache) >= maxCached {
		for key, c := range m.cache {
			if !now.Before(c.until) {
				delete(m.cache, key)
			}
		}
		if len(m.cache) >= maxCached {
			clear(m.cache)
		}
	}
	m.cache[k] = cached{rec: rec, ok: ok, until: now.Add(m.cfg.LookupCacheTTL)}
}
