// Package queue is the host side of Workers Queues: the Broker contract that
// storage backends implement, the Producer that gives workers a validated
// worker.Queue over a Broker, and the Consumer that feeds batches from a
// Broker to a worker's worker.QueueConsumer.
//
// Delivery is at least once. A claim is a lease: a claimed message is hidden
// for a visibility timeout and comes back if it is not settled in time, so a
// crashed consumer loses nothing. Retry policy (max_retries, dead-letter
// queue, default retry delay) belongs to the Consumer, which turns each
// handler outcome into a Settlement; brokers only execute settlements, so
// every backend behaves alike.
//
// Backends: queuelocal (SQLite, local mode) and the central libSQL broker.
// queuetest is the conformance suite they all pass.
package queue

import (
	"context"
	"errors"
	"time"

	"github.com/dwk/fleet/appliance/worker"
)

// Sender stores messages. It is the part of a broker the Producer needs.
type Sender interface {
	// Send durably stores msgs on queue, all or none, and returns nil only
	// once they are stored. Each message becomes claimable after its Delay.
	// msgs must satisfy ValidateBatch; brokers check it again.
	Send(ctx context.Context, queue string, msgs []worker.QueueMessage) error
}

// Claimer leases and settles messages. It is the part of a broker the
// Consumer needs.
type Claimer interface {
	// Claim leases up to max messages of queue that are visible now, in
	// the order they became visible (send order for fresh messages), hiding
	// each for visibility and counting the delivery in its Attempts. Every returned Delivery has a fresh Receipt. Claim does not
	// wait for messages: it returns an empty slice when none is visible.
	// Two claims never return the same message while the first claim's
	// visibility timeout has not passed.
	Claim(ctx context.Context, queue string, max int, visibility time.Duration) ([]Delivery, error)
	// Settle applies settlements of deliveries from queue atomically: all or
	// none. A settlement whose Receipt is no longer the message's current
	// one (it was settled already, or claimed again after its visibility
	// timeout passed) is skipped without error, because the newer claim
	// decides; a settlement that arrives after the timeout but before any
	// new claim still applies.
	Settle(ctx context.Context, queue string, settlements []Settlement) error
}

// Broker is a complete queue backend.
type Broker interface {
	Sender
	Claimer
	// Depth counts the messages stored on queue that are not yet acked or
	// dead-lettered: visible, delayed and claimed alike.
	Depth(ctx context.Context, queue string) (int, error)
	// Backlogs reports every queue that stores messages, in one query, for
	// metrics. Queues with no stored message are left out.
	Backlogs(ctx context.Context) ([]Backlog, error)
}

// Backlog is what one queue stores, as Backlogs reports it.
type Backlog struct {
	Queue string
	// Depth counts the stored messages, as Depth does.
	Depth int
	// OldestAge is how long ago the oldest of them was sent, by the
	// broker's clock; a dead-lettered message keeps its send time.
	OldestAge time.Duration
}

// Delivery is one claimed message.
type Delivery struct {
	// ID identifies the message; it is unique across queues and is kept when
	// the message is dead-lettered.
	ID string
	// Timestamp is when the message was sent.
	Timestamp   time.Time
	Body        []byte
	ContentType string
	// Attempts counts claims of the message, including this one (first
	// delivery: 1), whether earlier ones were retried or timed out.
	Attempts int
	// Receipt identifies this claim; Settle needs it.
	Receipt string
}

// SettleKind is what happens to a settled message.
type SettleKind int

// Settlement kinds.
const (
	// SettleAck deletes the message.
	SettleAck SettleKind = iota + 1
	// SettleRetry makes the message visible again after Delay, keeping its
	// Attempts; the next claim counts one more.
	SettleRetry
	// SettleDeadLetter moves the message to DeadLetterQueue (same ID, body,
	// content type and timestamp, Attempts reset to 0, visible at once), or
	// deletes it when DeadLetterQueue is empty.
	SettleDeadLetter
)

// String names the kind for logs.
func (k SettleKind) String() string {
	switch k {
	case SettleAck:
		return "ack"
	case SettleRetry:
		return "retry"
	case SettleDeadLetter:
		return "dead-letter"
	}
	return "invalid"
}

// Settlement is the outcome of one delivery.
type Settlement struct {
	ID      string
	Receipt string
	Kind    SettleKind
	// Delay postpones a SettleRetry; 0 makes the message visible at once.
	Delay time.Duration
	// DeadLetterQueue is where SettleDeadLetter moves the message; empty
	// drops it.
	DeadLetterQueue string
}

// Errors of the queue host. Bad message input is reported with the worker
// package's errors (worker.ErrQueueBodyTooLarge and friends).
var (
	ErrQueueName     = errors.New("queue: name must be 1 to 255 bytes")
	ErrClaim         = errors.New("queue: claim needs max 1 to 100 and a positive visibility timeout")
	ErrSettlement    = errors.New("queue: invalid settlement")
	ErrConfig        = errors.New("queue: invalid consumer config")
	ErrStarted       = errors.New("queue: consumer already started")
	ErrConsumerPanic = errors.New("queue: consumer handler panicked")
)
