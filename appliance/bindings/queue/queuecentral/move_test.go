package queuecentral

import (
	"bytes"
	"context"
	"crypto/sha256"
	"testing"
	"time"

	"github.com/dwk/fleet/appliance/bindings/queue"
)

// TestImport: imported messages keep their ids and delays; an id imported
// before is not stored again, even after it was delivered.
func TestImport(t *testing.T) {
	ctx := context.Background()
	b := newQueueDB(t).open(t, Options{})
	msgs := []queue.Stored{
		{ID: "m1", Body: []byte("one"), ContentType: "text"},
		{ID: "m2", Body: []byte{}, ContentType: "bytes", Delay: time.Hour},
	}
	if err := b.Import(ctx, "jobs", msgs); err != nil {
		t.Fatal(err)
	}
	got, err := b.Backlog(ctx, "jobs")
	if err != nil || len(got) != 2 || got[0].ID != "m1" || string(got[0].Body) != "one" || got[1].ID != "m2" || got[1].Delay < 59*time.Minute {
		t.Fatalf("backlog %+v %v, want both with m2 an hour away", got, err)
	}
	d, err := b.Claim(ctx, "jobs", 10, time.Minute)
	if err != nil || len(d) != 1 {
		t.Fatalf("claim: %+v %v", d, err)
	}
	if err := b.Settle(ctx, "jobs", []queue.Settlement{{ID: d[0].ID, Receipt: d[0].Receipt, Kind: queue.SettleAck}}); err != nil {
		t.Fatal(err)
	}
	if err := b.Import(ctx, "jobs", msgs); err != nil {
		t.Fatal(err)
	}
	if n, _ := b.Depth(ctx, "jobs"); n != 1 {
		t.Errorf("depth %d after importing again, want 1: the delivered message came back", n)
	}
	imp, err := b.Imported(ctx, "jobs")
	sum := sha256.Sum256([]byte("one"))
	if err != nil || len(imp) != 2 {
		t.Fatalf("imported %+v %v", imp, err)
	}
	for _, m := range imp {
		if m.ID == "m1" && (!bytes.Equal(m.BodySHA256, sum[:]) || m.ContentType != "text") {
			t.Errorf("imported m1: %+v", m)
		}
	}
}
