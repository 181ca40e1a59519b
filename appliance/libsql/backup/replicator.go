package backup

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"
)

// DataFile is the SQLite file in a namespace directory; its WAL is
// DataFile+"-wal".
const DataFile = "data"

// ErrGone reports a namespace that was deleted.
var ErrGone = errors.New("namespace is gone")

// Source is the server side of the backup: its namespaces and their write
// locks.
type Source interface {
	// Dir returns the directory of namespace name, or an error wrapping
	// ErrGone.
	Dir(name string) (string, error)
	// Locked runs fn while no connection can write to namespace name: it
	// holds SQLite's WAL write lock (an open BEGIN IMMEDIATE), so the WAL
	// is stable up to its last commit and nothing else checkpoints. The
	// connections it uses go back to the server's pool, bounded by its
	// idle budget. It returns an error wrapping ErrGone for a deleted
	// namespace.
	Locked(ctx context.Context, name string, fn func(Checkpointer) error) error
	// Names lists the namespaces.
	Names() []string
}

// Checkpointer checkpoints the namespace Locked holds.
type Checkpointer interface {
	// Checkpoint copies WAL frames into the database file without waiting
	// for readers (wal_checkpoint(PASSIVE) on a second connection) and
	// reports whether every frame was copied.
	Checkpoint() (complete bool, err error)
}

// Status is the backup's progress, for metrics and diagnosis.
type Status struct {
	// Lag is the age of the oldest change (commit, creation, deletion)
	// not yet in S3; 0 when everything is shipped.
	Lag time.Duration
	// Pending is the number of namespaces with changes not yet in S3.
	Pending int
	// LastSnapshot is when the latest snapshot was uploaded (zero: none
	// since start).
	LastSnapshot time.Time
	// LastUpload is when an upload last succeeded.
	LastUpload time.Time
	// Failures counts failed attempts to ship a namespace.
	Failures uint64
}

// Replicator ships every namespace's committed WAL frames to S3. Life
// cycle: New (no side effects) → Open (starts the shipping loop) →
// Changed/ConfigChanged/Deleted as the server works → Close (ships what
// is left, bounded by its context).
type Replicator struct {
	cfg Config
	st  *store
	src Source
	log *slog.Logger
	now func() time.Time

	mu       sync.Mutex
	dirty    map[string]time.Time // name → when its oldest unshipped change was noticed
	inflight map[string]time.Time // being shipped by the current cycle
	retryAt  map[string]time.Time // failed: not before
	deleted  map[string]time.Time // deletion markers not yet written
	reps     map[string]*nsRep

	lastSnapshot atomic.Int64 // Unix nanoseconds
	lastUpload   atomic.Int64
	failures     atomic.Uint64

	cancel context.CancelFunc
	done   chan struct{}
}

// nsRep is the replicator's view of one namespace; mu serialises its
// shipping with its deletion.
type nsRep struct {
	mu     sync.Mutex
	loaded bool
	st     *nsState // nil: no generation yet
	// configDirty is set without mu, so that a configuration change
	// never waits for an upload.
	configDirty atomic.Bool
	gone        bool
}

// Tuning.
const (
	// checkpointFrames is the WAL length (in frames) past which the
	// backup checkpoints after shipping, so the WAL stays short.
	checkpointFrames = 1000
	// workers is how many namespaces ship at once.
	workers = 16
	// retryDelay is how long a namespace whose upload failed waits.
	retryDelay = 500 * time.Millisecond
)

// New returns a replicator for cfg writing through api. now may be nil
// for time.Now.
func New(cfg Config, api S3API, src Source, log *slog.Logger, now func() time.Time) *Replicator {
	cfg = cfg.WithDefaults()
	if now == nil {
		now = time.Now
	}
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Replicator{
		cfg: cfg, st: newStore(api, cfg), src: src, log: log, now: now,
		dirty: map[string]time.Time{}, inflight: map[string]time.Time{}, retryAt: map[string]time.Time{},
		deleted: map[string]time.Time{}, reps: map[string]*nsRep{},
	}
}

// Open starts the shipping loop. Its first step looks, by reading files
// only, for namespaces with frames not yet shipped (the server may have
// been killed).
func (r *Replicator) Open() {
	ctx, cancel := context.WithCancel(context.Background())
	r.cancel, r.done = cancel, make(chan struct{})
	go r.run(ctx)
}

// Changed records that namespace name committed changes (or was created).
func (r *Replicator) Changed(name string) { r.markDirty(name, r.now()) }

// ConfigChanged records that namespace name's configuration changed.
func (r *Replicator) ConfigChanged(name string) {
	r.rep(name).configDirty.Store(true)
	r.Changed(name)
}

// Deleted records that namespace name was deleted; its deletion marker is
// written with the next shipment. It waits for a shipment of name in
// progress (bounded by the S3 timeout), so that none runs on the files of
// a namespace re-created under the same name.
func (r *Replicator) Deleted(name string) {
	rep := r.rep(name)
	rep.mu.Lock()
	rep.gone = true
	rep.mu.Unlock()
	r.mu.Lock()
	if r.reps[name] == rep {
		delete(r.reps, name)
	}
	delete(r.dirty, name)
	delete(r.retryAt, name)
	r.deleted[name] = r.now()
	r.mu.Unlock()
}

func (r *Replicator) markDirty(name string, since time.Time) {
	r.mu.Lock()
	if old, ok := r.dirty[name]; !ok || since.Before(old) {
		r.dirty[name] = since
	}
	r.mu.Unlock()
}

func (r *Replicator) rep(name string) *nsRep {
	r.mu.Lock()
	defer r.mu.Unlock()
	rep := r.reps[name]
	if rep == nil {
		rep = &nsRep{}
		r.reps[name] = rep
	}
	return rep
}

// Status reports the backup's progress.
func (r *Replicator) Status() Status {
	now := r.now()
	r.mu.Lock()
	oldest := now
	for _, m := range []map[string]time.Time{r.dirty, r.inflight, r.deleted} {
		for _, t := range m {
			if t.Before(oldest) {
				oldest = t
			}
		}
	}
	pending := len(r.dirty) + len(r.inflight) + len(r.deleted)
	r.mu.Unlock()
	s := Status{Lag: now.Sub(oldest), Pending: pending, Failures: r.failures.Load()}
	if n := r.lastSnapshot.Load(); n != 0 {
		s.LastSnapshot = time.Unix(0, n)
	}
	if n := r.lastUpload.Load(); n != 0 {
		s.LastUpload = time.Unix(0, n)
	}
	return s
}

// run ships changes every Lag/4 until ctx is cancelled; retention is
// applied beside it, so that a long sweep never delays shipping.
func (r *Replicator) run(ctx context.Context) {
	defer close(r.done)
	pruned := make(chan struct{})
	go func() {
		defer close(pruned)
		prune := time.NewTicker(pruneInterval(r.cfg.Retention))
		defer prune.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-prune.C:
				if err := r.pruneAll(ctx); err != nil && ctx.Err() == nil {
					r.log.Warn("backup: prune old generations", "err", err)
				}
			}
		}
	}()
	defer func() { <-pruned }()
	r.scan()
	tick := time.NewTicker(max(r.cfg.Lag/4, 5*time.Millisecond))
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
			r.cycle(ctx)
		}
	}
}

// Close stops the loop and ships what is left, until ctx is done. It
// returns an error when changes remain unshipped.
func (r *Replicator) Close(ctx context.Context) error {
	if r.cancel == nil {
		return nil
	}
	r.cancel()
	<-r.done
	for {
		r.mu.Lock()
		for name := range r.retryAt {
			delete(r.retryAt, name)
		}
		pending := len(r.dirty) + len(r.deleted)
		r.mu.Unlock()
		if pending == 0 {
			return nil
		}
		failures := r.failures.Load()
		r.cycle(ctx)
		if r.failures.Load() != failures {
			// S3 fails: try again shortly, not in a tight loop.
			select {
			case <-ctx.Done():
			case <-time.After(retryDelay):
			}
		}
		if ctx.Err() != nil {
			return fmt.Errorf("backup: %d namespaces not shipped at shutdown (they ship at the next start): %w", r.Status().Pending, ctx.Err())
		}
	}
}

// cycle ships every dirty namespace and writes the pending deletion
// markers.
func (r *Replicator) cycle(ctx context.Context) {
	now := r.now()
	r.mu.Lock()
	var work []string
	for name, since := range r.dirty {
		if t, ok := r.retryAt[name]; ok && now.Before(t) {
			continue
		}
		work = append(work, name)
		r.inflight[name] = since
		delete(r.dirty, name)
	}
	marks := make(map[string]time.Time, len(r.deleted))
	for name, t := range r.deleted {
		marks[name] = t
	}
	r.mu.Unlock()

	sem := make(chan struct{}, workers)
	var wg sync.WaitGroup
	for _, name := range work {
		sem <- struct{}{}
		wg.Add(1)
		go func() {
			defer func() { <-sem; wg.Done() }()
			more, err := r.sync(ctx, name)
			r.mu.Lock()
			since := r.inflight[name]
			delete(r.inflight, name)
			if err != nil || more {
				if old, ok := r.dirty[name]; !ok || since.Before(old) {
					r.dirty[name] = since
				}
			}
			if err != nil {
				r.retryAt[name] = r.now().Add(retryDelay)
			} else {
				delete(r.retryAt, name)
			}
			r.mu.Unlock()
			if err != nil {
				r.failures.Add(1)
				if ctx.Err() == nil {
					r.log.Warn("backup: ship namespace", "namespace", name, "err", err)
				}
			}
		}()
	}
	wg.Wait()

	for name, t := range marks {
		if err := r.st.put(ctx, name+"/"+deletedPrefix+timeName(t), encodeObject(kindDeleted, nil)); err != nil {
			r.failures.Add(1)
			if ctx.Err() == nil {
				r.log.Warn("backup: record deletion", "namespace", name, "err", err)
			}
			continue
		}
		r.uploaded()
		r.mu.Lock()
		if r.deleted[name].Equal(t) {
			delete(r.deleted, name)
		}
		r.mu.Unlock()
	}
}

func (r *Replicator) uploaded() { r.lastUpload.Store(r.now().UnixNano()) }
