package queuetest

import (
	"sync"
	"testing"
	"time"

	"github.com/dwk/fleet/appliance/bindings/queue"
	"github.com/dwk/fleet/appliance/worker"
)

func testConcurrentClaimers(t *testing.T, h *harness) {
	brokers := []queue.Broker{h.open(t), h.open(t)}
	q := h.name(t, "q")
	const total = 60
	var msgs []worker.QueueMessage
	for range total {
		msgs = append(msgs, msg("m"))
	}
	mustSend(t, brokers[0], q, msgs...)

	var (
		mu   sync.Mutex
		seen = map[string]int{}
		wg   sync.WaitGroup
	)
	for i := range 6 {
		b := brokers[i%len(brokers)]
		wg.Go(func() {
			for {
				ds, err := b.Claim(ctxFor(t), q, 3, time.Minute)
				if err != nil {
					t.Errorf("Claim: %v", err)
					return
				}
				if len(ds) == 0 {
					return
				}
				mu.Lock()
				for _, d := range ds {
					seen[d.ID]++
				}
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	if len(seen) != total {
		t.Errorf("claimed %d distinct messages, want %d", len(seen), total)
	}
	for id, n := range seen {
		if n > 1 {
			t.Errorf("message %s claimed %d times while its claim was live", id, n)
		}
	}
}

func testReopen(t *testing.T, h *harness) {
	b1, q := h.open(t), h.name(t, "q")
	mustSend(t, b1, q, msg("claimed then crashed"), msg("never claimed"))
	crashed := mustClaim(t, b1, q, 1, 300*time.Millisecond)
	if len(crashed) != 1 {
		t.Fatal("claim failed")
	}
	closeBroker(t, b1)

	b2 := h.open(t)
	first := mustClaim(t, b2, q, 10, time.Minute)
	if got := bodies(first); len(got) != 1 || got[0] != "never claimed" {
		t.Fatalf("after reopen claimed %q, want the unclaimed message", got)
	}
	back := claimEventually(t, b2, q, 10, time.Minute)
	if len(back) != 1 || back[0].ID != crashed[0].ID || back[0].Attempts != 2 {
		t.Fatalf("after the crashed claim timed out got %+v, want it back with Attempts 2", back)
	}
	mustSettle(t, b2, q, ack(first[0]), ack(back[0]))
	if got := depth(t, b2, q); got != 0 {
		t.Errorf("Depth = %d, want 0", got)
	}
}
