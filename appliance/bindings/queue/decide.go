package queue

import (
	"time"

	"github.com/dwk/fleet/appliance/worker"
)

// outcome is how the consumer settles one delivery, before the retry budget
// is applied.
type outcome struct {
	retry bool
	delay time.Duration
}

// decide turns the handler's result into an outcome for one message: an
// explicit Ack or Retry wins; otherwise a nil handler error acks and a
// non-nil one retries. A retry without its own delay uses defaultDelay.
func decide(d worker.Decision, handlerErr error, defaultDelay time.Duration) outcome {
	switch d.Kind {
	case worker.DecisionAck:
		return outcome{}
	case worker.DecisionRetry:
		if d.Delay > 0 {
			return outcome{retry: true, delay: min(d.Delay, worker.QueueMaxDelay)}
		}
		return outcome{retry: true, delay: defaultDelay}
	}
	if handlerErr == nil {
		return outcome{}
	}
	return outcome{retry: true, delay: defaultDelay}
}

// settlement applies the retry budget: a retry of a message that has been
// delivered more than maxRetries times becomes a dead-letter settlement.
func settlement(d Delivery, o outcome, maxRetries int, deadLetter string) Settlement {
	s := Settlement{ID: d.ID, Receipt: d.Receipt, Kind: SettleAck}
	if !o.retry {
		return s
	}
	if d.Attempts > maxRetries {
		s.Kind, s.DeadLetterQueue = SettleDeadLetter, deadLetter
		return s
	}
	s.Kind, s.Delay = SettleRetry, o.delay
	return s
}
