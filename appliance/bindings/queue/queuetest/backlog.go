package queuetest

import (
	"testing"
	"time"

	"github.com/dwk/fleet/appliance/bindings/queue"
	"github.com/dwk/fleet/appliance/worker"
)

// testBacklogs checks Backlogs counts what Depth counts on every queue at
// once, ages the oldest message from its send time (dead-lettering keeps
// it), and leaves emptied queues out. Other subtests share the store, so
// only this subtest's queues are looked at.
func testBacklogs(t *testing.T, h *harness) {
	b, q, dlq, empty := h.open(t), h.name(t, "q"), h.name(t, "dlq"), h.name(t, "empty")
	start := time.Now()
	mustSend(t, b, q, msg("old"), msg("claimed"))
	mustSend(t, b, dlq, msg("dead"))
	mustSend(t, b, empty, msg("acked"))
	time.Sleep(300 * time.Millisecond)
	mustSend(t, b, q, worker.QueueMessage{Body: []byte("delayed"), QueueSendOptions: worker.QueueSendOptions{Delay: time.Hour}})
	mustClaim(t, b, q, 1, long)
	mustSettle(t, b, empty, ack(mustClaim(t, b, empty, 1, long)[0]))
	// Dead-letter the second message of q into dlq: dlq's oldest is then
	// still its own first message, and q keeps its first.
	ds := mustClaim(t, b, q, 1, long)
	mustSettle(t, b, q, queue.Settlement{ID: ds[0].ID, Receipt: ds[0].Receipt, Kind: queue.SettleDeadLetter, DeadLetterQueue: dlq})

	bls, err := b.Backlogs(ctxFor(t))
	if err != nil {
		t.Fatalf("Backlogs: %v", err)
	}
	elapsed := time.Since(start)
	got := map[string]queue.Backlog{}
	for _, bl := range bls {
		if _, dup := got[bl.Queue]; dup {
			t.Errorf("Backlogs lists %s twice", bl.Queue)
		}
		got[bl.Queue] = bl
	}
	for name, want := range map[string]int{q: 2, dlq: 2} {
		bl, ok := got[name]
		if !ok {
			t.Errorf("Backlogs lacks %s", name)
			continue
		}
		if bl.Depth != want || bl.Depth != depth(t, b, name) {
			t.Errorf("%s: Backlog depth %d, want %d (as Depth)", name, bl.Depth, want)
		}
		// Allow a second of clock skew between the broker's clock and ours.
		if bl.OldestAge < 200*time.Millisecond || bl.OldestAge > elapsed+time.Second {
			t.Errorf("%s: oldest age %s, want from the first send (300ms to %s ago)", name, bl.OldestAge, elapsed)
		}
	}
	if bl, ok := got[empty]; ok {
		t.Errorf("Backlogs lists the emptied queue: %+v", bl)
	}
}
