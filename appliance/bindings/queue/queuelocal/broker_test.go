package queuelocal

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/dwk/fleet/appliance/bindings/queue"
	"github.com/dwk/fleet/appliance/bindings/queue/queuetest"
	"github.com/dwk/fleet/appliance/process/clock/clocktest"
	"github.com/dwk/fleet/appliance/worker"
)

func openBroker(t *testing.T, path string, o Options) *Broker {
	t.Helper()
	b, err := Open(context.Background(), path, o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := b.Close(); err != nil {
			t.Error(err)
		}
	})
	return b
}

func TestConformance(t *testing.T) {
	path := filepath.Join(t.TempDir(), "queues.db")
	// Create the file (and switch it to WAL) before the parallel subtests
	// open it: two connections making a new file WAL at once can get
	// SQLITE_BUSY without the busy timeout applying.
	openBroker(t, path, Options{})
	queuetest.Run(t, func(t *testing.T) queue.Broker { return openBroker(t, path, Options{}) })
}

// TestInjectedClock checks delays, visibility timeouts and retry delays are
// judged by the injected clock, to the millisecond.
func TestInjectedClock(t *testing.T) {
	ctx := context.Background()
	clock := clocktest.NewFake(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	b := openBroker(t, filepath.Join(t.TempDir(), "q.db"), Options{Now: clock.Now})
	claim := func(vis time.Duration) []queue.Delivery {
		t.Helper()
		ds, err := b.Claim(ctx, "q", 10, vis)
		if err != nil {
			t.Fatal(err)
		}
		return ds
	}
	if err := b.Send(ctx, "q", []worker.QueueMessage{{Body: []byte("m"), QueueSendOptions: worker.QueueSendOptions{Delay: 12 * time.Hour}}}); err != nil {
		t.Fatal(err)
	}
	clock.Advance(12*time.Hour - time.Millisecond)
	if len(claim(time.Hour)) != 0 {
		t.Fatal("claimable 1 ms before its delay")
	}
	clock.Advance(time.Millisecond)
	ds := claim(time.Hour)
	if len(ds) != 1 || !ds[0].Timestamp.Equal(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)) {
		t.Fatalf("claim at delay = %+v, want the message sent at the clock's start", ds)
	}
	clock.Advance(time.Hour - time.Millisecond)
	if len(claim(time.Hour)) != 0 {
		t.Fatal("claimable again 1 ms before its visibility timeout")
	}
	clock.Advance(time.Millisecond)
	ds = claim(time.Hour)
	if len(ds) != 1 || ds[0].Attempts != 2 {
		t.Fatalf("after visibility timeout claim = %+v, want Attempts 2", ds)
	}
	if err := b.Settle(ctx, "q", []queue.Settlement{{ID: ds[0].ID, Receipt: ds[0].Receipt, Kind: queue.SettleRetry, Delay: 5 * time.Minute}}); err != nil {
		t.Fatal(err)
	}
	clock.Advance(5*time.Minute - time.Millisecond)
	if len(claim(time.Hour)) != 0 {
		t.Fatal("claimable 1 ms before its retry delay")
	}
	clock.Advance(time.Millisecond)
	if ds := claim(time.Hour); len(ds) != 1 || ds[0].Attempts != 3 {
		t.Fatalf("after retry delay claim = %+v, want Attempts 3", ds)
	}
}

func TestClosedBrokerFails(t *testing.T) {
	b, err := Open(context.Background(), filepath.Join(t.TempDir(), "q.db"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := b.Close(); err != nil {
		t.Fatal(err)
	}
	if err := b.Close(); err != nil {
		t.Errorf("second Close = %v", err)
	}
	if err := b.Send(context.Background(), "q", []worker.QueueMessage{{Body: []byte("m")}}); err == nil {
		t.Error("Send on a closed broker succeeded")
	}
}
