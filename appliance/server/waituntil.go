package server

import (
	"context"
	"time"

	"github.com/dwk/fleet/appliance/worker"
)

// queueWithBackground gives a queue handler's context the tracker of
// background work, for worker.WaitUntil.
type queueWithBackground struct {
	h  worker.QueueConsumer
	bg worker.Background
}

var _ worker.QueueConsumer = queueWithBackground{}

func (q queueWithBackground) Queue(ctx context.Context, b *worker.MessageBatch, env *worker.Env) error {
	return q.h.Queue(worker.WithBackground(ctx, q.bg), b, env)
}

// backgroundBudget is the part of the drain's remaining time that
// background work (worker.WaitUntil) may take: all but a fifth, which is
// kept for the steps after it (draining objects, handing leases back), so
// a task that never ends cannot make the handback miss the deadline.
func backgroundBudget(ctx context.Context) (context.Context, context.CancelFunc) {
	dl, ok := ctx.Deadline()
	if !ok {
		return context.WithCancel(ctx)
	}
	return context.WithDeadline(ctx, dl.Add(-time.Until(dl)/5))
}
