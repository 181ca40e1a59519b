package lease

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"time"

	"github.com/dwk/fleet/appliance/fleet/coord"
	"github.com/dwk/fleet/appliance/fleet/coord/tuple"
	"github.com/dwk/fleet/appliance/process/clock"
)

// LiveKeyFor is the coordination key of member's liveness record: JSON
// {"epoch": n}, expiring TTL after the member's last heartbeat.
func LiveKeyFor(member string) tuple.Key { return tuple.Key{"live", member} }

// LiveEpochKeyFor is the counter of member's liveness epochs: a u64 that
// never expires and is bumped each time the member starts a liveness
// record, so an epoch that lapsed never comes back.
func LiveEpochKeyFor(member string) tuple.Key { return tuple.Key{"liveepoch", member} }

// liveRecord is the value of a liveness key.
type liveRecord struct {
	Epoch int64 `json:"epoch"`
}

func (r liveRecord) encode() []byte {
	b, err := json.Marshal(r)
	if err != nil {
		panic(fmt.Sprintf("lease: encode liveness: %v", err))
	}
	return b
}

// decodeLive parses a liveness entry: its epoch, or 0 when the entry is
// absent (expired) or unreadable.
func decodeLive(e coord.Entry) int64 {
	if !e.Exists() {
		return 0
	}
	var r liveRecord
	if json.Unmarshal(e.Value, &r) != nil || r.Epoch < 1 {
		return 0
	}
	return r.Epoch
}

// Resolved is a lease entry read from the coordination store, judged
// against its holder's liveness.
type Resolved struct {
	// Record is the decoded record; zero when the key is absent.
	Record Record
	// Live is true when the record's holder has a live liveness record of
	// the record's liveness epoch: the lease is held.
	Live bool
	// Err is set when the key holds a value that is not a lease record.
	Err error
}

// Liveness judges lease records by their holders' liveness records. It
// caches a member's live record for a while (a live answer may be stale by
// that much) and remembers dead epochs for good: an epoch that lapsed
// never lives again. It is safe for concurrent use.
type Liveness struct {
	cacheFor time.Duration
	clock    clock.Clock

	mu   sync.Mutex
	seen map[string]liveSeen
}

// liveSeen is what is known of one member's liveness.
type liveSeen struct {
	epoch   int64     // the live epoch last read; 0 if none
	expires time.Time // its expiry by the server's clock, as read
	until   time.Time // local time until which epoch counts as current
	deadTo  int64     // every epoch up to this one has lapsed
}

// maxLiveSeen bounds the members remembered; past it, the memory is
// cleared (members are few: this only guards against a flood of names).
const maxLiveSeen = 4096

// NewLiveness returns a judge that caches live records for cacheFor (0:
// it reads them on every Resolve).
func NewLiveness(cacheFor time.Duration, c clock.Clock) *Liveness {
	if c == nil {
		c = clock.System{}
	}
	return &Liveness{cacheFor: cacheFor, clock: c, seen: map[string]liveSeen{}}
}

// Resolve decodes lease entries and judges each against its holder's
// liveness, reading the liveness records it does not know (or, with
// fresh, every one that may be live) in one round trip through st.
func (v *Liveness) Resolve(ctx context.Context, st *coord.Store, ents []coord.Entry, fresh bool) ([]Resolved, error) {
	out := make([]Resolved, len(ents))
	need := map[string]int64{} // member → the highest liveness epoch its records name
	now := v.clock.Now()
	for i, e := range ents {
		if !e.Exists() {
			continue
		}
		rec, err := DecodeRecord(e.Value)
		if err != nil {
			out[i].Err = err
			continue
		}
		out[i].Record = rec
		if _, known := v.judge(rec, now, fresh); !known {
			need[rec.Holder] = max(need[rec.Holder], rec.Live)
		}
	}
	if len(need) > 0 {
		members := make([]string, 0, len(need))
		keys := make([]tuple.Key, 0, len(need))
		for m := range need {
			members = append(members, m)
			keys = append(keys, LiveKeyFor(m))
		}
		got, err := st.GetMany(ctx, keys)
		if err != nil {
			return nil, fmt.Errorf("read liveness of %d members: %w", len(keys), err)
		}
		for i, m := range members {
			v.note(m, decodeLive(got[i]), got[i].Expires, now, need[m])
		}
	}
	for i := range out {
		if out[i].Err == nil && out[i].Record.Holder != "" {
			live := v.current(out[i].Record)
			out[i].Live = live
			if live {
				out[i].Record.Expires = v.expires(out[i].Record.Holder)
			}
		}
	}
	return out, nil
}

// judge tells whether rec is live from what is known, and whether that
// is known without a read (a dead epoch always is; a live one while
// cached, unless fresh).
func (v *Liveness) judge(rec Record, now time.Time, fresh bool) (live, known bool) {
	v.mu.Lock()
	defer v.mu.Unlock()
	s := v.seen[rec.Holder]
	switch {
	case rec.Live <= s.deadTo:
		return false, true
	case fresh || !now.Before(s.until) || rec.Live > s.epoch:
		// Not cached, or an epoch that began after the cached read.
		return false, false
	default:
		return rec.Live == s.epoch, true
	}
}

// current tells whether rec is live by what was last read, however long
// ago.
func (v *Liveness) current(rec Record) bool {
	v.mu.Lock()
	defer v.mu.Unlock()
	s := v.seen[rec.Holder]
	return rec.Live > s.deadTo && rec.Live == s.epoch
}

// note records that member's live epoch, as just read, is epoch (0:
// none), after records naming epochs up to named were read: every earlier
// epoch has lapsed and, when none is live, so has every epoch named (it
// began before the records were written, and a lapsed epoch never lives
// again).
func (v *Liveness) note(member string, epoch int64, expires, now time.Time, named int64) {
	v.mu.Lock()
	defer v.mu.Unlock()
	if len(v.seen) >= maxLiveSeen {
		clear(v.seen)
	}
	s := v.seen[member]
	if epoch > 0 {
		s.deadTo = max(s.deadTo, epoch-1)
	} else {
		s.deadTo = max(s.deadTo, s.epoch, named)
	}
	s.epoch, s.expires, s.until = epoch, expires, now.Add(v.cacheFor)
	v.seen[member] = s
}

// trustedUntil is the local time until which member's live record, as
// last read, is trusted without reading it again.
func (v *Liveness) trustedUntil(member string) time.Time {
	v.mu.Lock()
	defer v.mu.Unlock()
	return v.seen[member].until
}

// expires is the expiry of member's live record, as last read.
func (v *Liveness) expires(member string) time.Time {
	v.mu.Lock()
	defer v.mu.Unlock()
	return v.seen[member].expires
}

// Forget drops what is cached of member's live record (dead epochs stay
// dead), e.g. after it could not be reached.
func (v *Liveness) Forget(member string) {
	v.mu.Lock()
	defer v.mu.Unlock()
	if s, ok := v.seen[member]; ok {
		s.until = time.Time{}
		v.seen[member] = s
	}
}
