package objcentral

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"syscall"
	"time"

	"github.com/dwk/fleet/appliance/bindings/objects"
	"github.com/dwk/fleet/appliance/bindings/objects/objcentral/walpages"
	"github.com/dwk/fleet/appliance/libsql/hrana"
	"github.com/dwk/fleet/appliance/libsql/hranaclient"
)

// The local log is folded into the replica file (checkpointed) once it
// holds checkpointFrames frames that reached the primary; checkpointWait
// bounds that, and one that cannot get the connection in time (a
// transaction is open) is left for a later commit.
const (
	checkpointFrames = 256
	checkpointWait   = time.Second
)

// pending is what the replica committed locally since its last commit at
// the primary.
type pending struct {
	pages    map[uint32][]byte
	dbSize   uint32
	pageSize int
	log      walpages.Log
}

// pendingLocked collects the local changes not yet at the primary, or nil
// when there are none.
func (d *DB) pendingLocked() (*pending, error) {
	wal, size, err := d.walFileLocked()
	if err != nil {
		return nil, err
	}
	if !d.full && (wal == nil || size == 0 || size <= d.walPos.Offset()) {
		return nil, nil // nothing new in the log: no frame past the last one committed
	}
	var log walpages.Log
	if wal != nil {
		if log, err = walpages.ReadFileFrom(wal, size, d.walPos); err != nil {
			return nil, err
		}
	}
	if !d.full {
		if len(log.Pages) == 0 {
			return nil, nil
		}
		return &pending{pages: log.Pages, dbSize: log.DBSize, pageSize: log.PageSize, log: log}, nil
	}
	// After DeleteAll: every page of the new database, from its file and
	// its log.
	p := &pending{pages: map[uint32][]byte{}, pageSize: log.PageSize, log: log}
	data, err := os.ReadFile(d.local.Path())
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, err
	}
	if len(data) >= 100 {
		ps := int(binary.BigEndian.Uint16(data[16:18]))
		if ps == 1 {
			ps = 65536
		}
		if p.pageSize == 0 {
			p.pageSize = ps
		}
		if ps == p.pageSize {
			for i := 0; (i+1)*ps <= len(data); i++ {
				p.pages[uint32(i+1)] = data[i*ps : (i+1)*ps]
			}
			p.dbSize = uint32(len(data) / ps)
		}
	}
	for pgno, page := range log.Pages {
		p.pages[pgno] = page
	}
	if log.DBSize != 0 {
		p.dbSize = log.DBSize
	}
	for pgno := range p.pages {
		if pgno > p.dbSize {
			delete(p.pages, pgno)
		}
	}
	if p.pageSize == 0 {
		p.pageSize = d.pageSize
	}
	return p, nil
}

// walFileLocked returns the local log and its size, opened once and kept
// open while the replica is (SQLite keeps the file while a connection is
// open, and reuses it across checkpoints); nil when it does not exist.
func (d *DB) walFileLocked() (*os.File, int64, error) {
	for range 2 {
		if d.wal == nil {
			f, err := os.Open(d.local.Path() + "-wal")
			if errors.Is(err, os.ErrNotExist) {
				return nil, 0, nil
			}
			if err != nil {
				return nil, 0, fmt.Errorf("open the local log: %w", err)
			}
			d.wal = f
		}
		info, err := d.wal.Stat()
		if err != nil {
			return nil, 0, fmt.Errorf("the local log: %w", err)
		}
		if st, ok := info.Sys().(*syscall.Stat_t); !ok || st.Nlink > 0 {
			return d.wal, info.Size(), nil
		}
		// SQLite removed the log (its last connection closed), and may
		// have made a new one: open that.
		d.wal.Close()
		d.wal = nil
	}
	return nil, 0, errors.New("the local log keeps being replaced")
}

// commitLocked commits p at the primary in one round trip, under the
// epoch guard, and advances the replica's version.
func (d *DB) commitLocked(ctx context.Context, p *pending) error {
	ctx, done := d.leaseContext(ctx)
	defer done()
	next := d.version + 1
	stmts := append([]hrana.Stmt{hrana.NewStmt(`BEGIN IMMEDIATE`)}, d.init...)
	guard := len(stmts)
	stmts = append(stmts,
		noRows(d.home.stmt(d.home.lay.epochGuard, hrana.Integer(d.epoch))),
		noRows(d.home.stmt(d.home.lay.headGuard, hrana.Text(d.gen), hrana.Integer(d.version))))
	for pgno, page := range p.pages {
		stmts = append(stmts, noRows(d.home.stmt(d.home.lay.pagesUpsert, hrana.Integer(int64(pgno)), hrana.Integer(next), hrana.Blob(encodePage(page)))))
	}
	stmts = append(stmts, d.also...)
	if int64(p.dbSize) < d.pages {
		stmts = append(stmts, noRows(d.home.stmt(d.home.lay.pagesTruncate, hrana.Integer(int64(p.dbSize)))))
	}
	advance := len(stmts)
	stmts = append(stmts,
		noRows(d.home.stmt(d.home.lay.replicaAdvance, hrana.Integer(next), hrana.Integer(int64(p.dbSize)), hrana.Integer(int64(p.pageSize)), hrana.Integer(d.version))),
		hrana.NewStmt(`COMMIT`),
	)
	commit := len(stmts) - 1
	steps := append(chain(stmts...), rollbackStep(0, commit))
	batch := d.home.c.Batch
	if d.ws != nil {
		batch = d.ws.Batch
	}
	res, err := batch(ctx, steps)
	if err != nil {
		return fmt.Errorf("commit to the primary: %w", leaseCause(ctx, err))
	}
	if e := hranaclient.StepError(res, 0); e != nil {
		return fmt.Errorf("commit to the primary: begin: %w", e)
	}
	for i := 1; i < guard; i++ {
		if e := hranaclient.StepError(res, i); e != nil {
			return fmt.Errorf("commit to the primary: set up the database: %w", e)
		}
	}
	if e := hranaclient.StepError(res, guard); e != nil {
		if isConstraint(e) {
			return fencedError(d.epoch, e)
		}
		return fmt.Errorf("commit to the primary: epoch guard: %w", e)
	}
	if e := hranaclient.StepError(res, guard+1); e != nil {
		if isConstraint(e) {
			return fmt.Errorf("commit to the primary: the object's rows are not at generation %s, version %d, which this copy holds (%v)", d.gen, d.version, e)
		}
		return fmt.Errorf("commit to the primary: head guard: %w", e)
	}
	for i := guard + 2; i <= commit; i++ {
		if e := hranaclient.StepError(res, i); e != nil {
			return fmt.Errorf("commit to the primary: step %d: %w", i, e)
		}
	}
	if !hranaclient.StepRan(res, commit) {
		return errors.New("commit to the primary: COMMIT did not run")
	}
	if r := res.StepResults[advance]; r == nil || r.AffectedRowCount != 1 {
		// Only a holder under the epoch guard writes, so the head cannot
		// have moved; if it did, this copy cannot be trusted.
		return fmt.Errorf("commit to the primary: the head was not at version %d", d.version)
	}
	d.version, d.pages, d.pageSize, d.full, d.also, d.init = next, int64(p.dbSize), p.pageSize, false, nil, nil
	d.walPos = p.log.End
	if d.walPos.Frames() >= checkpointFrames && !d.inTx.Load() {
		cctx, cancel := context.WithTimeout(context.Background(), checkpointWait)
		if d.local.Checkpoint(cctx) == nil {
			d.walPos = walpages.Position{}
		}
		cancel()
	}
	return nil
}

// lostLeaseGrace is how long a commit or a confirmation already under way
// may go on after this replica's lease ended. The epoch guard, not the
// lease, keeps it safe: a new holder fences the database before it
// serves, so a write that lands late is either seen by it or refused. A
// store that answers a little late (a stalled renewal lost the lease)
// then costs no write; one that does not answer is given up on.
const lostLeaseGrace = 2 * time.Second

// leaseContext is ctx, also cancelled lostLeaseGrace after the lease
// ends.
func (d *DB) leaseContext(ctx context.Context) (context.Context, context.CancelFunc) {
	if d.ctx == nil {
		return ctx, func() {}
	}
	cctx, cancel := context.WithCancelCause(ctx)
	stop := context.AfterFunc(d.ctx, func() {
		t := time.NewTimer(lostLeaseGrace)
		defer t.Stop()
		select {
		case <-t.C:
			cancel(fmt.Errorf("%w: the lease (epoch %d) ended %v before the store answered: %v",
				objects.ErrFenced, d.epoch, lostLeaseGrace, context.Cause(d.ctx)))
		case <-cctx.Done():
		}
	})
	return cctx, func() { stop(); cancel(nil) }
}
