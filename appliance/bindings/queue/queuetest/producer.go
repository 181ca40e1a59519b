package queuetest

import (
	"errors"
	"testing"
	"time"

	"github.com/dwk/fleet/appliance/bindings/queue"
	"github.com/dwk/fleet/appliance/worker"
)

func testProducer(t *testing.T, h *harness) {
	b, q := h.open(t), h.name(t, "q")
	p, err := queue.NewProducer(b, q)
	if err != nil {
		t.Fatal(err)
	}
	ctx := ctxFor(t)
	if err := p.Send(ctx, []byte("plain"), nil); err != nil {
		t.Fatalf("Send: %v", err)
	}
	if err := p.Send(ctx, []byte(`{}`), &worker.QueueSendOptions{ContentType: "json", Delay: time.Hour}); err != nil {
		t.Fatalf("Send delayed: %v", err)
	}
	if err := p.SendBatch(ctx, []worker.QueueMessage{msg("b1"), msg("b2")}); err != nil {
		t.Fatalf("SendBatch: %v", err)
	}
	bad := []struct {
		err  error
		send func() error
	}{
		{worker.ErrQueueBodyTooLarge, func() error { return p.Send(ctx, make([]byte, worker.QueueMaxBody+1), nil) }},
		{worker.ErrQueueDelay, func() error {
			return p.Send(ctx, nil, &worker.QueueSendOptions{Delay: worker.QueueMaxDelay + time.Second})
		}},
		{worker.ErrQueueBatchSize, func() error { return p.SendBatch(ctx, nil) }},
		{worker.ErrQueueBatchSize, func() error { return p.SendBatch(ctx, make([]worker.QueueMessage, 101)) }},
	}
	for i, c := range bad {
		if err := c.send(); !errors.Is(err, c.err) {
			t.Errorf("bad send %d: err = %v, want %v", i, err, c.err)
		}
	}
	if got := depth(t, b, q); got != 4 {
		t.Errorf("Depth = %d, want 4", got)
	}
	ds := mustClaim(t, b, q, 10, time.Minute)
	if len(ds) != 3 || ds[0].ContentType != queue.DefaultContentType || string(ds[0].Body) != "plain" {
		t.Errorf("claimed %+v; want plain (type %q), b1, b2", ds, queue.DefaultContentType)
	}
	if _, err := queue.NewProducer(b, ""); !errors.Is(err, queue.ErrQueueName) {
		t.Errorf("NewProducer(\"\") err = %v, want ErrQueueName", err)
	}
}
