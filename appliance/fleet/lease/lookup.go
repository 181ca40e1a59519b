package lease

import (
	"context"
	"fmt"
	"time"

	"github.com/dwk/fleet/appliance/fleet/coord"
	"github.com/dwk/fleet/appliance/fleet/coord/tuple"
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
// reads the lease (one round trip) and, unless known, its holder's
// liveness (one more; each member's is cached for LookupCacheTTL). A
// cached answer may be stale by up to LookupCacheTTL: callers that act on
// it must tolerate a holder that has just changed (forwarding does: the
// old holder forwards once more or takes the object).
func (m *Manager) Lookup(ctx context.Context, class, id string) (Record, bool, error) {
	return m.lookup(ctx, class, id, false)
}

// Current is Lookup past every cache: it reads the lease and, unless it
// is known to have ended, its holder's liveness now.
func (m *Manager) Current(ctx context.Context, class, id string) (Record, bool, error) {
	return m.lookup(ctx, class, id, true)
}

func (m *Manager) lookup(ctx context.Context, class, id string, fresh bool) (Record, bool, error) {
	k, _, err := keyOf(class, id)
	if err != nil {
		return Record{}, false, err
	}
	if l := m.Held(class, id); l != nil {
		rec := l.rec
		rec.Expires = l.Deadline()
		return rec, true, nil
	}
	now := m.cfg.Clock.Now()
	m.mu.Lock()
	c, hit := m.cache[k]
	m.mu.Unlock()
	if hit && !fresh && now.Before(c.until) {
		return c.rec, c.ok, nil
	}
	e, err := m.cfg.Coord.Get(ctx, KeyFor(class, id))
	if err != nil {
		return Record{}, false, fmt.Errorf("look up lease %s/%s: %w", class, id, err)
	}
	rs, err := m.resolve(ctx, []coord.Entry{e}, fresh)
	if err != nil {
		return Record{}, false, fmt.Errorf("look up lease %s/%s: %w", class, id, err)
	}
	if rs[0].Err != nil {
		return Record{}, false, fmt.Errorf("look up lease %s/%s: %w", class, id, rs[0].Err)
	}
	if !rs[0].Live {
		m.remember(k, Record{}, false)
		return Record{}, false, nil
	}
	m.remember(k, rs[0].Record, true)
	if rs[0].Record.Holder != m.cfg.Member {
		// The answer rests on the holder's cached liveness: trust it no
		// longer than that, or the two caches would add up.
		m.trust(k, m.judge.trustedUntil(rs[0].Record.Holder))
	}
	return rs[0].Record, true, nil
}

// Resolve judges lease entries read from the coordination store: a record
// naming this member is live while this manager holds it; one naming
// another member, while that member's liveness epoch lives (read in one
// round trip for the members not cached, or with fresh for all that may
// be live).
func (m *Manager) Resolve(ctx context.Context, ents []coord.Entry, fresh bool) ([]Resolved, error) {
	return m.resolve(ctx, ents, fresh)
}

func (m *Manager) resolve(ctx context.Context, ents []coord.Entry, fresh bool) ([]Resolved, error) {
	others := make([]coord.Entry, len(ents))
	for i, e := range ents {
		if e.Exists() {
			if rec, err := DecodeRecord(e.Value); err == nil && rec.Holder == m.cfg.Member {
				continue // judged below, without a read
			}
		}
		others[i] = e
	}
	out, err := m.judge.Resolve(ctx, m.cfg.Coord, others, fresh)
	if err != nil {
		return nil, err
	}
	for i, e := range ents {
		if others[i].Exists() || !e.Exists() {
			continue
		}
		rec, _ := DecodeRecord(e.Value)
		live := false
		if class, id, ok := objectOf(e.Key); ok {
			l := m.Held(class, id)
			live = l != nil && l.rec.Epoch == rec.Epoch
		}
		out[i] = Resolved{Record: rec, Live: live}
	}
	return out, nil
}

// Invalidate drops the cached answer for the object, e.g. after its
// supposed holder could not be reached.
func (m *Manager) Invalidate(class, id string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	delete(m.cache, objKey{class: class, id: id})
}

// trust shortens the cached answer for k to until, if it lasts longer.
func (m *Manager) trust(k objKey, until time.Time) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if c, ok := m.cache[k]; ok && until.Before(c.until) {
		c.until = until
		m.cache[k] = c
	}
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

// objectOf names the object of lease key k (KeyFor).
func objectOf(k tuple.Key) (class, id string, ok bool) {
	if len(k) != 3 || k[0] != "lease" {
		return "", "", false
	}
	class, ok1 := k[1].(string)
	id, ok2 := k[2].(string)
	return class, id, ok1 && ok2
}
