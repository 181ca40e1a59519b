package migrate_test

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/dwk/fleet/appliance/bindings/queue"
	"github.com/dwk/fleet/appliance/bindings/queue/queuelocal"
	"github.com/dwk/fleet/appliance/migrate"
	"github.com/dwk/fleet/appliance/worker"
)

// TestRunMovesABacklog: a queue's messages move with their ids and
// remaining delays; a message the destination's consumer took since is not
// sent again by a second run.
func TestRunMovesABacklog(t *testing.T) {
	ctx := context.Background()
	open := func() *queuelocal.Broker {
		b, err := queuelocal.Open(ctx, filepath.Join(t.TempDir(), "queues.sqlite"), queuelocal.Options{})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { b.Close() })
		return b
	}
	src, dst := open(), open()
	if err := src.Send(ctx, "jobs", []worker.QueueMessage{
		{Body: []byte("now")},
		{Body: []byte(`{"later":true}`), QueueSendOptions: worker.QueueSendOptions{Delay: time.Hour, ContentType: "json"}},
	}); err != nil {
		t.Fatal(err)
	}
	before, _ := src.Backlog(ctx, "jobs")
	stores := []migrate.Store{{Kind: migrate.KindQueue, Name: "jobs"}}
	res, err := migrate.Run(ctx, migrate.Side{Queues: src}, migrate.Side{Queues: dst}, stores, migrate.Options{})
	if err != nil || res[0].Copied != 2 || !res[0].Verified {
		t.Fatalf("run: %+v %v, want 2 messages copied and verified", res, err)
	}
	after, _ := dst.Backlog(ctx, "jobs")
	if len(after) != 2 || after[0].ID != before[0].ID || after[1].ID != before[1].ID || after[1].ContentType != "json" || after[1].Delay < 59*time.Minute {
		t.Fatalf("destination backlog %+v, want the source's %+v with its delay", after, before)
	}

	got, err := dst.Claim(ctx, "jobs", 10, time.Minute)
	if err != nil || len(got) != 1 || string(got[0].Body) != "now" {
		t.Fatalf("claim: %+v %v", got, err)
	}
	if err := dst.Settle(ctx, "jobs", []queue.Settlement{{ID: got[0].ID, Receipt: got[0].Receipt, Kind: queue.SettleAck}}); err != nil {
		t.Fatal(err)
	}
	again, err := migrate.Run(ctx, migrate.Side{Queues: src}, migrate.Side{Queues: dst}, stores, migrate.Options{})
	if err != nil || again[0].Skipped != 2 || again[0].Copied != 0 {
		t.Fatalf("second run after a delivery: %+v %v, want both skipped", again, err)
	}
	if n, _ := dst.Depth(ctx, "jobs"); n != 1 {
		t.Errorf("destination depth %d after the second run, want 1: the delivered message came back", n)
	}
}
