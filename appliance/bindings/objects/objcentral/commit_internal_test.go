package objcentral

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/dwk/fleet/appliance/bindings/objects"
)

// TestCommitOutlivesItsLeaseByTheGrace checks leaseContext: a commit under
// way when the lease ends goes on for lostLeaseGrace (the epoch guard
// keeps it safe), then is cancelled with a fenced cause that says why the
// lease ended; a commit that ends first is not cancelled at all.
func TestCommitOutlivesItsLeaseByTheGrace(t *testing.T) {
	lease, end := context.WithCancelCause(context.Background())
	d := &DB{ctx: lease, epoch: 7}

	finished, done := d.leaseContext(context.Background())
	ctx, doneLater := d.leaseContext(context.Background())
	defer doneLater()
	ended := time.Now()
	end(errors.New("lease: lost: deadline passed without a successful renewal"))
	time.Sleep(lostLeaseGrace / 4)
	if finished.Err() != nil || ctx.Err() != nil {
		t.Fatalf("a commit was cancelled %v after its lease ended, within the grace of %v", time.Since(ended), lostLeaseGrace)
	}
	done()
	if got := context.Cause(finished); !errors.Is(got, context.Canceled) || errors.Is(got, objects.ErrFenced) {
		t.Errorf("a commit that ended in the grace: cause %v, want a plain cancel", got)
	}

	select {
	case <-ctx.Done():
	case <-time.After(2 * lostLeaseGrace):
		t.Fatalf("a commit still runs %v after its lease ended", time.Since(ended))
	}
	if took := time.Since(ended); took < lostLeaseGrace {
		t.Errorf("cancelled %v after the lease ended, before the grace of %v", took, lostLeaseGrace)
	}
	cause := context.Cause(ctx)
	if !errors.Is(cause, objects.ErrFenced) || !strings.Contains(cause.Error(), "epoch 7") || !strings.Contains(cause.Error(), "deadline passed") {
		t.Errorf("cause = %v; want ErrFenced naming epoch 7 and why the lease ended", cause)
	}
}
