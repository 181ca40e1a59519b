package queue

import (
	"context"
	"fmt"

	"github.com/dwk/fleet/appliance/worker"
)

// Producer is the worker.Queue binding for one queue: it validates input
// against the queue API limits and hands it to a Sender.
type Producer struct {
	sender Sender
	queue  string
}

var _ worker.Queue = (*Producer)(nil)

// NewProducer returns the producer binding of queue over s.
func NewProducer(s Sender, queue string) (*Producer, error) {
	if err := ValidateName(queue); err != nil {
		return nil, err
	}
	return &Producer{sender: s, queue: queue}, nil
}

// Send enqueues one message. opts may be nil.
func (p *Producer) Send(ctx context.Context, body []byte, opts *worker.QueueSendOptions) error {
	m := worker.QueueMessage{Body: body}
	if opts != nil {
		m.QueueSendOptions = *opts
	}
	return p.SendBatch(ctx, []worker.QueueMessage{m})
}

// SendBatch enqueues 1 to 100 messages atomically. A message without a
// ContentType is sent as "bytes".
func (p *Producer) SendBatch(ctx context.Context, msgs []worker.QueueMessage) error {
	if err := ValidateBatch(msgs); err != nil {
		return fmt.Errorf("send to queue %q: %w", p.queue, err)
	}
	if err := p.sender.Send(ctx, p.queue, normalize(msgs)); err != nil {
		return fmt.Errorf("send to queue %q: %w", p.queue, err)
	}
	return nil
}
