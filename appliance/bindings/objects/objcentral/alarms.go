package objcentral

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/dwk/fleet/appliance/bindings/objects"
	"github.com/dwk/fleet/appliance/fleet/coord"
	"github.com/dwk/fleet/appliance/fleet/coord/tuple"
	"github.com/dwk/fleet/appliance/worker"
)

// Alarm keys in the coordination KV:
//
//	("alarm", "entry", class, id)       {"at_ms", "retries"}: the object's entry
//	("alarm", "due", at_ms, class, id)  {"retries"}: time-ordered index, one per entry
//	("alarm", "claim", class, id)       claimer token, expiring after the visibility timeout
//
// Put and Delete read the entry (one round trip) and rewrite entry, index
// key and claim in one atomic operation checked on the entry (one round
// trip). Due lists due index keys (one round trip); when some are due it
// reads their claims and leases (one round trip) and claims the ones this
// replica should run in one atomic operation (one round trip; one per
// entry only when that operation loses a race).
const (
	// DefaultVisibility is how long a claim hides an entry from other
	// replicas' Due.
	DefaultVisibility = 30 * time.Second
	// maxDueScan bounds the index keys one Due reads.
	maxDueScan = 256
	// putAttempts bounds Put and Delete retries after a lost race.
	putAttempts = 5
)

// AlarmConfig configures an AlarmIndex.
type AlarmConfig struct {
	// Coord is the coordination store. Required.
	Coord *coord.Store
	// Placer, when set, limits Due to entries this replica should run: of
	// objects whose lease it holds, or that have no live lease and that
	// placement would start here. Nil claims every due entry (a single
	// replica).
	Placer *Placer
	// Claimer names this replica in claims. Default: the placer's member
	// id, else "replica"; a random suffix makes it unique per index.
	Claimer string
	// Visibility is how long a claim lasts: if the claimer dies, the entry
	// comes back after it. It should exceed the longest alarm handler.
	// Default: 30s.
	Visibility time.Duration
}

// AlarmIndex is the central objects.AlarmIndex. It is safe for concurrent
// use and holds no goroutines.
type AlarmIndex struct {
	st         *coord.Store
	placer     *Placer
	claimer    []byte
	visibility time.Duration
	dueNanos   atomic.Int64 // moving average of how long Due takes
}

var (
	_ objects.AlarmIndex     = (*AlarmIndex)(nil)
	_ objects.AlarmLookahead = (*AlarmIndex)(nil)
)

// Lookahead implements objects.AlarmLookahead: twice what a Due that
// finds something has been taking (three round trips), so the runtime
// claims an alarm before its time and starts it on time.
func (x *AlarmIndex) Lookahead() time.Duration {
	return 2 * time.Duration(x.dueNanos.Load())
}

// noteDue folds the duration of one Due call into the moving average.
func (x *AlarmIndex) noteDue(d time.Duration) {
	avg := x.dueNanos.Load()
	if avg == 0 {
		avg = int64(d)
	}
	x.dueNanos.Store(avg + (int64(d)-avg)/4)
}

// NewAlarmIndex returns an index over cfg.Coord. It does no I/O.
func NewAlarmIndex(cfg AlarmConfig) (*AlarmIndex, error) {
	if cfg.Coord == nil {
		return nil, errors.New("objcentral alarm index: coordination store is required")
	}
	if cfg.Visibility < 0 {
		return nil, fmt.Errorf("objcentral alarm index: visibility %s is negative", cfg.Visibility)
	}
	if cfg.Visibility == 0 {
		cfg.Visibility = DefaultVisibility
	}
	if cfg.Claimer == "" {
		cfg.Claimer = "replica"
		if cfg.Placer != nil {
			cfg.Claimer = cfg.Placer.self().ID
		}
	}
	var nonce [6]byte
	rand.Read(nonce[:])
	return &AlarmIndex{
		st: cfg.Coord, placer: cfg.Placer, visibility: cfg.Visibility,
		claimer: []byte(cfg.Claimer + "/" + hex.EncodeToString(nonce[:])),
	}, nil
}

func entryKey(id worker.ObjectID) tuple.Key {
	return tuple.Key{"alarm", "entry", id.Namespace(), id.String()}
}

func dueKey(atMS int64, id worker.ObjectID) tuple.Key {
	return tuple.Key{"alarm", "due", atMS, id.Namespace(), id.String()}
}

func claimKey(id worker.ObjectID) tuple.Key {
	return tuple.Key{"alarm", "claim", id.Namespace(), id.String()}
}

type entryValue struct {
	AtMS    int64 `json:"at_ms"`
	Retries int   `json:"retries"`
}

type dueValue struct {
	Retries int `json:"retries"`
}

func mustJSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic(fmt.Sprintf("objcentral: encode %T: %v", v, err))
	}
	return b
}

// Put implements objects.AlarmIndex. It ends any claim on the object.
func (x *AlarmIndex) Put(ctx context.Context, e objects.AlarmEntry) error {
	at := e.At.UnixMilli()
	err := x.rewrite(ctx, e.Object, func(a *coord.Atomic) {
		a.Set(entryKey(e.Object), mustJSON(entryValue{AtMS: at, Retries: e.Retries}), 0).
			Set(dueKey(at, e.Object), mustJSON(dueValue{Retries: e.Retries}), 0)
	})
	if err != nil {
		return fmt.Errorf("alarm index put %s: %w", e.Object, err)
	}
	return nil
}

// Delete implements objects.AlarmIndex. It ends any claim on the object.
func (x *AlarmIndex) Delete(ctx context.Context, id worker.ObjectID) error {
	if err := x.rewrite(ctx, id, nil); err != nil {
		return fmt.Errorf("alarm index delete %s: %w", id, err)
	}
	return nil
}

// rewrite removes the object's entry, index key and claim and lets set add
// new ones, in one atomic operation checked on the entry.
func (x *AlarmIndex) rewrite(ctx context.Context, id worker.ObjectID, set func(*coord.Atomic)) error {
	for range putAttempts {
		cur, err := x.st.Get(ctx, entryKey(id))
		if err != nil {
			return err
		}
		if !cur.Exists() && set == nil {
			return nil
		}
		a := x.st.Atomic().Check(entryKey(id), cur.Versionstamp)
		if cur.Exists() {
			var old entryValue
			if err := json.Unmarshal(cur.Value, &old); err != nil {
				return fmt.Errorf("malformed entry %q: %w", cur.Value, err)
			}
			a.Delete(dueKey(old.AtMS, id))
		}
		a.Delete(entryKey(id)).Delete(claimKey(id))
		if set != nil {
			set(a)
		}
		res, err := a.Commit(ctx)
		if err != nil {
			return err
		}
		if res.OK {
			return nil
		}
	}
	return errors.New("entry changed concurrently too often")
}
