package objcentral

import (
	"context"
	"errors"
	"fmt"
	"os"
	"sync"
	"sync/atomic"

	"github.com/dwk/fleet/appliance/bindings/objects"
	"github.com/dwk/fleet/appliance/bindings/objects/objcentral/walpages"
	"github.com/dwk/fleet/appliance/bindings/objects/objlocal"
	"github.com/dwk/fleet/appliance/libsql/hrana"
	"github.com/dwk/fleet/appliance/libsql/hranaclient"
	"github.com/dwk/fleet/appliance/process/sqlitedb"
	"github.com/dwk/fleet/appliance/worker"
)

// DB is one object's database as a holder serves it: a SQLite replica on
// local disk, synced from the primary when opened. Reads are served from
// the replica without a round trip. Writes commit locally and are then
// committed at the primary — the pages they changed, guarded by the
// lease's epoch, in one round trip — before Batch, Transaction or
// DeleteAll return; while the runtime holds the object's output (Hold),
// they are committed together at Confirm instead. A failed commit leaves
// the replica stale (ErrStale or ErrFenced from then on).
type DB struct {
	name  string
	home  home
	ws    *hranaclient.WSStream // commits go here when set
	epoch int64
	fresh func() bool
	ctx   context.Context // the lease's, when it has one
	cache *cache
	local *objlocal.DB

	counters *counters
	inTx     atomic.Bool

	mu       sync.Mutex // guards what follows, and serialises commits
	gen      string
	version  int64 // the primary's version the committed local state is at
	pages    int64 // the primary's size in pages at that version
	pageSize int
	held     bool
	full     bool              // DeleteAll ran: commit every page
	also     []hrana.Stmt      // run at the primary in the next commit
	init     []hrana.Stmt      // set up a new database before the next commit's epoch guard (openNew)
	walPos   walpages.Position // where the frames not yet committed start
	wal      *os.File          // the local log, once it exists (walFileLocked)
	broken   error             // why the copy is stale
	closed   bool
}

var _ objects.ObjectDB = (*DB)(nil)
var _ objects.OutputGate = (*DB)(nil)

// copyOptions opens every local copy: no fsync (a copy not closed cleanly
// is rebuilt from the primary, see copyMeta), no automatic checkpoint,
// since commits read the pages they send from the log, and its one
// connection locks it exclusively, as nothing else opens it.
var copyOptions = sqlitedb.Options{Synchronous: "OFF", ManualCheckpoints: true, Exclusive: true}

// openDB opens the replica file at path, which openPrimary and applyPages
// brought to h, unless local has it open already.
func openDB(ctx context.Context, name, path string, local *objlocal.DB, at home, epoch int64, lease objects.Lease, h head, ch *cache, n *counters) (*DB, error) {
	if local == nil {
		var err error
		if local, err = objlocal.OpenFile(ctx, path, copyOptions); err != nil {
			return nil, err
		}
	}
	d := &DB{
		name: name, home: at, epoch: epoch, cache: ch, counters: n, local: local,
		gen: h.gen, version: h.version, pages: h.pages, pageSize: h.pageSize,
	}
	if f, ok := lease.(interface{ Fresh() bool }); ok {
		d.fresh = f.Fresh
	}
	if lc, ok := lease.(interface{ Context() context.Context }); ok {
		d.ctx = lc.Context()
	}
	return d, nil
}

// Epoch is the epoch the database was opened with.
func (d *DB) Epoch() int64 { return d.epoch }

// check fails when the replica may not serve: closed or stale. While the
// lease is fresh by this replica's clock the copy serves without a round
// trip; when a renewal is late, or the lease ended by this replica's
// clock (the instance stops at its next turn; the events in flight
// finish), one round trip confirms that the primary still names this
// holder's epoch and version (no other holder can have written), or
// fences the copy.
func (d *DB) check(ctx context.Context) error {
	d.mu.Lock()
	closed, broken := d.closed, d.broken
	d.mu.Unlock()
	switch {
	case closed:
		return ErrClosed
	case broken != nil:
		return broken
	}
	if d.fresh == nil || d.fresh() {
		return nil
	}
	return d.confirmHolder(ctx)
}

// confirmHolder checks at the primary that this holder's epoch is the
// stored one and that no commit happened since this copy's.
func (d *DB) confirmHolder(ctx context.Context) error {
	d.mu.Lock()
	version, init := d.version, d.init
	d.mu.Unlock()
	ctx, done := d.leaseContext(ctx)
	defer done()
	if init != nil {
		// A new database not set up yet: set it up now, which raises its
		// epoch unless a newer holder did.
		if err := d.setUp(ctx, init); err != nil {
			return err
		}
		d.mu.Lock()
		d.init = nil
		d.mu.Unlock()
	}
	res, err := d.home.c.Batch(ctx, chain(d.home.stmt(d.home.lay.epochSelect), d.home.stmt(d.home.lay.replicaVersion)))
	if err != nil {
		return fmt.Errorf("confirm the lease (epoch %d) at the primary: %w", d.epoch, leaseCause(ctx, err))
	}
	for i := 0; i < 2; i++ {
		if e := hranaclient.StepError(res, i); e != nil {
			return fmt.Errorf("confirm the lease (epoch %d) at the primary: %w", d.epoch, e)
		}
	}
	stored, err := epochOf(res.StepResults[0])
	if err != nil {
		return err
	}
	r := res.StepResults[1]
	if stored != d.epoch || r == nil || len(r.Rows) != 1 || r.Rows[0][0].Int != version {
		d.mu.Lock()
		err := d.breakLocked(fmt.Errorf("%w: the database is held at epoch %d, not %d", objects.ErrFenced, stored, d.epoch))
		d.mu.Unlock()
		return err
	}
	return nil
}

// Batch implements worker.StorageBackend.
func (d *DB) Batch(ctx context.Context, stmts []worker.D1Query) ([]worker.D1Result, error) {
	if len(stmts) == 0 {
		return nil, nil
	}
	if err := d.check(ctx); err != nil {
		return nil, err
	}
	for _, q := range stmts {
		if err := checkQuery(q); err != nil {
			return nil, err
		}
	}
	rs, err := d.local.Batch(ctx, stmts)
	if err != nil {
		return nil, err
	}
	if err := d.afterWrite(ctx); err != nil {
		return nil, err
	}
	return rs, nil
}

// Transaction implements worker.StorageBackend.
func (d *DB) Transaction(ctx context.Context, fn func(tx worker.SQLExecer) error) error {
	if err := d.check(ctx); err != nil {
		return err
	}
	d.inTx.Store(true)
	err := d.local.Transaction(ctx, func(tx worker.SQLExecer) error { return fn(checkedTx{tx}) })
	d.inTx.Store(false)
	if err != nil {
		return err
	}
	return d.afterWrite(ctx)
}

// DeleteAll implements worker.StorageBackend: the replica starts anew and
// the next commit replaces every page at the primary.
func (d *DB) DeleteAll(ctx context.Context) error {
	if err := d.check(ctx); err != nil {
		return err
	}
	if err := d.local.DeleteAll(ctx); err != nil {
		return err
	}
	d.mu.Lock()
	d.full, d.walPos = true, walpages.Position{}
	if d.wal != nil { // removed with the database's files
		d.wal.Close()
		d.wal = nil
	}
	d.mu.Unlock()
	return d.afterWrite(ctx)
}

// afterWrite commits at once unless the output is held.
func (d *DB) afterWrite(ctx context.Context) error {
	d.mu.Lock()
	held := d.held
	d.mu.Unlock()
	if held {
		return nil
	}
	return d.Confirm(ctx)
}

// Hold implements objects.OutputGate.
func (d *DB) Hold() {
	d.mu.Lock()
	d.held = true
	d.mu.Unlock()
}

// Release implements objects.OutputGate.
func (d *DB) Release(ctx context.Context) error {
	err := d.Confirm(ctx)
	d.mu.Lock()
	d.held = false
	d.mu.Unlock()
	return err
}

// Confirm implements objects.OutputGate: every write committed locally so
// far is committed at the primary in one round trip (none when there is
// nothing new).
func (d *DB) Confirm(ctx context.Context) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	switch {
	case d.closed:
		return ErrClosed
	case d.broken != nil:
		return d.broken
	}
	p, err := d.pendingLocked()
	if err != nil {
		return d.breakLocked(fmt.Errorf("read local changes: %w", err))
	}
	if p == nil {
		if d.init == nil {
			return nil
		}
		// A new object's first confirmation: make its rows, or learn that
		// they exist, before the event's output leaves.
		ctx, done := d.leaseContext(ctx)
		defer done()
		if err := d.setUp(ctx, d.init); err != nil {
			return d.breakLocked(err)
		}
		d.init = nil
		return nil
	}
	if err := d.commitLocked(ctx, p); err != nil {
		d.counters.commitFailures.Add(1)
		return d.breakLocked(err)
	}
	d.counters.commits.Add(1)
	d.counters.pagesCommitted.Add(int64(len(p.pages)))
	return nil
}

// breakLocked marks the replica stale because of err and returns the
// error callers see.
func (d *DB) breakLocked(err error) error {
	if errors.Is(err, objects.ErrFenced) {
		d.broken = err
	} else {
		d.broken = fmt.Errorf("%w: %w", ErrStale, err)
	}
	return d.broken
}

// Close implements objects.ObjectDB. A replica whose every write reached
// the primary is checkpointed and kept for the next time this replica
// holds the object; any other is deleted. Close returns at once: the
// checkpoint and the file work run in the background (the cache waits
// for them before it opens the object again or shuts down), so a drain
// hands leases back without waiting for the disk.
func (d *DB) Close() error {
	d.mu.Lock()
	if d.closed {
		d.mu.Unlock()
		return nil
	}
	d.closed = true
	clean := d.broken == nil
	if clean {
		if p, err := d.pendingLocked(); err != nil || p != nil {
			clean = false
		}
	}
	meta := &copyMeta{Gen: d.gen, Version: d.version, PageSize: d.pageSize, Packed: d.home.lay.packed}
	if d.wal != nil {
		d.wal.Close()
		d.wal = nil
	}
	if d.ws != nil {
		d.ws.Close()
	}
	d.mu.Unlock()
	clean = clean && !d.inTx.Load()
	d.cache.closeInBackground(d.name, func() *copyMeta {
		// Closing the last connection checkpoints the log into the file.
		if err := d.local.Close(); err != nil || !clean {
			return nil
		}
		return meta
	})
	return nil
}

// setUp runs a new object's set-up statements in one round trip and
// checks that they left this holder's epoch stored and the head this copy
// was made for (no rows were there before). The caller clears d.init.
func (d *DB) setUp(ctx context.Context, init []hrana.Stmt) error {
	stmts := append([]hrana.Stmt{hrana.NewStmt(`BEGIN IMMEDIATE`)}, init...)
	sel := len(stmts)
	stmts = append(stmts, d.home.stmt(d.home.lay.epochSelect),
		noRows(d.home.stmt(d.home.lay.headGuard, hrana.Text(d.gen), hrana.Integer(0))), hrana.NewStmt(`COMMIT`))
	commit := len(stmts) - 1
	res, err := d.home.c.Batch(ctx, append(chain(stmts...), rollbackStep(0, commit)))
	if err != nil {
		return fmt.Errorf("set up the object at the primary: %w", leaseCause(ctx, err))
	}
	for i := 0; i <= sel; i++ {
		if e := hranaclient.StepError(res, i); e != nil {
			return fmt.Errorf("set up the object at the primary: step %d: %w", i, e)
		}
	}
	stored, err := epochOf(res.StepResults[sel])
	if err != nil {
		return fmt.Errorf("set up the object at the primary: %w", err)
	}
	if stored != d.epoch {
		return fmt.Errorf("%w: this holder has epoch %d, the object is held at epoch %d", objects.ErrFenced, d.epoch, stored)
	}
	if e := hranaclient.StepError(res, sel+1); e != nil {
		if isConstraint(e) {
			return fmt.Errorf("set up the object at the primary: it has rows already, made before its first lease (%v)", e)
		}
		return fmt.Errorf("set up the object at the primary: head guard: %w", e)
	}
	if e := hranaclient.StepError(res, commit); e != nil {
		return fmt.Errorf("set up the object at the primary: commit: %w", e)
	}
	if !hranaclient.StepRan(res, commit) {
		return errors.New("set up the object at the primary: COMMIT did not run")
	}
	return nil
}
