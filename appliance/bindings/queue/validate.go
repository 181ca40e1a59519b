package queue

import (
	"fmt"
	"time"

	"github.com/dwk/fleet/appliance/worker"
)

// MaxQueueName is the longest queue name in bytes.
const MaxQueueName = 255

// ValidateName reports ErrQueueName unless name is 1 to 255 bytes.
func ValidateName(name string) error {
	if name == "" || len(name) > MaxQueueName {
		return fmt.Errorf("queue name %q: %w", name, ErrQueueName)
	}
	return nil
}

// ValidateBatch checks msgs against the limits of the queue API: 1 to 100
// messages, bodies of at most 128 KiB, delays of 0 to 12 h.
func ValidateBatch(msgs []worker.QueueMessage) error {
	if len(msgs) == 0 || len(msgs) > worker.QueueMaxBatch {
		return fmt.Errorf("batch of %d: %w", len(msgs), worker.ErrQueueBatchSize)
	}
	for i, m := range msgs {
		if len(m.Body) > worker.QueueMaxBody {
			return fmt.Errorf("message %d: %d bytes: %w", i, len(m.Body), worker.ErrQueueBodyTooLarge)
		}
		if m.Delay < 0 || m.Delay > worker.QueueMaxDelay {
			return fmt.Errorf("message %d: delay %s: %w", i, m.Delay, worker.ErrQueueDelay)
		}
	}
	return nil
}

// ValidateClaim reports ErrClaim unless max is 1 to 100 and visibility is
// positive.
func ValidateClaim(max int, visibility time.Duration) error {
	if max < 1 || max > worker.QueueMaxBatch || visibility <= 0 {
		return fmt.Errorf("max %d, visibility %s: %w", max, visibility, ErrClaim)
	}
	return nil
}

// ValidateSettlements reports ErrSettlement for a settlement without ID or
// Receipt, of an unknown kind, with a negative or over-12h delay, or
// dead-lettering to an invalid queue name or to queue itself.
func ValidateSettlements(queue string, ss []Settlement) error {
	for i, s := range ss {
		switch {
		case s.ID == "" || s.Receipt == "":
			return fmt.Errorf("settlement %d: missing id or receipt: %w", i, ErrSettlement)
		case s.Kind < SettleAck || s.Kind > SettleDeadLetter:
			return fmt.Errorf("settlement %d: kind %d: %w", i, s.Kind, ErrSettlement)
		case s.Delay < 0 || s.Delay > worker.QueueMaxDelay:
			return fmt.Errorf("settlement %d: delay %s: %w", i, s.Delay, ErrSettlement)
		case s.Kind == SettleDeadLetter && s.DeadLetterQueue != "" &&
			(s.DeadLetterQueue == queue || ValidateName(s.DeadLetterQueue) != nil):
			return fmt.Errorf("settlement %d: dead-letter queue %q: %w", i, s.DeadLetterQueue, ErrSettlement)
		}
	}
	return nil
}

// normalize returns a copy of msgs with the default content type filled in.
func normalize(msgs []worker.QueueMessage) []worker.QueueMessage {
	out := make([]worker.QueueMessage, len(msgs))
	for i, m := range msgs {
		if m.ContentType == "" {
			m.ContentType = DefaultContentType
		}
		out[i] = m
	}
	return out
}

// DefaultContentType is the content type of a message sent without one.
const DefaultContentType = "bytes"
