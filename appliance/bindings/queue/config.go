package queue

import (
	"errors"
	"fmt"
	"time"

	"github.com/dwk/fleet/appliance/worker"
)

// ConsumerConfig is the consumer side of one queue binding. Start from
// DefaultConsumerConfig: zero values are taken literally (MaxRetries 0 means
// no retries), and Validate rejects the ones that make no sense.
type ConsumerConfig struct {
	// Queue is the queue consumed.
	Queue string
	// MaxBatchSize is the most messages handed to the worker at once,
	// 1 to 100. Default: 10.
	MaxBatchSize int
	// MaxBatchTimeout is how long a batch that is not full waits for more
	// messages, counted from its first message; 0 dispatches at once.
	// Default: 5s.
	MaxBatchTimeout time.Duration
	// MaxRetries is how many times a failed message is retried before it is
	// dead-lettered, 0 to 100. A claim whose visibility timeout passed counts
	// as a failed attempt. Default: 3.
	MaxRetries int
	// DeadLetterQueue receives messages that exhausted their retries; empty
	// drops them (logged and counted in ConsumerStats.Dropped). It must
	// differ from Queue. Default: "".
	DeadLetterQueue string
	// RetryDelay postpones a retried message when the worker gives no delay
	// (including messages retried because the handler failed), 0 to 12h.
	// Default: 0.
	RetryDelay time.Duration
	// VisibilityTimeout is how long a claimed batch stays hidden from other
	// consumers. The handler's context ends when the earliest claim of its
	// batch times out, since its messages may then be redelivered elsewhere.
	// Default: 1m.
	VisibilityTimeout time.Duration
	// MaxConcurrency is how many batches are handed to the worker at
	// once, at least 1 (dwk.json caps it; see config.Consumer); each is
	// claimed, run and settled on its own. Default: 1.
	MaxConcurrency int
	// PollInterval is how long the consumer waits before asking the broker
	// again when it found no message, or when filling a batch. Default: 1s.
	PollInterval time.Duration
	// SettleTimeout bounds the call that records a batch's outcome. Default: 10s.
	SettleTimeout time.Duration
}

// DefaultConsumerConfig returns the defaults for consuming queue.
func DefaultConsumerConfig(queue string) ConsumerConfig {
	return ConsumerConfig{
		Queue:             queue,
		MaxBatchSize:      10,
		MaxBatchTimeout:   5 * time.Second,
		MaxRetries:        3,
		RetryDelay:        0,
		VisibilityTimeout: time.Minute,
		MaxConcurrency:    1,
		PollInterval:      time.Second,
		SettleTimeout:     10 * time.Second,
	}
}

// Validate reports every problem of c, each wrapping ErrConfig.
func (c ConsumerConfig) Validate() error {
	var errs []error
	bad := func(format string, args ...any) {
		errs = append(errs, fmt.Errorf("queue consumer %q: "+format+": %w", append(append([]any{c.Queue}, args...), ErrConfig)...))
	}
	if err := ValidateName(c.Queue); err != nil {
		bad("queue: %v", err)
	}
	if c.MaxBatchSize < 1 || c.MaxBatchSize > worker.QueueMaxBatch {
		bad("max_batch_size %d not in 1..%d", c.MaxBatchSize, worker.QueueMaxBatch)
	}
	if c.MaxBatchTimeout < 0 {
		bad("max_batch_timeout %s is negative", c.MaxBatchTimeout)
	}
	if c.MaxRetries < 0 || c.MaxRetries > worker.QueueMaxRetries {
		bad("max_retries %d not in 0..%d", c.MaxRetries, worker.QueueMaxRetries)
	}
	if c.DeadLetterQueue != "" {
		if err := ValidateName(c.DeadLetterQueue); err != nil {
			bad("dead_letter_queue: %v", err)
		} else if c.DeadLetterQueue == c.Queue {
			bad("dead_letter_queue is the queue itself")
		}
	}
	if c.RetryDelay < 0 || c.RetryDelay > worker.QueueMaxDelay {
		bad("retry_delay %s not in 0..%s", c.RetryDelay, worker.QueueMaxDelay)
	}
	if c.VisibilityTimeout <= 0 {
		bad("visibility_timeout %s must be positive", c.VisibilityTimeout)
	} else if c.VisibilityTimeout <= c.MaxBatchTimeout {
		bad("visibility_timeout %s must exceed max_batch_timeout %s", c.VisibilityTimeout, c.MaxBatchTimeout)
	}
	if c.MaxConcurrency < 1 {
		bad("max_concurrency %d must be at least 1", c.MaxConcurrency)
	}
	if c.PollInterval <= 0 {
		bad("poll_interval %s must be positive", c.PollInterval)
	}
	if c.SettleTimeout <= 0 {
		bad("settle_timeout %s must be positive", c.SettleTimeout)
	}
	return errors.Join(errs...)
}
