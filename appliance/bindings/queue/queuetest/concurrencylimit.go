package queuetest

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/dwk/fleet/appliance/worker"
	"github.com/dwk/fleet/test/wait"
)

// testConsumerMaxConcurrency sends 6 one-message batches to a consumer
// with MaxConcurrency 3 whose handler holds each batch until three run at
// once: three do, never more, and all six are acked.
func testConsumerMaxConcurrency(t *testing.T, h *harness) {
	for _, limit := range []int{1, 3} {
		b, q := h.open(t), h.name(t, "q")
		for range 6 {
			mustSend(t, b, q, msg("m"))
		}
		var mu sync.Mutex
		running, peak, done := 0, 0, 0
		full := make(chan struct{})
		var fullOnce sync.Once
		cfg := fastConfig(q)
		cfg.MaxBatchSize = 1
		cfg.MaxBatchTimeout = 0
		cfg.MaxConcurrency = limit
		c := startConsumer(t, b, cfg, func(ctx context.Context, _ *worker.MessageBatch) error {
			mu.Lock()
			running++
			peak = max(peak, running)
			if running == limit {
				fullOnce.Do(func() { close(full) })
			}
			mu.Unlock()
			// Hold the batch until the limit is reached once (or a while,
			// for batches after it), so a consumer running batches one at
			// a time cannot pass.
			select {
			case <-full:
			case <-time.After(pollDeadline):
			case <-ctx.Done():
			}
			mu.Lock()
			running--
			done++
			mu.Unlock()
			return nil
		})
		wait.Within(t, pollDeadline, "6 batches acked", func() bool {
			mu.Lock()
			defer mu.Unlock()
			return done == 6 && c.Stats().Acked == 6
		})
		mu.Lock()
		if peak != limit {
			t.Errorf("max_concurrency %d: %d batches ran at once", limit, peak)
		}
		mu.Unlock()
	}
}
