package dwkupstreams

import (
	"context"
	"encoding/hex"

	"github.com/dwk/fleet/appliance/fleet/lapse"
	"github.com/dwk/fleet/appliance/fleet/membership"
	"github.com/dwk/fleet/appliance/fleet/objectid"
	"github.com/dwk/fleet/caddy/internal/fleetview"
	"github.com/dwk/fleet/caddy/internal/leasecache"
)

// lapses adapts a lapse.Watcher to fleetview.Lapses. What a watch reads
// goes into the lease cache, so the requests after a lapse are routed to
// the new holder (or by placement) without waiting for the cache's TTL.
type lapses struct{ w *lapse.Watcher }

var _ fleetview.Lapses = lapses{}

// newLapses returns the watcher over holders, members (the source's view)
// and cache.
func newLapses(holders lapse.Holders, members *membership.View, cache *leasecache.Cache) (lapses, error) {
	w, err := lapse.New(lapse.Config{
		Holders: holders,
		Live: func(member string) bool {
			_, ok := members.Get(member)
			return ok
		},
		Seen: func(class, id, holder string) {
			var oid objectid.ID
			if b, err := hex.DecodeString(id); err == nil && len(b) == len(oid) {
				copy(oid[:], b)
				cache.Put(leasecache.Key{Namespace: class, ID: oid}, holder)
			}
		},
	})
	return lapses{w}, err
}

// Watch implements fleetview.Lapses.
func (l lapses) Watch(ctx context.Context, namespace string, id objectid.ID, member string, lapsed func()) {
	l.w.Watch(ctx, namespace, id.String(), member, lapsed)
}
