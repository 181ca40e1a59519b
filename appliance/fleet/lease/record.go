package lease

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/dwk/fleet/appliance/fleet/coord/tuple"
)

// Record is the value of a lease key.
type Record struct {
	// Holder is the member id of the replica holding the lease.
	Holder string `json:"holder"`
	// Addr is the holder's internal address (host:port), where other
	// replicas forward the object's requests.
	Addr string `json:"addr"`
	// Epoch is the fencing token of this tenure, at least 1.
	Epoch int64 `json:"epoch"`
	// Live is the holder's liveness epoch when it took the lease: the
	// lease is held while the holder's liveness record (LiveKeyFor) lives
	// with this epoch, and ends for good when that record lapses.
	Live int64 `json:"live"`
	// Expires is when the lease ends unless its holder's heartbeat goes
	// on: the expiry of the holder's liveness record by the libSQL
	// server's clock, as of the read that returned it (heartbeats move
	// it), or for a lease the reading manager holds, its local deadline;
	// zero when unknown. It is not part of the stored value.
	Expires time.Time `json:"-"`
}

// KeyFor is the coordination key of the lease of object id of class.
func KeyFor(class, id string) tuple.Key { return tuple.Key{"lease", class, id} }

// EpochKeyFor is the coordination key of the epoch counter of object id of
// class: a u64 that never expires.
func EpochKeyFor(class, id string) tuple.Key { return tuple.Key{"epoch", class, id} }

// encode returns the stored form of r. Renewal and release compare the
// stored bytes with it, so a holder keeps the exact bytes it wrote.
func (r Record) encode() []byte {
	b, err := json.Marshal(r)
	if err != nil {
		// A struct of strings and an integer always encodes.
		panic(fmt.Sprintf("lease: encode record: %v", err))
	}
	return b
}

// DecodeRecord parses the value of a lease key.
func DecodeRecord(value []byte) (Record, error) {
	var r Record
	if err := json.Unmarshal(value, &r); err != nil {
		return Record{}, fmt.Errorf("%w: %v", ErrCorrupt, err)
	}
	if r.Holder == "" || r.Epoch < 1 {
		return Record{}, fmt.Errorf("%w: %q", ErrCorrupt, value)
	}
	return r, nil
}
