package coordfleet

import (
	"context"
	"fmt"
	"time"

	"github.com/dwk/fleet/appliance/fleet/coord"
	"github.com/dwk/fleet/appliance/fleet/coord/tuple"
	"github.com/dwk/fleet/appliance/fleet/lapse"
	"github.com/dwk/fleet/appliance/fleet/lease"
	"github.com/dwk/fleet/appliance/fleet/membership"
	"github.com/dwk/fleet/caddy/internal/leasecache"
)

// Leases reads lease holders through a Conn, judging each lease by its
// holder's liveness (lease.Liveness).
type Leases struct {
	conn *Conn
	live *lease.Liveness
}

// liveCacheFor is how long a member's live liveness record is trusted by
// batched lookups; the lease-holder cache above it adds its own lifetime.
const liveCacheFor = 250 * time.Millisecond

var (
	_ leasecache.Lookup = Leases{}
	_ lapse.Holders     = Leases{}
)

// NewLeases returns a lease lookup over conn.
func NewLeases(conn *Conn) Leases {
	return Leases{conn: conn, live: lease.NewLiveness(liveCacheFor, nil)}
}

// Holders reads the leases of keys in one round trip, and the liveness
// of their holders not cached in one more. A lease key is ("lease",
// namespace, hex id), as the lease manager writes it. An absent, ended or
// unreadable record counts as no holder ("").
func (l Leases) Holders(ctx context.Context, keys []leasecache.Key) ([]string, error) {
	st, err := l.conn.Store(ctx)
	if err != nil {
		return nil, err
	}
	tk := make([]tuple.Key, len(keys))
	for i, k := range keys {
		tk[i] = lease.KeyFor(k.Namespace, k.ID.String())
	}
	es, err := st.GetMany(ctx, tk)
	if err != nil {
		return nil, fmt.Errorf("look up %d leases: %w", len(keys), err)
	}
	rs, err := l.live.Resolve(ctx, st, es, false)
	if err != nil {
		return nil, fmt.Errorf("look up %d leases: %w", len(keys), err)
	}
	out := make([]string, len(keys))
	for i, r := range rs {
		if r.Err != nil {
			l.conn.log.Warn("ignoring unreadable lease record", "key", fmt.Sprint(es[i].Key), "err", r.Err)
			continue
		}
		if r.Live {
			out[i] = r.Record.Holder
		}
	}
	return out, nil
}

// Holder reads the lease of object id (hex) of class now, and its
// holder's liveness unless known to have ended: "" when no live record
// names a holder.
func (l Leases) Holder(ctx context.Context, class, id string) (string, error) {
	st, err := l.conn.Store(ctx)
	if err != nil {
		return "", err
	}
	e, err := st.Get(ctx, lease.KeyFor(class, id))
	if err != nil {
		return "", fmt.Errorf("look up lease %s/%s: %w", class, id, err)
	}
	rs, err := l.live.Resolve(ctx, st, []coord.Entry{e}, true)
	if err != nil {
		return "", fmt.Errorf("look up lease %s/%s: %w", class, id, err)
	}
	if rs[0].Err != nil {
		return "", fmt.Errorf("look up lease %s/%s: %w", class, id, rs[0].Err)
	}
	if !rs[0].Live {
		return "", nil
	}
	return rs[0].Record.Holder, nil
}

// Alive reports whether member has a live member record now that is not
// deposed, in one round trip.
func (l Leases) Alive(ctx context.Context, member string) (bool, error) {
	st, err := l.conn.Store(ctx)
	if err != nil {
		return false, err
	}
	return membership.NewRegistry(st, l.conn.log).Answers(ctx, member)
}
