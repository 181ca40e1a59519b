package dwkaffinity

import (
	"sync"
	"sync/atomic"

	"github.com/dwk/fleet/appliance/fleet/objectid"
	"github.com/dwk/fleet/caddy/internal/fleetview"
)

// idCacheSize bounds the object ids the policy remembers. An id is two
// HMAC-SHA256 (about 2µs); a hit is a map read.
const idCacheSize = 8192

// idKey is an object's namespace and name.
type idKey struct{ ns, name string }

// idEntry is a remembered object id and what is derived from it once: its
// text and its placement among the last member snapshot it was placed in
// (one SHA-256 per member).
type idEntry struct {
	id     objectid.ID
	text   string // id.String()
	placed atomic.Pointer[placement]
}

// placement is objectid.Pick of an id over the ids of members.
type placement struct {
	members *fleetview.Snapshot
	member  string
}

// pick returns objectid.Pick of e's id over the ids of members,
// remembered until members is replaced.
func (e *idEntry) pick(members *fleetview.Snapshot) string {
	if p := e.placed.Load(); p != nil && p.members == members {
		return p.member
	}
	m := objectid.Pick(e.id, members.IDs())
	e.placed.Store(&placement{members: members, member: m})
	return m
}

// ids remembers object ids by namespace and name. When full it starts
// over, which keeps it bounded without bookkeeping per hit.
type ids struct {
	mu sync.RWMutex
	m  map[idKey]*idEntry
}

// get returns the entry of name in ns, whose id is derived with secret. A
// nil cache derives a new entry every time.
func (c *ids) get(secret []byte, ns, name string) *idEntry {
	if c == nil {
		return newEntry(objectid.FromName(secret, ns, name))
	}
	k := idKey{ns, name}
	c.mu.RLock()
	e, ok := c.m[k]
	c.mu.RUnlock()
	if ok {
		return e
	}
	e = newEntry(objectid.FromName(secret, ns, name))
	c.mu.Lock()
	if c.m == nil || len(c.m) >= idCacheSize {
		c.m = make(map[idKey]*idEntry, idCacheSize/8)
	}
	c.m[k] = e
	c.mu.Unlock()
	return e
}

func newEntry(id objectid.ID) *idEntry { return &idEntry{id: id, text: id.String()} }
