package objcentral

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/dwk/fleet/appliance/hranaclient"
	"github.com/dwk/fleet/appliance/objects"
	"github.com/dwk/fleet/appliance/worker"
)

// DB is one object's libSQL database, opened under a lease. Every call
// carries the lease's epoch in an epoch guard in the same round trip (see
// batchPlan); calls fail with an error wrapping objects.ErrFenced once a
// newer holder has opened the database, or at once when the lease is
// known to be lost. A call in flight when the lease is lost is cancelled
// if the lease has a Context (lease.Lease has).
type DB struct {
	c     *hranaclient.Client
	epoch int64
	lost  <-chan struct{}
	// leaseCtx is the lease's context, when it has one.
	leaseCtx context.Context

	mu     sync.Mutex
	closed bool
}

var _ objects.ObjectDB = (*DB)(nil)

func newDB(c *hranaclient.Client, epoch int64, lease objects.Lease) *DB {
	d := &DB{c: c, epoch: epoch, lost: lease.Lost()}
	if lc, ok := lease.(interface{ Context() context.Context }); ok {
		d.leaseCtx = lc.Context()
	}
	return d
}

// Epoch is the epoch the database was opened with.
func (d *DB) Epoch() int64 { return d.epoch }

// begin checks that the database is usable and returns the call's context:
// ctx, also cancelled when the lease ends.
func (d *DB) begin(ctx context.Context) (context.Context, context.CancelFunc, error) {
	d.mu.Lock()
	closed := d.closed
	d.mu.Unlock()
	if closed {
		return nil, nil, ErrClosed
	}
	select {
	case <-d.lost:
		return nil, nil, fmt.Errorf("%w: the lease (epoch %d) was lost", objects.ErrFenced, d.epoch)
	default:
	}
	if d.leaseCtx == nil {
		return ctx, func() {}, nil
	}
	cctx, cancel := context.WithCancelCause(ctx)
	stop := context.AfterFunc(d.leaseCtx, func() {
		cancel(fmt.Errorf("%w: the lease (epoch %d) ended", objects.ErrFenced, d.epoch))
	})
	return cctx, func() { stop(); cancel(nil) }, nil
}

// Batch implements worker.StorageBackend in one round trip.
func (d *DB) Batch(ctx context.Context, stmts []worker.D1Query) ([]worker.D1Result, error) {
	if len(stmts) == 0 {
		return nil, nil
	}
	p, err := planBatch(stmts, d.epoch)
	if err != nil {
		return nil, err
	}
	ctx, done, err := d.begin(ctx)
	if err != nil {
		return nil, err
	}
	defer done()
	start := time.Now()
	res, err := d.c.Batch(ctx, p.steps)
	if err != nil {
		return nil, fmt.Errorf("object storage batch: %w", leaseCause(ctx, err))
	}
	return p.results(res, d.epoch, time.Since(start))
}

// DeleteAll implements worker.StorageBackend: it drops every view, table,
// index and trigger except the host's epoch table, in one transaction that
// starts with the epoch guard (two round trips on one stream: the first
// lists the schema, the second drops and commits).
func (d *DB) DeleteAll(ctx context.Context) error {
	ctx, done, err := d.begin(ctx)
	if err != nil {
		return err
	}
	defer done()
	if err := deleteAll(ctx, d.c, d.epoch); err != nil {
		return fmt.Errorf("object storage delete all: %w", leaseCause(ctx, err))
	}
	return nil
}

// Close implements objects.ObjectDB. It holds nothing to free; later
// calls fail with ErrClosed.
func (d *DB) Close() error {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.closed = true
	return nil
}

// leaseCause returns err, with the lease's end added when that is why ctx
// was cancelled.
func leaseCause(ctx context.Context, err error) error {
	if cause := context.Cause(ctx); cause != nil && cause != ctx.Err() {
		return fmt.Errorf("%w (%w)", cause, err)
	}
	return err
}
