package dwkaffinity

import (
	"sync"

	"github.com/dwk/fleet/appliance/fleet/objectid"
)

// idCacheSize bounds the object ids the policy remembers. An id is two
// HMAC-SHA256 (about 2µs); a hit is a map read.
const idCacheSize = 8192

// idKey is an object's namespace and name.
type idKey struct{ ns, name string }

// ids remembers object ids by namespace and name. When full it starts
// over, which keeps it bounded without bookkeeping per hit.
type ids struct {
	mu sync.RWMutex
	m  map[idKey]objectid.ID
}

// get returns the id of name in ns, derived with secret. A nil cache
// derives every time.
func (c *ids) get(secret []byte, ns, name string) objectid.ID {
	if c == nil {
		return objectid.FromName(secret, ns, name)
	}
	k := idKey{ns, name}
	c.mu.RLock()
	id, ok := c.m[k]
	c.mu.RUnlock()
	if ok {
		return id
	}
	id = objectid.FromName(secret, ns, name)
	c.mu.Lock()
	if c.m == nil || len(c.m) >= idCacheSize {
		c.m = make(map[idKey]objectid.ID, idCacheSize/8)
	}
	c.m[k] = id
	c.mu.Unlock()
	return id
}
