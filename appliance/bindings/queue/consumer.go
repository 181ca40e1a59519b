package queue

import (
	"context"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/dwk/fleet/appliance/worker"
)

// Consumer feeds one queue to a worker's QueueConsumer: it claims batches
// from a Claimer, calls the handler, and settles every message according to
// the handler's decisions and the ConsumerConfig retry policy. Up to
// MaxConcurrency batches are in flight at a time: the loop claims the next
// batch while earlier ones run.
//
// Lifecycle: NewConsumer (no side effects) → Start → Drain and/or Stop.
type Consumer struct {
	cfg     ConsumerConfig
	claimer Claimer
	handler worker.QueueConsumer
	env     *worker.Env
	log     *slog.Logger
	stats   stats

	mu        sync.Mutex
	started   bool
	drainOnce sync.Once
	drain     chan struct{} // closed by Drain: claim no more
	done      chan struct{} // closed when the loop has exited
	runCtx    context.Context
	cancelRun context.CancelFunc // ends claims and the handler's context
}

// NewConsumer returns a consumer of cfg.Queue over c that calls h with env.
// log receives handler failures, settle failures and dropped messages; nil
// means slog.Default().
func NewConsumer(c Claimer, h worker.QueueConsumer, env *worker.Env, cfg ConsumerConfig, log *slog.Logger) (*Consumer, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if log == nil {
		log = slog.Default()
	}
	ctx, cancel := context.WithCancel(context.Background())
	return &Consumer{
		cfg: cfg, claimer: c, handler: h, env: env,
		log:   log.With("queue", cfg.Queue),
		drain: make(chan struct{}), done: make(chan struct{}),
		runCtx: ctx, cancelRun: cancel,
	}, nil
}

// Start starts the consumer's goroutine. It reports ErrStarted if called
// twice.
func (c *Consumer) Start() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.started {
		return fmt.Errorf("queue consumer %q: %w", c.cfg.Queue, ErrStarted)
	}
	c.started = true
	go c.loop()
	return nil
}

// Drain stops claiming: a batch that is being filled is dispatched as it
// is, the batch in flight finishes and is settled, and no further claim is
// made. It returns at once; Stop waits.
func (c *Consumer) Drain() {
	c.drainOnce.Do(func() { close(c.drain) })
}

// Stop drains the consumer and waits until its in-flight batch is settled
// and its goroutine has exited, or until ctx ends. In the latter case it
// cancels the handler's context, returns the context's error without waiting
// longer, and the unsettled messages come back after their visibility
// timeout.
func (c *Consumer) Stop(ctx context.Context) error {
	c.Drain()
	c.mu.Lock()
	started := c.started
	c.mu.Unlock()
	if !started {
		c.cancelRun()
		return nil
	}
	select {
	case <-c.done:
		return nil
	case <-ctx.Done():
		c.cancelRun()
		return fmt.Errorf("stop queue consumer %q: %w", c.cfg.Queue, ctx.Err())
	}
}

func (c *Consumer) draining() bool {
	select {
	case <-c.drain:
		return true
	default:
		return false
	}
}

// loop claims batches and runs each in a goroutine of its own, holding one
// of MaxConcurrency slots from before its claim until it is settled. On
// drain it waits for the batches in flight.
func (c *Consumer) loop() {
	defer close(c.done)
	defer c.cancelRun()
	slots := make(chan struct{}, c.cfg.MaxConcurrency)
	var inFlight sync.WaitGroup
	defer inFlight.Wait()
	for !c.draining() {
		select {
		case slots <- struct{}{}:
		case <-c.drain:
			return
		}
		batch, leaseEnd := c.fill()
		if len(batch) == 0 {
			<-slots
			continue
		}
		inFlight.Add(1)
		go func() {
			defer inFlight.Done()
			defer func() { <-slots }()
			c.dispatch(batch, leaseEnd)
		}()
	}
}

// fill claims until the batch is full, MaxBatchTimeout has passed since its
// first message, or the consumer drains. leaseEnd is when the earliest claim
// in the batch times out, judged by the local clock from before the claim.
func (c *Consumer) fill() (batch []Delivery, leaseEnd time.Time) {
	var fillBy <-chan time.Time
	for {
		if c.draining() || c.runCtx.Err() != nil {
			return batch, leaseEnd
		}
		claimedAt := time.Now()
		ds, err := c.claimer.Claim(c.runCtx, c.cfg.Queue, c.cfg.MaxBatchSize-len(batch), c.cfg.VisibilityTimeout)
		if err != nil && c.runCtx.Err() == nil {
			c.stats.claimErrors.Add(1)
			c.log.Error("queue claim failed", "err", err)
		}
		ds = c.deadLetterExhausted(ds)
		if len(ds) > 0 && len(batch) == 0 {
			leaseEnd = claimedAt.Add(c.cfg.VisibilityTimeout)
			t := time.NewTimer(c.cfg.MaxBatchTimeout)
			defer t.Stop()
			fillBy = t.C
		}
		batch = append(batch, ds...)
		if len(batch) >= c.cfg.MaxBatchSize || (len(batch) > 0 && c.cfg.MaxBatchTimeout == 0) {
			return batch, leaseEnd
		}
		poll := time.NewTimer(c.cfg.PollInterval)
		select {
		case <-c.drain:
			poll.Stop()
			return batch, leaseEnd
		case <-fillBy:
			poll.Stop()
			return batch, leaseEnd
		case <-poll.C:
		}
	}
}

// deadLetterExhausted settles, without calling the handler, deliveries whose
// previous claim was the last one the retry budget allowed and timed out;
// it returns the others.
func (c *Consumer) deadLetterExhausted(ds []Delivery) []Delivery {
	var keep []Delivery
	var ss []Settlement
	for _, d := range ds {
		if d.Attempts > c.cfg.MaxRetries+1 {
			ss = append(ss, settlement(d, outcome{retry: true}, c.cfg.MaxRetries, c.cfg.DeadLetterQueue))
			continue
		}
		keep = append(keep, d)
	}
	if len(ss) > 0 {
		c.settle(ss, ds)
	}
	return keep
}

// dispatch runs the handler on one batch and settles it.
func (c *Consumer) dispatch(batch []Delivery, leaseEnd time.Time) {
	msgs := make([]*worker.Message, len(batch))
	for i, d := range batch {
		msgs[i] = &worker.Message{ID: d.ID, Timestamp: d.Timestamp, Body: d.Body, ContentType: d.ContentType, Attempts: d.Attempts}
	}
	c.stats.batches.Add(1)
	c.stats.delivered.Add(int64(len(batch)))
	ctx, cancel := context.WithDeadline(c.runCtx, leaseEnd)
	err := c.call(ctx, &worker.MessageBatch{Queue: c.cfg.Queue, Messages: msgs})
	cancel()
	if err != nil {
		c.stats.handlerErrors.Add(1)
		c.log.Warn("queue handler failed", "messages", len(batch), "err", err)
	}
	ss := make([]Settlement, len(batch))
	for i, d := range batch {
		ss[i] = settlement(d, decide(msgs[i].Decision(), err, c.cfg.RetryDelay), c.cfg.MaxRetries, c.cfg.DeadLetterQueue)
	}
	c.settle(ss, batch)
}

// call runs the handler, turning a panic into an error so one bad batch
// cannot take the host down.
func (c *Consumer) call(ctx context.Context, b *worker.MessageBatch) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("%w: %v", ErrConsumerPanic, r)
		}
	}()
	return c.handler.Queue(ctx, b, c.env)
}

// settle records outcomes even after Stop gave up waiting, bounded by
// SettleTimeout: a settled message is one fewer duplicate. On failure the
// messages come back after their visibility timeout.
func (c *Consumer) settle(ss []Settlement, ds []Delivery) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(c.runCtx), c.cfg.SettleTimeout)
	defer cancel()
	if err := c.claimer.Settle(ctx, c.cfg.Queue, ss); err != nil {
		c.stats.settleErrors.Add(1)
		c.log.Error("queue settle failed; messages will be redelivered", "messages", len(ss), "err", err)
		return
	}
	attempts := make(map[string]int, len(ds))
	for _, d := range ds {
		attempts[d.ID] = d.Attempts
	}
	for _, s := range ss {
		switch {
		case s.Kind == SettleAck:
			c.stats.acked.Add(1)
		case s.Kind == SettleRetry:
			c.stats.retried.Add(1)
		case s.DeadLetterQueue != "":
			c.stats.deadLettered.Add(1)
			c.log.Warn("queue message dead-lettered", "id", s.ID, "attempts", attempts[s.ID], "dead_letter_queue", s.DeadLetterQueue)
		default:
			c.stats.dropped.Add(1)
			c.log.Warn("queue message dropped after exhausting retries; no dead-letter queue configured", "id", s.ID, "attempts", attempts[s.ID])
		}
	}
}
