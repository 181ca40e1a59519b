package queuecentral

import (
	"context"
	"log/slog"
	"math/rand/v2"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/dwk/fleet/appliance/bindings/queue"
	"github.com/dwk/fleet/appliance/worker"
)

// handlerFunc adapts a function to worker.QueueConsumer.
type handlerFunc func(ctx context.Context, b *worker.MessageBatch) error

func (f handlerFunc) Queue(ctx context.Context, b *worker.MessageBatch, _ *worker.Env) error {
	return f(ctx, b)
}

// ledger records every delivery by message body.
type ledger struct {
	mu         sync.Mutex
	seen       map[string]int
	deliveries int
}

func (l *ledger) record(b *worker.MessageBatch) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, m := range b.Messages {
		l.seen[string(m.Body)]++
		l.deliveries++
	}
}

func (l *ledger) distinct() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.seen)
}

// slot is one consumer process: a broker on a client of its own and a
// Consumer over it.
type slot struct {
	broker   *Broker
	consumer *queue.Consumer
}

// TestManyConsumersLoseNothing sends 10,000 messages while four consumer
// processes, each with its own client, are stopped and restarted over and
// over — gracefully (drain) or by a crash (the broker closes under the
// consumer, so its batch is never settled and comes back after the
// visibility timeout). Every message must be delivered at least once;
// the duplicates are counted and reported.
func TestManyConsumersLoseNothing(t *testing.T) {
	const (
		total     = 10000
		consumers = 4
		q         = "orders"
	)
	db := newQueueDB(t)
	quiet := slog.New(slog.DiscardHandler)
	led := &ledger{seen: map[string]int{}}
	cfg := queue.DefaultConsumerConfig(q)
	cfg.MaxBatchSize = 50
	cfg.MaxBatchTimeout = 0
	cfg.PollInterval = 10 * time.Millisecond
	cfg.VisibilityTimeout = 2 * time.Second
	cfg.MaxRetries = 100

	start := func() slot {
		b := db.open(t, Options{})
		c, err := queue.NewConsumer(b, handlerFunc(func(_ context.Context, mb *worker.MessageBatch) error {
			led.record(mb)
			return nil
		}), nil, cfg, quiet)
		if err != nil {
			t.Fatal(err)
		}
		if err := c.Start(); err != nil {
			t.Fatal(err)
		}
		return slot{b, c}
	}
	stop := func(s slot, crash bool) {
		timeout := 10 * time.Second
		if crash {
			s.broker.Close() // the in-flight claim or settle fails
			timeout = 10 * time.Millisecond
		}
		ctx, cancel := context.WithTimeout(context.Background(), timeout)
		defer cancel()
		if err := s.consumer.Stop(ctx); err != nil && !crash {
			t.Errorf("graceful stop: %v", err)
		}
	}
	slots := make([]slot, consumers)
	for i := range slots {
		slots[i] = start()
	}

	producer := db.open(t, Options{})
	sent := make(chan error, 1)
	go func() {
		for i := 0; i < total; i += 100 {
			batch := make([]worker.QueueMessage, 100)
			for j := range batch {
				batch[j].Body = []byte("m" + strconv.Itoa(i+j))
			}
			if err := producer.Send(context.Background(), q, batch); err != nil {
				sent <- err
				return
			}
		}
		sent <- nil
	}()

	began := time.Now()
	rng := rand.New(rand.NewPCG(1, 2))
	restarts, crashes := 0, 0
	deadline := time.Now().Add(90 * time.Second)
	producing := true
	for led.distinct() < total {
		if time.Now().After(deadline) {
			t.Fatalf("after 90s only %d of %d messages delivered", led.distinct(), total)
		}
		select {
		case err := <-sent:
			if err != nil {
				t.Fatalf("send: %v", err)
			}
			producing = false
			t.Logf("all sent after %s, %d delivered", time.Since(began), led.distinct())
		case <-time.After(100 * time.Millisecond):
		}
		if producing || restarts < 12 {
			i := rng.IntN(consumers)
			crash := rng.IntN(2) == 0
			stop(slots[i], crash)
			slots[i] = start()
			restarts++
			if crash {
				crashes++
			}
		}
	}
	// Batches of crashed consumers come back after the visibility timeout
	// and are acked by the running ones: in the end nothing is left.
	waitDepthZero(t, producer, q, 2*cfg.VisibilityTimeout+10*time.Second)
	for _, s := range slots {
		stop(s, false)
	}
	if producing {
		if err := <-sent; err != nil {
			t.Fatal(err)
		}
	}
	led.mu.Lock()
	defer led.mu.Unlock()
	for i := range total {
		if led.seen["m"+strconv.Itoa(i)] == 0 {
			t.Errorf("message m%d lost", i)
		}
	}
	dups := led.deliveries - total
	t.Logf("%d messages, %d deliveries, %d duplicates (%.2f%%), %d consumer restarts of which %d crashes",
		total, led.deliveries, dups, 100*float64(dups)/total, restarts, crashes)
}

// waitDepthZero polls q's depth until it is zero or within passes.
func waitDepthZero(t *testing.T, b *Broker, q string, within time.Duration) {
	t.Helper()
	deadline := time.Now().Add(within)
	for {
		n, err := b.Depth(ctxFor(t), q)
		if err != nil {
			t.Fatal(err)
		}
		if n == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("depth still %d after %s", n, within)
		}
		time.Sleep(50 * time.Millisecond)
	}
}
