package queuecentral

import (
	"context"
	"fmt"
	"log/slog"
	"path/filepath"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/dwk/fleet/appliance/bindings/queue"
	"github.com/dwk/fleet/appliance/bindings/queue/queuelocal"
	"github.com/dwk/fleet/appliance/worker"
)

// BenchmarkEndToEnd measures messages per second through one queue: two
// producers send batches of 100 while N consumers (each on a broker of its
// own: a client of its own for central, a connection pool of its own for
// local) claim batches of 100 and ack them; the clock stops when the last
// message is acked, so ns/op is the time per message. The local broker
// (SQLite file, no network) runs beside the central one (libSQL over
// loopback HTTP) as the baseline. Run it with a fixed count, e.g.
//
//	go test -run '^$' -bench EndToEnd -benchtime 20000x ./appliance/bindings/queue/queuecentral
func BenchmarkEndToEnd(b *testing.B) {
	db := newQueueDB(b)
	path := filepath.Join(b.TempDir(), "queues.db")
	backends := []struct {
		name string
		open func(b *testing.B) (queue.Broker, func() uint64)
	}{
		{"local", func(b *testing.B) (queue.Broker, func() uint64) {
			br, err := queuelocal.Open(context.Background(), path, queuelocal.Options{})
			if err != nil {
				b.Fatal(err)
			}
			b.Cleanup(func() { br.Close() })
			return br, func() uint64 { return 0 }
		}},
		{"central", func(b *testing.B) (queue.Broker, func() uint64) {
			br := db.open(b, Options{})
			return br, br.c.RoundTrips
		}},
	}
	for _, be := range backends {
		for _, consumers := range []int{1, 4} {
			b.Run(fmt.Sprintf("backend=%s/consumers=%d", be.name, consumers), func(b *testing.B) {
				benchEndToEnd(b, consumers, be.open)
			})
		}
	}
}

func benchEndToEnd(b *testing.B, consumers int, open func(*testing.B) (queue.Broker, func() uint64)) {
	q := "bench-" + strconv.FormatInt(time.Now().UnixNano(), 36)
	total := b.N
	var acked atomic.Int64
	done := make(chan struct{})
	var doneOnce sync.Once
	cfg := queue.DefaultConsumerConfig(q)
	cfg.MaxBatchSize = 100
	cfg.MaxBatchTimeout = 0
	cfg.PollInterval = 5 * time.Millisecond
	var trips []func() uint64
	var cs []*queue.Consumer
	for range consumers {
		br, rt := open(b)
		trips = append(trips, rt)
		c, err := queue.NewConsumer(br, handlerFunc(func(_ context.Context, mb *worker.MessageBatch) error {
			if acked.Add(int64(len(mb.Messages))) >= int64(total) {
				doneOnce.Do(func() { close(done) })
			}
			return nil
		}), nil, cfg, slog.New(slog.DiscardHandler))
		if err != nil {
			b.Fatal(err)
		}
		cs = append(cs, c)
	}
	var producers []queue.Broker
	for range 2 {
		br, rt := open(b)
		producers, trips = append(producers, br), append(trips, rt)
	}
	body := make([]byte, 100)

	b.ResetTimer()
	start := time.Now()
	for _, c := range cs {
		if err := c.Start(); err != nil {
			b.Fatal(err)
		}
	}
	var wg sync.WaitGroup
	var next atomic.Int64
	for _, p := range producers {
		wg.Go(func() {
			for {
				from := int(next.Add(100)) - 100
				if from >= total {
					return
				}
				batch := make([]worker.QueueMessage, min(100, total-from))
				for i := range batch {
					batch[i].Body = body
				}
				if err := p.Send(context.Background(), q, batch); err != nil {
					b.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
	sendTook := time.Since(start)
	select {
	case <-done:
	case <-time.After(5 * time.Minute):
		b.Fatalf("only %d of %d messages acked", acked.Load(), total)
	}
	took := time.Since(start)
	b.StopTimer()
	for _, c := range cs {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		c.Stop(ctx)
		cancel()
	}
	var n uint64
	for _, rt := range trips {
		n += rt()
	}
	b.ReportMetric(float64(total)/took.Seconds(), "msgs/s")
	b.ReportMetric(float64(total)/sendTook.Seconds(), "sent-msgs/s")
	b.ReportMetric(float64(n)/float64(total), "roundtrips/msg")
}
