package lease

import (
	"context"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/dwk/fleet/appliance/fleet/coord/tuple"
	"github.com/dwk/fleet/appliance/libsql/hranaclient"
)

// Manager acquires, keeps (by its heartbeat) and releases this replica's
// leases. Lifecycle: New (defaults, no side effects) → Open (validates,
// starts the heartbeat goroutine) → Drain (optional: no new leases) →
// Close (stops the heartbeat and hands back every held lease). While open it may be deposed and restored
// any number of times (Depose, Restore). It is safe for concurrent use.
type Manager struct {
	cfg    Config
	log    *slog.Logger
	client *hranaclient.Client

	// ctx bounds the heartbeat goroutine's round trips; cancelled by Close.
	ctx    context.Context
	cancel context.CancelFunc
	stop   chan struct{}
	done   chan struct{}

	liveKey []byte    // tuple encoding of LiveKeyFor(Member)
	judge   *Liveness // other members' liveness, cached LookupCacheTTL

	mu    sync.Mutex
	state mgrState
	live  liveState
	// starting is the liveness epoch start under way, if any: concurrent
	// Acquires wait for its outcome (each within its own context) rather
	// than start one after another.
	starting *liveStart
	held     map[objKey]*Lease
	cache    map[objKey]cached
}

type mgrState uint8

const (
	mgrNew mgrState = iota
	mgrOpen
	mgrDraining
	mgrClosed
	// mgrDeposed: the fleet's other members cannot reach this replica, so
	// it holds and takes no leases until Restore (see Depose).
	mgrDeposed
)

// objKey names one object's lease.
type objKey struct{ class, id string }

// keyOf checks that the object's lease key encodes and returns it with its
// encoding.
func keyOf(class, id string) (objKey, []byte, error) {
	b, err := tuple.Encode(KeyFor(class, id))
	if err != nil {
		return objKey{}, nil, fmt.Errorf("lease key %s/%s: %w", class, id, err)
	}
	return objKey{class: class, id: id}, b, nil
}

// New returns a manager for cfg with defaults filled in. It does nothing
// else; call Open.
func New(cfg Config) *Manager {
	cfg = cfg.withDefaults()
	m := &Manager{
		cfg:   cfg,
		log:   cfg.Logger.With("component", "lease", "member", cfg.Member),
		stop:  make(chan struct{}),
		done:  make(chan struct{}),
		held:  map[objKey]*Lease{},
		cache: map[objKey]cached{},
	}
	if cfg.Coord != nil {
		m.client = cfg.Coord.Client()
	}
	m.liveKey, _ = tuple.Encode(LiveKeyFor(cfg.Member)) // a string key always encodes
	m.judge = NewLiveness(max(cfg.LookupCacheTTL, 0), cfg.Clock)
	return m
}

// Open validates the configuration and starts the heartbeat (which beats
// once the first Acquire has started a liveness epoch).
func (m *Manager) Open(ctx context.Context) error {
	if err := m.cfg.Validate(); err != nil {
		return err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.state != mgrNew {
		return fmt.Errorf("lease: open: manager already opened")
	}
	m.state = mgrOpen
	m.ctx, m.cancel = context.WithCancel(context.WithoutCancel(ctx))
	go m.renewLoop()
	return nil
}

// Config is the manager's configuration, defaults filled in.
func (m *Manager) Config() Config { return m.cfg }

// Drain stops taking new leases: Acquire fails with ErrDraining from now
// on. Held leases stay held and renewed until released or Close.
func (m *Manager) Drain() {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.state == mgrOpen || m.state == mgrDeposed {
		m.state = mgrDraining
	}
}

// Draining reports whether the manager refuses new leases (draining,
// deposed or closed).
func (m *Manager) Draining() bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.state != mgrOpen
}

// Held returns the lease of the object if this manager holds it and it is
// fresh, else nil. It costs no round trip.
func (m *Manager) Held(class, id string) *Lease {
	m.mu.Lock()
	l := m.held[objKey{class: class, id: id}]
	m.mu.Unlock()
	if l == nil || !l.Fresh() {
		return nil
	}
	return l
}

// Count is the number of leases held.
func (m *Manager) Count() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.held)
}

// Close stops taking leases, stops the heartbeat and hands every held
// lease back by deleting this member's liveness record (one round trip
// whatever their number), bounded by ctx; if that fails, the record, and
// so every lease, lapses after the TTL. Their contexts are cancelled
// either way. Close is idempotent.
func (m *Manager) Close(ctx context.Context) error {
	m.mu.Lock()
	prev := m.state
	m.state = mgrClosed
	m.mu.Unlock()
	if prev == mgrClosed {
		return nil
	}
	var first error
	if prev != mgrNew {
		close(m.stop)
		m.cancel()
		select {
		case <-m.done:
		case <-ctx.Done():
			first = fmt.Errorf("lease: close: heartbeat still running: %w", ctx.Err())
		}
	}
	m.mu.Lock()
	ls := m.live
	m.mu.Unlock()
	m.endEpoch(ls.epoch, leaseReleased, "handed back as the replica closes")
	if err := m.dropLive(ctx, ls); err != nil && first == nil {
		first = fmt.Errorf("lease: close: %w", err)
	}
	return first
}

// end moves a held lease to state (lost or released), drops it from the
// held set and cancels its context with ErrLost or ErrReleased, saying
// why. It reports whether the lease was held.
func (m *Manager) end(l *Lease, state leaseState, why string) bool {
	m.mu.Lock()
	if l.state != leaseHeld {
		m.mu.Unlock()
		return false
	}
	l.state = state
	k := l.key
	if m.held[k] == l {
		delete(m.held, k)
	}
	delete(m.cache, k)
	n := len(m.held)
	m.mu.Unlock()
	if state == leaseLost {
		// Context first: whoever sees Lost closed finds it done.
		l.cancel(fmt.Errorf("%w: %s", ErrLost, why))
		close(l.lost)
		if m.cfg.Metrics != nil {
			m.cfg.Metrics.LeasesLost.Inc()
		}
	} else {
		l.cancel(fmt.Errorf("%w: %s", ErrReleased, why))
	}
	if m.cfg.Metrics != nil {
		m.cfg.Metrics.LeasesHeld.Set(float64(n))
	}
	return true
}

// adopt records a lease just written with record rec (stored as value)
// by a request sent at sent.
func (m *Manager) adopt(k objKey, encoded []byte, rec Record, value []byte, sent time.Time) (*Lease, error) {
	ctx, cancel := context.WithCancelCause(context.Background())
	l := &Lease{
		m: m, key: k, encoded: encoded, rec: rec, value: value,
		ctx: ctx, cancel: cancel, lost: make(chan struct{}),
	}
	now := m.cfg.Clock.Now()
	m.mu.Lock()
	current := m.live.epoch == rec.Live && now.Before(m.live.deadline)
	open := m.state == mgrOpen
	if !current {
		m.mu.Unlock()
		// The liveness epoch the lease was written under ended while the
		// acquire was in flight: the lease ended with it.
		return nil, fmt.Errorf("lease %s/%s: its liveness epoch %d ended during the acquire (%s round trip): %w",
			k.class, k.id, rec.Live, now.Sub(sent), ErrLost)
	}
	var stale *Lease
	if open {
		// A lease of k still in the map was overwritten by this one (two
		// Acquires raced): it is no longer ours.
		stale = m.held[k]
		m.held[k] = l
		m.cache[k] = cached{rec: rec, ok: true, until: m.cfg.Clock.Now().Add(m.cfg.LookupCacheTTL)}
	}
	n := len(m.held)
	m.mu.Unlock()
	if stale != nil {
		m.end(stale, leaseLost, "a second acquire of this replica took it over")
	}
	if !open {
		// Drain or Close began while the acquire was in flight: hand the
		// lease straight back.
		rctx, cancel := context.WithTimeout(context.Background(), m.cfg.TTL)
		defer cancel()
		if err := l.Release(rctx); err != nil {
			m.log.Warn("release lease acquired while draining", "class", k.class, "id", k.id, "err", err)
		}
		return nil, ErrDraining
	}
	if m.cfg.Metrics != nil {
		m.cfg.Metrics.LeaseAcquisitions.Inc()
		m.cfg.Metrics.LeasesHeld.Set(float64(n))
	}
	return l, nil
}
