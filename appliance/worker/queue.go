package worker

import (
	"context"
	"errors"
	"sync"
	"time"
)

// Queue is a queue producer binding. A nil error means the message is
// durably stored: it will be delivered at least once.
type Queue interface {
	// Send enqueues one message.
	Send(ctx context.Context, body []byte, opts *QueueSendOptions) error
	// SendBatch enqueues up to 100 messages atomically: all or none.
	SendBatch(ctx context.Context, msgs []QueueMessage) error
}

// QueueSendOptions are the optional parts of a send.
type QueueSendOptions struct {
	// Delay postpones delivery; at most 12 hours.
	Delay time.Duration
	// ContentType is passed through to the consumer ("json", "text",
	// "bytes"; default "bytes").
	ContentType string
}

// QueueMessage is one message of SendBatch.
type QueueMessage struct {
	Body []byte
	QueueSendOptions
}

// Limits of the queue API.
const (
	QueueMaxBatch   = 100
	QueueMaxBody    = 128 << 10
	QueueMaxDelay   = 12 * time.Hour
	QueueMaxRetries = 100
)

// Errors for bad queue input.
var (
	ErrQueueBodyTooLarge = errors.New("queue: message body exceeds 128 KiB")
	ErrQueueBatchSize    = errors.New("queue: a batch holds 1 to 100 messages")
	ErrQueueDelay        = errors.New("queue: delay must be between 0 and 12h")
)

// MessageBatch is what a QueueConsumer receives. Its methods are safe for
// concurrent use.
type MessageBatch struct {
	// Queue is the name of the queue the messages came from.
	Queue    string
	Messages []*Message
}

// Message is one delivered message.
type Message struct {
	ID          string
	Timestamp   time.Time
	Body        []byte
	ContentType string
	// Attempts counts deliveries including this one (first delivery: 1).
	Attempts int

	mu       sync.Mutex
	decision Decision
}

// Decision is what a consumer decided for a message.
type Decision struct {
	// Kind is DecisionNone, DecisionAck or DecisionRetry.
	Kind DecisionKind
	// Delay postpones a retried message.
	Delay time.Duration
}

// DecisionKind enumerates consumer decisions.
type DecisionKind int

// Consumer decisions. The first explicit decision for a message wins.
const (
	DecisionNone DecisionKind = iota
	DecisionAck
	DecisionRetry
)

// Ack marks the message delivered; it will not be redelivered.
func (m *Message) Ack() { m.decide(Decision{Kind: DecisionAck}) }

// Retry asks for redelivery after delay (0: the queue's default).
func (m *Message) Retry(delay time.Duration) { m.decide(Decision{Kind: DecisionRetry, Delay: delay}) }

// Decision returns the consumer's decision so far.
func (m *Message) Decision() Decision {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.decision
}

func (m *Message) decide(d Decision) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.decision.Kind == DecisionNone {
		m.decision = d
	}
}

// AckAll acks every message that has no decision yet.
func (b *MessageBatch) AckAll() {
	for _, m := range b.Messages {
		m.Ack()
	}
}

// RetryAll retries every message that has no decision yet.
func (b *MessageBatch) RetryAll(delay time.Duration) {
	for _, m := range b.Messages {
		m.Retry(delay)
	}
}

type unboundQueue struct{ err error }

var _ Queue = unboundQueue{}

func (u unboundQueue) Send(context.Context, []byte, *QueueSendOptions) error { return u.err }
func (u unboundQueue) SendBatch(context.Context, []QueueMessage) error       { return u.err }
