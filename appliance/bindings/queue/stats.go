package queue

import "sync/atomic"

// ConsumerStats are a Consumer's counters since it was created, for metrics.
type ConsumerStats struct {
	// Batches and Delivered count handler calls and the messages in them.
	Batches, Delivered int64
	// Acked, Retried, DeadLettered and Dropped count settled messages by
	// outcome. Dropped messages exhausted their retries with no dead-letter
	// queue configured.
	Acked, Retried, DeadLettered, Dropped int64
	// HandlerErrors counts batches whose handler returned an error or
	// panicked.
	HandlerErrors int64
	// ClaimErrors and SettleErrors count failed broker calls.
	ClaimErrors, SettleErrors int64
}

type stats struct {
	batches, delivered                    atomic.Int64
	acked, retried, deadLettered, dropped atomic.Int64
	handlerErrors                         atomic.Int64
	claimErrors, settleErrors             atomic.Int64
}

// Stats returns a snapshot of the consumer's counters.
func (c *Consumer) Stats() ConsumerStats {
	s := &c.stats
	return ConsumerStats{
		Batches: s.batches.Load(), Delivered: s.delivered.Load(),
		Acked: s.acked.Load(), Retried: s.retried.Load(),
		DeadLettered: s.deadLettered.Load(), Dropped: s.dropped.Load(),
		HandlerErrors: s.handlerErrors.Load(),
		ClaimErrors:   s.claimErrors.Load(), SettleErrors: s.settleErrors.Load(),
	}
}
