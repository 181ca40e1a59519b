// Package queuetest is the conformance suite every queue.Broker passes
// unchanged, and it drives a queue.Consumer over the broker under test, so
// the consumer is proven on every backend too.
//
// Each subtest uses queue names no other subtest or earlier run uses, so
// open may return brokers on one shared, long-lived store. Timing tests use
// real visibility timeouts and delays of a few hundred milliseconds and poll
// with a deadline; the suite runs its subtests in parallel and takes a few
// seconds.
package queuetest

import (
	"context"
	"fmt"
	"io"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/dwk/fleet/appliance/bindings/queue"
	"github.com/dwk/fleet/appliance/worker"
	"github.com/dwk/fleet/test/wait"
)

// pollDeadline bounds every wait for a message to become visible.
const pollDeadline = 10 * time.Second

// Run runs the suite. Every call of open within one Run must return a new
// broker instance on the same storage, as another process opening it would
// get, and register its cleanup with t.Cleanup. If the broker implements
// io.Closer the suite may close it itself (to simulate a crash and restart),
// so that cleanup must tolerate a second Close.
func Run(t *testing.T, open func(t *testing.T) queue.Broker) {
	h := &harness{open: open, run: time.Now().UnixNano()}
	tests := []struct {
		name string
		fn   func(t *testing.T, h *harness)
	}{
		{"SendClaimAck", testSendClaimAck},
		{"SendValidation", testSendValidation},
		{"SendBatchAtomic", testSendBatchAtomic},
		{"QueueIsolation", testQueueIsolation},
		{"Delay", testDelay},
		{"ClaimMax", testClaimMax},
		{"ClaimValidation", testClaimValidation},
		{"VisibilityTimeoutRedelivers", testVisibilityTimeout},
		{"StaleReceiptIgnored", testStaleReceipt},
		{"LateSettleBeforeReclaim", testLateSettleBeforeReclaim},
		{"RetryWithDelay", testRetryWithDelay},
		{"RetryImmediate", testRetryImmediate},
		{"DeadLetter", testDeadLetter},
		{"DeadLetterDrop", testDeadLetterDrop},
		{"SettleValidation", testSettleValidation},
		{"DepthCountsEverything", testDepth},
		{"Backlogs", testBacklogs},
		{"ConcurrentClaimers", testConcurrentClaimers},
		{"ReopenAtLeastOnce", testReopen},
		{"Consumer/AcksOnSuccess", testConsumerAcks},
		{"Consumer/BatchSize", testConsumerBatchSize},
		{"Consumer/BatchTimeout", testConsumerBatchTimeout},
		{"Consumer/RetriesThenDeadLetter", testConsumerDeadLetter},
		{"Consumer/DropsWithoutDeadLetter", testConsumerDrop},
		{"Consumer/ExplicitDecisions", testConsumerDecisions},
		{"Consumer/PanicRetries", testConsumerPanic},
		{"Consumer/TimedOutClaimsCountAsAttempts", testConsumerTimedOutAttempts},
		{"Consumer/DrainFinishesInFlight", testConsumerDrain},
		{"Consumer/MaxConcurrency", testConsumerMaxConcurrency},
		{"Consumer/StopIsBounded", testConsumerStopBounded},
		{"Producer", testProducer},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			tt.fn(t, h)
		})
	}
}

type harness struct {
	open func(t *testing.T) queue.Broker
	run  int64
	seq  atomic.Int64
}

// name returns a queue name unique to this subtest and run.
func (h *harness) name(t *testing.T, suffix string) string {
	n := strings.NewReplacer("/", ".", " ", "_").Replace(t.Name())
	name := fmt.Sprintf("qt.%d.%d.%s.%s", h.run, h.seq.Add(1), n, suffix)
	if len(name) > queue.MaxQueueName {
		name = name[len(name)-queue.MaxQueueName:]
	}
	return name
}

func ctxFor(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	return ctx
}

func msg(body string) worker.QueueMessage {
	return worker.QueueMessage{Body: []byte(body)}
}

func mustSend(t *testing.T, b queue.Broker, q string, msgs ...worker.QueueMessage) {
	t.Helper()
	if err := b.Send(ctxFor(t), q, msgs); err != nil {
		t.Fatalf("Send to %s: %v", q, err)
	}
}

func mustClaim(t *testing.T, b queue.Broker, q string, max int, vis time.Duration) []queue.Delivery {
	t.Helper()
	ds, err := b.Claim(ctxFor(t), q, max, vis)
	if err != nil {
		t.Fatalf("Claim from %s: %v", q, err)
	}
	return ds
}

func mustSettle(t *testing.T, b queue.Broker, q string, ss ...queue.Settlement) {
	t.Helper()
	if err := b.Settle(ctxFor(t), q, ss); err != nil {
		t.Fatalf("Settle on %s: %v", q, err)
	}
}

func depth(t *testing.T, b queue.Broker, q string) int {
	t.Helper()
	n, err := b.Depth(ctxFor(t), q)
	if err != nil {
		t.Fatalf("Depth of %s: %v", q, err)
	}
	return n
}

func ack(d queue.Delivery) queue.Settlement {
	return queue.Settlement{ID: d.ID, Receipt: d.Receipt, Kind: queue.SettleAck}
}

func bodies(ds []queue.Delivery) []string {
	out := make([]string, len(ds))
	for i, d := range ds {
		out[i] = string(d.Body)
	}
	return out
}

// claimEventually polls Claim until it returns at least one message.
func claimEventually(t *testing.T, b queue.Broker, q string, max int, vis time.Duration) []queue.Delivery {
	t.Helper()
	var ds []queue.Delivery
	wait.Within(t, pollDeadline, "a message to become claimable on "+q, func() bool {
		ds = mustClaim(t, b, q, max, vis)
		return len(ds) > 0
	})
	return ds
}

// closeBroker closes b if it can be closed, as a crash or restart would.
func closeBroker(t *testing.T, b queue.Broker) {
	t.Helper()
	if c, ok := b.(io.Closer); ok {
		if err := c.Close(); err != nil {
			t.Fatalf("Close: %v", err)
		}
	}
}
