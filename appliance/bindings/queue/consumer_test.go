package queue

import (
	"context"
	"errors"
	"log/slog"
	"sync"
	"testing"
	"time"

	"github.com/dwk/fleet/appliance/worker"
	"github.com/dwk/fleet/test/wait"
)

// fakeClaimer is an in-memory Claimer whose Claim always fails or hands out
// a fixed list once, and which records settlements.
type fakeClaimer struct {
	mu       sync.Mutex
	pending  []Delivery
	claimErr error
	settled  []Settlement
	claims   int
}

var _ Claimer = (*fakeClaimer)(nil)

func (f *fakeClaimer) Claim(_ context.Context, _ string, max int, _ time.Duration) ([]Delivery, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.claims++
	if f.claimErr != nil {
		return nil, f.claimErr
	}
	n := min(max, len(f.pending))
	out := f.pending[:n]
	f.pending = f.pending[n:]
	return out, nil
}

func (f *fakeClaimer) Settle(_ context.Context, _ string, ss []Settlement) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.settled = append(f.settled, ss...)
	return nil
}

func (f *fakeClaimer) snapshot() (claims int, settled []Settlement) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.claims, append([]Settlement(nil), f.settled...)
}

type okHandler struct{}

func (okHandler) Queue(context.Context, *worker.MessageBatch, *worker.Env) error { return nil }

func testConfig() ConsumerConfig {
	c := DefaultConsumerConfig("q")
	c.PollInterval = time.Millisecond
	c.MaxBatchTimeout = 0
	return c
}

func TestConsumerLifecycle(t *testing.T) {
	if _, err := NewConsumer(&fakeClaimer{}, okHandler{}, nil, ConsumerConfig{}, nil); !errors.Is(err, ErrConfig) {
		t.Errorf("NewConsumer(zero config) err = %v, want ErrConfig", err)
	}
	c, err := NewConsumer(&fakeClaimer{}, okHandler{}, nil, testConfig(), slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Stop(context.Background()); err != nil {
		t.Errorf("Stop before Start = %v", err)
	}

	c, err = NewConsumer(&fakeClaimer{}, okHandler{}, nil, testConfig(), slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	if err := c.Start(); !errors.Is(err, ErrStarted) {
		t.Errorf("second Start = %v, want ErrStarted", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := c.Stop(ctx); err != nil {
		t.Errorf("Stop = %v", err)
	}
}

func TestConsumerSurvivesClaimErrors(t *testing.T) {
	f := &fakeClaimer{claimErr: errors.New("store unreachable")}
	c, err := NewConsumer(f, okHandler{}, nil, testConfig(), slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	wait.For(t, "the consumer to keep polling after claim errors", func() bool { return c.Stats().ClaimErrors >= 3 })
	f.mu.Lock()
	f.claimErr = nil
	f.pending = []Delivery{{ID: "a", Receipt: "r", Attempts: 1}}
	f.mu.Unlock()
	wait.For(t, "the consumer to recover after claim errors", func() bool { _, settled := f.snapshot(); return len(settled) == 1 })
	if _, settled := f.snapshot(); settled[0].Kind != SettleAck {
		t.Errorf("settled %+v, want ack", settled[0])
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := c.Stop(ctx); err != nil {
		t.Fatal(err)
	}
	// Stop returned nil, so the loop has exited: no claim can follow.
	claims, _ := f.snapshot()
	if err := c.Stop(ctx); err != nil {
		t.Errorf("second Stop = %v", err)
	}
	if after, _ := f.snapshot(); after != claims {
		t.Errorf("consumer claimed %d more times after Stop", after-claims)
	}
}
