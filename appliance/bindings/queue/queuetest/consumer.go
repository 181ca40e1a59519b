package queuetest

import (
	"context"
	"errors"
	"log/slog"
	"reflect"
	"sync"
	"testing"
	"time"

	"github.com/dwk/fleet/appliance/bindings/queue"
	"github.com/dwk/fleet/appliance/worker"
	"github.com/dwk/fleet/test/wait"
)

// handlerFunc adapts a function to worker.QueueConsumer.
type handlerFunc func(ctx context.Context, b *worker.MessageBatch) error

var _ worker.QueueConsumer = handlerFunc(nil)

// Queue calls f.
func (f handlerFunc) Queue(ctx context.Context, b *worker.MessageBatch, _ *worker.Env) error {
	return f(ctx, b)
}

// fastConfig is DefaultConsumerConfig with waits short enough for tests.
func fastConfig(q string) queue.ConsumerConfig {
	c := queue.DefaultConsumerConfig(q)
	c.MaxBatchTimeout = 100 * time.Millisecond
	c.PollInterval = 10 * time.Millisecond
	c.VisibilityTimeout = 30 * time.Second
	return c
}

func startConsumer(t *testing.T, b queue.Broker, cfg queue.ConsumerConfig, h handlerFunc) *queue.Consumer {
	t.Helper()
	c, err := queue.NewConsumer(b, h, worker.NewEnv("queuetest", worker.Bindings{}), cfg, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatalf("NewConsumer: %v", err)
	}
	if err := c.Start(); err != nil {
		t.Fatalf("Start: %v", err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if err := c.Stop(ctx); err != nil {
			t.Errorf("Stop: %v", err)
		}
	})
	return c
}

// seen is one message as the handler saw it.
type seen struct {
	Body     string
	Attempts int
}

// recorder records every batch a handler receives.
type recorder struct {
	mu      sync.Mutex
	batches [][]seen
}

func (r *recorder) add(b *worker.MessageBatch) {
	r.mu.Lock()
	defer r.mu.Unlock()
	var s []seen
	for _, m := range b.Messages {
		s = append(s, seen{string(m.Body), m.Attempts})
	}
	r.batches = append(r.batches, s)
}

func (r *recorder) all() []seen {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []seen
	for _, b := range r.batches {
		out = append(out, b...)
	}
	return out
}

func (r *recorder) sizes() []int {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []int
	for _, b := range r.batches {
		out = append(out, len(b))
	}
	return out
}

func testConsumerAcks(t *testing.T, h *harness) {
	b, q := h.open(t), h.name(t, "q")
	mustSend(t, b, q, msg("a"), msg("b"), msg("c"))
	rec := &recorder{}
	c := startConsumer(t, b, fastConfig(q), func(_ context.Context, mb *worker.MessageBatch) error {
		if mb.Queue != q {
			t.Errorf("batch.Queue = %q, want %q", mb.Queue, q)
		}
		rec.add(mb)
		return nil
	})
	wait.Within(t, pollDeadline, "all messages acked", func() bool { return depth(t, b, q) == 0 && c.Stats().Acked == 3 })
	if got, want := rec.all(), []seen{{"a", 1}, {"b", 1}, {"c", 1}}; !reflect.DeepEqual(got, want) {
		t.Errorf("handler saw %v, want %v", got, want)
	}
}

func testConsumerBatchSize(t *testing.T, h *harness) {
	b, q := h.open(t), h.name(t, "q")
	var msgs []worker.QueueMessage
	for range 25 {
		msgs = append(msgs, msg("m"))
	}
	mustSend(t, b, q, msgs...)
	rec := &recorder{}
	cfg := fastConfig(q)
	cfg.MaxBatchSize = 10
	startConsumer(t, b, cfg, func(_ context.Context, mb *worker.MessageBatch) error { rec.add(mb); return nil })
	wait.Within(t, pollDeadline, "25 messages handled", func() bool { return len(rec.all()) == 25 })
	sizes := rec.sizes()
	if sizes[0] != 10 {
		t.Errorf("first batch had %d messages, want a full 10 (sizes %v)", sizes[0], sizes)
	}
	for _, n := range sizes {
		if n > 10 {
			t.Errorf("batch of %d exceeds max_batch_size 10 (sizes %v)", n, sizes)
		}
	}
}

func testConsumerBatchTimeout(t *testing.T, h *harness) {
	b, q := h.open(t), h.name(t, "q")
	cfg := fastConfig(q)
	cfg.MaxBatchTimeout = 300 * time.Millisecond
	dispatched := make(chan time.Time, 10)
	rec := &recorder{}
	startConsumer(t, b, cfg, func(_ context.Context, mb *worker.MessageBatch) error {
		rec.add(mb)
		dispatched <- time.Now()
		return nil
	})
	sent := time.Now()
	mustSend(t, b, q, msg("lonely"))
	select {
	case at := <-dispatched:
		if wait := at.Sub(sent); wait < cfg.MaxBatchTimeout-50*time.Millisecond {
			t.Errorf("partial batch dispatched after %s, want it to wait about %s", wait, cfg.MaxBatchTimeout)
		}
	case <-time.After(pollDeadline):
		t.Fatal("partial batch never dispatched")
	}
	if got := rec.sizes(); !reflect.DeepEqual(got, []int{1}) {
		t.Errorf("batch sizes = %v, want [1]", got)
	}
}

func testConsumerDeadLetter(t *testing.T, h *harness) {
	b, q, dlq := h.open(t), h.name(t, "q"), h.name(t, "dlq")
	mustSend(t, b, q, msg("poison"))
	cfg := fastConfig(q)
	cfg.MaxRetries, cfg.DeadLetterQueue = 2, dlq
	rec := &recorder{}
	c := startConsumer(t, b, cfg, func(_ context.Context, mb *worker.MessageBatch) error {
		rec.add(mb)
		return errors.New("handler fails")
	})
	wait.Within(t, pollDeadline, "message dead-lettered", func() bool { return depth(t, b, dlq) == 1 })
	if got := depth(t, b, q); got != 0 {
		t.Errorf("source Depth = %d, want 0", got)
	}
	if got, want := rec.all(), []seen{{"poison", 1}, {"poison", 2}, {"poison", 3}}; !reflect.DeepEqual(got, want) {
		t.Errorf("deliveries = %v, want %v (1 + max_retries)", got, want)
	}
	if s := c.Stats(); s.Retried != 2 || s.DeadLettered != 1 || s.HandlerErrors != 3 {
		t.Errorf("stats = %+v, want 2 retried, 1 dead-lettered, 3 handler errors", s)
	}
}

func testConsumerDrop(t *testing.T, h *harness) {
	b, q := h.open(t), h.name(t, "q")
	mustSend(t, b, q, msg("poison"))
	cfg := fastConfig(q)
	cfg.MaxRetries = 0
	rec := &recorder{}
	c := startConsumer(t, b, cfg, func(_ context.Context, mb *worker.MessageBatch) error {
		rec.add(mb)
		return errors.New("handler fails")
	})
	wait.Within(t, pollDeadline, "message dropped", func() bool { return c.Stats().Dropped == 1 })
	if got := depth(t, b, q); got != 0 {
		t.Errorf("Depth = %d, want 0", got)
	}
	if got := len(rec.all()); got != 1 {
		t.Errorf("delivered %d times, want 1 with max_retries 0", got)
	}
}

func testConsumerDecisions(t *testing.T, h *harness) {
	b, q := h.open(t), h.name(t, "q")
	mustSend(t, b, q, msg("acked"), msg("retried"), msg("defaulted"))
	cfg := fastConfig(q)
	cfg.MaxBatchSize = 3
	cfg.RetryDelay = time.Hour
	rec := &recorder{}
	var calls sync.Map
	startConsumer(t, b, cfg, func(_ context.Context, mb *worker.MessageBatch) error {
		rec.add(mb)
		if _, again := calls.LoadOrStore("first", true); again {
			return nil
		}
		for _, m := range mb.Messages {
			switch string(m.Body) {
			case "acked":
				m.Ack()
				m.Retry(0) // the first decision wins
			case "retried":
				m.Retry(10 * time.Millisecond) // explicit delay beats retry_delay
			}
		}
		return errors.New("handler fails") // undecided messages retry after retry_delay
	})
	wait.Within(t, pollDeadline, "explicitly retried message redelivered and acked", func() bool { return len(rec.all()) == 4 && depth(t, b, q) == 1 })
	got := rec.all()
	if want := (seen{"retried", 2}); got[3] != want {
		t.Errorf("redelivery = %v, want %v", got[3], want)
	}
	if ds := mustClaim(t, b, q, 10, time.Minute); len(ds) != 0 {
		t.Errorf("message retried with retry_delay 1h is visible: %q", bodies(ds))
	}
}

func testConsumerPanic(t *testing.T, h *harness) {
	b, q := h.open(t), h.name(t, "q")
	mustSend(t, b, q, msg("m"))
	rec := &recorder{}
	c := startConsumer(t, b, fastConfig(q), func(_ context.Context, mb *worker.MessageBatch) error {
		rec.add(mb)
		if mb.Messages[0].Attempts == 1 {
			panic("boom")
		}
		return nil
	})
	wait.Within(t, pollDeadline, "message acked after a panic", func() bool { return depth(t, b, q) == 0 })
	if got, want := rec.all(), []seen{{"m", 1}, {"m", 2}}; !reflect.DeepEqual(got, want) {
		t.Errorf("deliveries = %v, want %v", got, want)
	}
	if s := c.Stats(); s.HandlerErrors != 1 {
		t.Errorf("HandlerErrors = %d, want 1", s.HandlerErrors)
	}
}

func testConsumerTimedOutAttempts(t *testing.T, h *harness) {
	b, q, dlq := h.open(t), h.name(t, "q"), h.name(t, "dlq")
	mustSend(t, b, q, msg("crashes its consumer"))
	// Two consumers claimed it and died: both claims time out.
	for range 2 {
		claimEventually(t, b, q, 1, 50*time.Millisecond)
	}
	cfg := fastConfig(q)
	cfg.MaxRetries, cfg.DeadLetterQueue = 1, dlq
	rec := &recorder{}
	c := startConsumer(t, b, cfg, func(_ context.Context, mb *worker.MessageBatch) error { rec.add(mb); return nil })
	// The consumer counts a dead-lettered message after the broker has
	// it, so the count is waited for too.
	wait.Within(t, pollDeadline, "exhausted message dead-lettered and counted", func() bool {
		return depth(t, b, dlq) == 1 && c.Stats().DeadLettered == 1
	})
	if got := rec.all(); len(got) != 0 {
		t.Errorf("handler called with %v; an exhausted message must go straight to the dead-letter queue", got)
	}
}

func testConsumerDrain(t *testing.T, h *harness) {
	b, q := h.open(t), h.name(t, "q")
	mustSend(t, b, q, msg("in flight"))
	entered, release := make(chan struct{}), make(chan struct{})
	rec := &recorder{}
	cfg := fastConfig(q)
	cfg.MaxBatchTimeout = 0
	c, err := queue.NewConsumer(b, handlerFunc(func(_ context.Context, mb *worker.MessageBatch) error {
		rec.add(mb)
		close(entered)
		<-release
		return nil
	}), nil, cfg, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	select {
	case <-entered:
	case <-time.After(pollDeadline):
		t.Fatal("handler never called")
	}
	c.Drain()
	mustSend(t, b, q, msg("after drain"))
	stopped := make(chan error, 1)
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), pollDeadline)
		defer cancel()
		stopped <- c.Stop(ctx)
	}()
	select {
	case err := <-stopped:
		t.Fatalf("Stop returned (%v) before the in-flight batch finished", err)
	case <-time.After(100 * time.Millisecond):
	}
	close(release)
	if err := <-stopped; err != nil {
		t.Fatalf("Stop = %v", err)
	}
	if got, want := rec.all(), []seen{{"in flight", 1}}; !reflect.DeepEqual(got, want) {
		t.Errorf("handler saw %v, want only %v", got, want)
	}
	ds := mustClaim(t, b, q, 10, time.Minute)
	if got := bodies(ds); !reflect.DeepEqual(got, []string{"after drain"}) || ds[0].Attempts != 1 {
		t.Errorf("left on queue: %+v; want only the message sent after drain, never claimed", ds)
	}
}

func testConsumerStopBounded(t *testing.T, h *harness) {
	b, q := h.open(t), h.name(t, "q")
	mustSend(t, b, q, msg("stuck"))
	entered := make(chan struct{})
	cancelled := make(chan error, 1)
	cfg := fastConfig(q)
	cfg.MaxBatchTimeout = 0
	c, err := queue.NewConsumer(b, handlerFunc(func(ctx context.Context, _ *worker.MessageBatch) error {
		close(entered)
		<-ctx.Done()
		cancelled <- ctx.Err()
		return ctx.Err()
	}), nil, cfg, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	<-entered
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	start := time.Now()
	if err := c.Stop(ctx); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("Stop = %v, want DeadlineExceeded", err)
	}
	if took := time.Since(start); took > 2*time.Second {
		t.Errorf("Stop took %s past its deadline", took)
	}
	select {
	case err := <-cancelled:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("handler context ended with %v, want Canceled", err)
		}
	case <-time.After(pollDeadline):
		t.Fatal("handler context not cancelled after Stop gave up")
	}
}
