package queue

import (
	"errors"
	"testing"
	"time"

	"github.com/dwk/fleet/appliance/worker"
)

func TestSettlementFromDecision(t *testing.T) {
	failed := errors.New("handler failed")
	const def = 7 * time.Second
	tests := []struct {
		name     string
		decision worker.Decision
		err      error
		attempts int
		want     Settlement
	}{
		{"none, ok → ack", worker.Decision{}, nil, 1, Settlement{Kind: SettleAck}},
		{"none, error → retry with default", worker.Decision{}, failed, 1, Settlement{Kind: SettleRetry, Delay: def}},
		{"explicit ack wins over error", worker.Decision{Kind: worker.DecisionAck}, failed, 1, Settlement{Kind: SettleAck}},
		{"explicit retry wins over success", worker.Decision{Kind: worker.DecisionRetry}, nil, 1, Settlement{Kind: SettleRetry, Delay: def}},
		{"explicit retry delay wins", worker.Decision{Kind: worker.DecisionRetry, Delay: time.Second}, nil, 1, Settlement{Kind: SettleRetry, Delay: time.Second}},
		{"retry delay capped at 12h", worker.Decision{Kind: worker.DecisionRetry, Delay: 48 * time.Hour}, nil, 1, Settlement{Kind: SettleRetry, Delay: worker.QueueMaxDelay}},
		{"last allowed retry", worker.Decision{}, failed, 3, Settlement{Kind: SettleRetry, Delay: def}},
		{"retries exhausted → dead letter", worker.Decision{}, failed, 4, Settlement{Kind: SettleDeadLetter, DeadLetterQueue: "dlq"}},
		{"exhausted but acked → ack", worker.Decision{Kind: worker.DecisionAck}, nil, 4, Settlement{Kind: SettleAck}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := Delivery{ID: "id", Receipt: "r", Attempts: tt.attempts}
			got := settlement(d, decide(tt.decision, tt.err, def), 3, "dlq")
			tt.want.ID, tt.want.Receipt = "id", "r"
			if got != tt.want {
				t.Errorf("got %+v, want %+v", got, tt.want)
			}
		})
	}
}

func TestConsumerConfigValidate(t *testing.T) {
	if err := DefaultConsumerConfig("q").Validate(); err != nil {
		t.Fatalf("defaults invalid: %v", err)
	}
	tests := []struct {
		name   string
		modify func(c *ConsumerConfig)
	}{
		{"no queue", func(c *ConsumerConfig) { c.Queue = "" }},
		{"batch 0", func(c *ConsumerConfig) { c.MaxBatchSize = 0 }},
		{"batch 101", func(c *ConsumerConfig) { c.MaxBatchSize = 101 }},
		{"negative batch timeout", func(c *ConsumerConfig) { c.MaxBatchTimeout = -1 }},
		{"negative retries", func(c *ConsumerConfig) { c.MaxRetries = -1 }},
		{"101 retries", func(c *ConsumerConfig) { c.MaxRetries = 101 }},
		{"dlq is queue", func(c *ConsumerConfig) { c.DeadLetterQueue = "q" }},
		{"negative retry delay", func(c *ConsumerConfig) { c.RetryDelay = -1 }},
		{"retry delay over 12h", func(c *ConsumerConfig) { c.RetryDelay = 13 * time.Hour }},
		{"no visibility", func(c *ConsumerConfig) { c.VisibilityTimeout = 0 }},
		{"visibility within batch wait", func(c *ConsumerConfig) { c.VisibilityTimeout = c.MaxBatchTimeout }},
		{"no poll interval", func(c *ConsumerConfig) { c.PollInterval = 0 }},
		{"no settle timeout", func(c *ConsumerConfig) { c.SettleTimeout = 0 }},
	}
	for _, tt := range tests {
		c := DefaultConsumerConfig("q")
		tt.modify(&c)
		if err := c.Validate(); !errors.Is(err, ErrConfig) {
			t.Errorf("%s: Validate = %v, want ErrConfig", tt.name, err)
		}
	}
	c := DefaultConsumerConfig("")
	c.MaxBatchSize, c.PollInterval = 0, 0
	if err := c.Validate(); err == nil || len(err.(interface{ Unwrap() []error }).Unwrap()) != 3 {
		t.Errorf("Validate should report every problem, got %v", err)
	}
}

func TestValidateBatch(t *testing.T) {
	tests := []struct {
		msgs []worker.QueueMessage
		want error
	}{
		{[]worker.QueueMessage{{Body: make([]byte, worker.QueueMaxBody)}}, nil},
		{nil, worker.ErrQueueBatchSize},
		{make([]worker.QueueMessage, 101), worker.ErrQueueBatchSize},
		{[]worker.QueueMessage{{Body: make([]byte, worker.QueueMaxBody+1)}}, worker.ErrQueueBodyTooLarge},
		{[]worker.QueueMessage{{QueueSendOptions: worker.QueueSendOptions{Delay: worker.QueueMaxDelay}}}, nil},
		{[]worker.QueueMessage{{QueueSendOptions: worker.QueueSendOptions{Delay: -1}}}, worker.ErrQueueDelay},
	}
	for i, tt := range tests {
		if err := ValidateBatch(tt.msgs); !errors.Is(err, tt.want) {
			t.Errorf("case %d: ValidateBatch = %v, want %v", i, err, tt.want)
		}
	}
}
