package coordfleet

import (
	"context"
	"fmt"

	"github.com/dwk/fleet/appliance/fleet/coord/tuple"
	"github.com/dwk/fleet/appliance/fleet/lapse"
	"github.com/dwk/fleet/appliance/fleet/lease"
	"github.com/dwk/fleet/appliance/fleet/membership"
	"github.com/dwk/fleet/caddy/internal/leasecache"
)

// Leases reads lease holders through a Conn.
type Leases struct {
	conn *Conn
}

var (
	_ leasecache.Lookup = Leases{}
	_ lapse.Holders     = Leases{}
)

// NewLeases returns a lease lookup over conn.
func NewLeases(conn *Conn) Leases { return Leases{conn: conn} }

// Holders reads the leases of keys in one round trip. A lease key is
// ("lease", namespace, hex id), as the lease manager writes it. An absent,
// expired or unreadable record counts as no holder ("").
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
	out := make([]string, len(keys))
	for i, e := range es {
		if !e.Exists() {
			continue
		}
		rec, err := lease.DecodeRecord(e.Value)
		if err != nil {
			l.conn.log.Warn("ignoring unreadable lease record", "key", fmt.Sprint(e.Key), "err", err)
			continue
		}
		out[i] = rec.Holder
	}
	return out, nil
}

// Holder reads the lease of object id (hex) of class now, in one round
// trip: "" when no live record names a holder.
func (l Leases) Holder(ctx context.Context, class, id string) (string, error) {
	st, err := l.conn.Store(ctx)
	if err != nil {
		return "", err
	}
	e, err := st.Get(ctx, lease.KeyFor(class, id))
	if err != nil {
		return "", fmt.Errorf("look up lease %s/%s: %w", class, id, err)
	}
	if !e.Exists() {
		return "", nil
	}
	rec, err := lease.DecodeRecord(e.Value)
	if err != nil {
		return "", fmt.Errorf("look up lease %s/%s: %w", class, id, err)
	}
	return rec.Holder, nil
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
