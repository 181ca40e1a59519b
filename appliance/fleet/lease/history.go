package lease

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/dwk/fleet/appliance/fleet/coord"
	"github.com/dwk/fleet/appliance/fleet/coord/tuple"
)

// History bounds. Each Acquire writes its tenure in the same atomic
// operation as the lease, and deletes the tenure HistoryLen epochs older,
// so an object keeps at most HistoryLen tenures, none older than
// HistoryTTL.
const (
	// HistoryLen is how many recent tenures an object keeps.
	HistoryLen = 16
	// HistoryTTL is how long a tenure record outlives its acquisition, by
	// the libSQL server's clock.
	HistoryTTL = 24 * time.Hour
)

// Tenure is one acquisition of an object's lease: who took it, at which
// epoch, and when. A tenure ends when the next one starts, or when the
// lease is released or expires.
type Tenure struct {
	// Epoch is the tenure's fencing token.
	Epoch int64 `json:"epoch"`
	// Holder is the member id that acquired the lease.
	Holder string `json:"holder"`
	// Addr is the holder's internal address.
	Addr string `json:"addr"`
	// Acquired is when the holder sent the acquire, by its own clock.
	Acquired time.Time `json:"acquired"`
}

// HistoryKeyFor is the coordination key of the tenure at epoch of object
// id of class: ("leasehistory", class, id, epoch).
func HistoryKeyFor(class, id string, epoch int64) tuple.Key {
	return tuple.Key{"leasehistory", class, id, epoch}
}

// recordTenure adds the tenure of rec to a, and drops the tenure
// HistoryLen epochs older.
func recordTenure(a *coord.Atomic, class, id string, rec Record, at time.Time) *coord.Atomic {
	b, err := json.Marshal(Tenure{Epoch: rec.Epoch, Holder: rec.Holder, Addr: rec.Addr, Acquired: at.UTC()})
	if err != nil {
		// A struct of strings, an integer and a time always encodes.
		panic(fmt.Sprintf("lease: encode tenure: %v", err))
	}
	a = a.Set(HistoryKeyFor(class, id, rec.Epoch), b, HistoryTTL)
	if old := rec.Epoch - HistoryLen; old >= 1 {
		a = a.Delete(HistoryKeyFor(class, id, old))
	}
	return a
}

// History returns the recent tenures of object id of class, newest first
// (at most HistoryLen), in one round trip. Tenures written before history
// was recorded, or older than HistoryTTL, are absent.
func History(ctx context.Context, st *coord.Store, class, id string) ([]Tenure, error) {
	page, err := st.List(ctx, coord.Selector{Prefix: tuple.Key{"leasehistory", class, id}},
		coord.ListOptions{Limit: HistoryLen, Reverse: true})
	if err != nil {
		return nil, fmt.Errorf("lease history %s/%s: %w", class, id, err)
	}
	out := make([]Tenure, 0, len(page.Entries))
	for _, e := range page.Entries {
		var t Tenure
		if json.Unmarshal(e.Value, &t) == nil && t.Epoch >= 1 {
			out = append(out, t)
		}
	}
	return out, nil
}
