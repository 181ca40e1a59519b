package queuetest

import (
	"bytes"
	"errors"
	"reflect"
	"testing"
	"time"

	"github.com/dwk/fleet/appliance/bindings/queue"
	"github.com/dwk/fleet/appliance/worker"
)

const long = time.Minute

func testSendClaimAck(t *testing.T, h *harness) {
	b, q := h.open(t), h.name(t, "q")
	before := time.Now().Add(-time.Second)
	mustSend(t, b, q,
		worker.QueueMessage{Body: []byte(`{"n":1}`), QueueSendOptions: worker.QueueSendOptions{ContentType: "json"}},
		worker.QueueMessage{Body: []byte("two"), QueueSendOptions: worker.QueueSendOptions{ContentType: "text"}})
	mustSend(t, b, q, worker.QueueMessage{Body: []byte{0, 1, 0xff}})
	after := time.Now().Add(time.Second)
	if got := depth(t, b, q); got != 3 {
		t.Fatalf("Depth = %d, want 3", got)
	}
	ds := mustClaim(t, b, q, 10, long)
	if got, want := bodies(ds), []string{`{"n":1}`, "two", "\x00\x01\xff"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("claimed bodies = %q, want %q in send order", got, want)
	}
	if got, want := []string{ds[0].ContentType, ds[1].ContentType, ds[2].ContentType}, []string{"json", "text", queue.DefaultContentType}; !reflect.DeepEqual(got, want) {
		t.Errorf("content types = %q, want %q", got, want)
	}
	ids := map[string]bool{}
	for _, d := range ds {
		if d.ID == "" || d.Receipt == "" || ids[d.ID] {
			t.Errorf("delivery %+v: want a unique ID and a receipt", d)
		}
		ids[d.ID] = true
		if d.Attempts != 1 {
			t.Errorf("Attempts = %d, want 1", d.Attempts)
		}
		if d.Timestamp.Before(before) || d.Timestamp.After(after) {
			t.Errorf("Timestamp = %s, want about now", d.Timestamp)
		}
	}
	if again := mustClaim(t, b, q, 10, long); len(again) != 0 {
		t.Errorf("claimed messages were claimable again: %q", bodies(again))
	}
	mustSettle(t, b, q, ack(ds[0]), ack(ds[1]), ack(ds[2]))
	if got := depth(t, b, q); got != 0 {
		t.Errorf("Depth after ack = %d, want 0", got)
	}
}

func testSendValidation(t *testing.T, h *harness) {
	b, q := h.open(t), h.name(t, "q")
	ctx := ctxFor(t)
	tooMany := make([]worker.QueueMessage, worker.QueueMaxBatch+1)
	cases := []struct {
		name string
		q    string
		msgs []worker.QueueMessage
		want error
	}{
		{"empty batch", q, nil, worker.ErrQueueBatchSize},
		{"101 messages", q, tooMany, worker.ErrQueueBatchSize},
		{"big body", q, []worker.QueueMessage{{Body: make([]byte, worker.QueueMaxBody+1)}}, worker.ErrQueueBodyTooLarge},
		{"negative delay", q, []worker.QueueMessage{{QueueSendOptions: worker.QueueSendOptions{Delay: -time.Second}}}, worker.ErrQueueDelay},
		{"long delay", q, []worker.QueueMessage{{QueueSendOptions: worker.QueueSendOptions{Delay: worker.QueueMaxDelay + time.Second}}}, worker.ErrQueueDelay},
		{"no queue name", "", []worker.QueueMessage{msg("x")}, queue.ErrQueueName},
	}
	for _, c := range cases {
		if err := b.Send(ctx, c.q, c.msgs); !errors.Is(err, c.want) {
			t.Errorf("%s: Send err = %v, want %v", c.name, err, c.want)
		}
	}
	mustSend(t, b, q, worker.QueueMessage{Body: make([]byte, worker.QueueMaxBody)})
	if got := depth(t, b, q); got != 1 {
		t.Errorf("Depth = %d, want only the 128 KiB message", got)
	}
}

func testSendBatchAtomic(t *testing.T, h *harness) {
	b, q := h.open(t), h.name(t, "q")
	batch := []worker.QueueMessage{msg("ok"), {Body: make([]byte, worker.QueueMaxBody+1)}}
	if err := b.Send(ctxFor(t), q, batch); err == nil {
		t.Fatal("Send of a batch with an oversized message succeeded")
	}
	if got := depth(t, b, q); got != 0 {
		t.Errorf("failed batch left %d messages, want 0", got)
	}
	full := make([]worker.QueueMessage, worker.QueueMaxBatch)
	for i := range full {
		full[i] = msg("m")
	}
	mustSend(t, b, q, full...)
	if got := depth(t, b, q); got != worker.QueueMaxBatch {
		t.Errorf("Depth after 100-message batch = %d", got)
	}
}

func testQueueIsolation(t *testing.T, h *harness) {
	b, q1, q2 := h.open(t), h.name(t, "one"), h.name(t, "two")
	mustSend(t, b, q1, msg("for one"))
	if ds := mustClaim(t, b, q2, 10, long); len(ds) != 0 {
		t.Errorf("claimed %q from another queue", bodies(ds))
	}
	if got := depth(t, b, q2); got != 0 {
		t.Errorf("Depth of other queue = %d", got)
	}
}

func testDelay(t *testing.T, h *harness) {
	b, q := h.open(t), h.name(t, "q")
	const delay = 500 * time.Millisecond
	sent := time.Now()
	mustSend(t, b, q, worker.QueueMessage{Body: []byte("later"), QueueSendOptions: worker.QueueSendOptions{Delay: delay}}, msg("now"))
	if got := bodies(mustClaim(t, b, q, 10, long)); !reflect.DeepEqual(got, []string{"now"}) {
		t.Fatalf("first claim = %q, want only the undelayed message", got)
	}
	ds := claimEventually(t, b, q, 10, long)
	if elapsed := time.Since(sent); elapsed < delay-10*time.Millisecond {
		t.Errorf("delayed message claimable after %s, want ≥ %s", elapsed, delay)
	}
	if got := bodies(ds); !reflect.DeepEqual(got, []string{"later"}) {
		t.Errorf("delayed claim = %q", got)
	}
}

func testClaimMax(t *testing.T, h *harness) {
	b, q := h.open(t), h.name(t, "q")
	var msgs []worker.QueueMessage
	for range 25 {
		msgs = append(msgs, msg("m"))
	}
	mustSend(t, b, q, msgs...)
	for i, want := range []int{10, 10, 5, 0} {
		if got := len(mustClaim(t, b, q, 10, long)); got != want {
			t.Errorf("claim %d returned %d messages, want %d", i, got, want)
		}
	}
}

func testClaimValidation(t *testing.T, h *harness) {
	b, q := h.open(t), h.name(t, "q")
	ctx := ctxFor(t)
	for _, c := range []struct {
		max int
		vis time.Duration
	}{{0, long}, {101, long}, {1, 0}, {1, -time.Second}} {
		if _, err := b.Claim(ctx, q, c.max, c.vis); !errors.Is(err, queue.ErrClaim) {
			t.Errorf("Claim(max %d, vis %s) err = %v, want ErrClaim", c.max, c.vis, err)
		}
	}
	if _, err := b.Claim(ctx, "", 1, long); !errors.Is(err, queue.ErrQueueName) {
		t.Errorf("Claim(no name) err = %v, want ErrQueueName", err)
	}
}

func testVisibilityTimeout(t *testing.T, h *harness) {
	b, q := h.open(t), h.name(t, "q")
	mustSend(t, b, q, msg("m"))
	const vis = 300 * time.Millisecond
	claimed := time.Now()
	first := mustClaim(t, b, q, 1, vis)
	if len(first) != 1 {
		t.Fatalf("claimed %d, want 1", len(first))
	}
	if ds := mustClaim(t, b, q, 1, vis); len(ds) != 0 {
		t.Fatal("message claimable again while its claim is live")
	}
	second := claimEventually(t, b, q, 1, long)
	if elapsed := time.Since(claimed); elapsed < vis-10*time.Millisecond {
		t.Errorf("redelivered after %s, want ≥ %s", elapsed, vis)
	}
	d := second[0]
	if d.ID != first[0].ID || d.Attempts != 2 || d.Receipt == first[0].Receipt || !bytes.Equal(d.Body, []byte("m")) {
		t.Errorf("redelivery = %+v, want same ID and body, Attempts 2, a new receipt", d)
	}
	mustSettle(t, b, q, ack(d))
	if got := depth(t, b, q); got != 0 {
		t.Errorf("Depth after ack = %d", got)
	}
}

func testStaleReceipt(t *testing.T, h *harness) {
	b, q := h.open(t), h.name(t, "q")
	mustSend(t, b, q, msg("m"))
	first := mustClaim(t, b, q, 1, 100*time.Millisecond)
	second := claimEventually(t, b, q, 1, long)
	mustSettle(t, b, q, ack(first[0]))
	if got := depth(t, b, q); got != 1 {
		t.Fatalf("stale ack deleted the message reclaimed by someone else (depth %d)", got)
	}
	mustSettle(t, b, q, queue.Settlement{ID: first[0].ID, Receipt: first[0].Receipt, Kind: queue.SettleRetry})
	if ds := mustClaim(t, b, q, 1, long); len(ds) != 0 {
		t.Fatal("stale retry made a live claim's message visible")
	}
	mustSettle(t, b, q, ack(second[0]))
	mustSettle(t, b, q, ack(second[0])) // settling twice is harmless
	if got := depth(t, b, q); got != 0 {
		t.Errorf("Depth after current ack = %d", got)
	}
}

func testLateSettleBeforeReclaim(t *testing.T, h *harness) {
	b, q := h.open(t), h.name(t, "q")
	mustSend(t, b, q, msg("m"))
	d := mustClaim(t, b, q, 1, 50*time.Millisecond)[0]
	time.Sleep(100 * time.Millisecond) // let the claim time out; nobody reclaims
	mustSettle(t, b, q, ack(d))
	if got := depth(t, b, q); got != 0 {
		t.Errorf("late ack with no newer claim did not apply (depth %d)", got)
	}
}

func testRetryWithDelay(t *testing.T, h *harness) {
	b, q := h.open(t), h.name(t, "q")
	mustSend(t, b, q, msg("m"))
	d := mustClaim(t, b, q, 1, long)[0]
	const delay = 400 * time.Millisecond
	retried := time.Now()
	mustSettle(t, b, q, queue.Settlement{ID: d.ID, Receipt: d.Receipt, Kind: queue.SettleRetry, Delay: delay})
	if ds := mustClaim(t, b, q, 1, long); len(ds) != 0 {
		t.Fatal("retried message visible before its delay")
	}
	again := claimEventually(t, b, q, 1, long)[0]
	if elapsed := time.Since(retried); elapsed < delay-10*time.Millisecond {
		t.Errorf("retry visible after %s, want ≥ %s", elapsed, delay)
	}
	if again.ID != d.ID || again.Attempts != 2 {
		t.Errorf("retried delivery = %+v, want same ID with Attempts 2", again)
	}
}

func testRetryImmediate(t *testing.T, h *harness) {
	b, q := h.open(t), h.name(t, "q")
	mustSend(t, b, q, msg("m"))
	for attempt := 1; attempt <= 3; attempt++ {
		ds := mustClaim(t, b, q, 1, long)
		if len(ds) != 1 || ds[0].Attempts != attempt {
			t.Fatalf("claim %d = %+v, want one message with Attempts %d", attempt, ds, attempt)
		}
		mustSettle(t, b, q, queue.Settlement{ID: ds[0].ID, Receipt: ds[0].Receipt, Kind: queue.SettleRetry})
	}
}

func testDeadLetter(t *testing.T, h *harness) {
	b, q, dlq := h.open(t), h.name(t, "q"), h.name(t, "dlq")
	mustSend(t, b, q, worker.QueueMessage{Body: []byte("poison"), QueueSendOptions: worker.QueueSendOptions{ContentType: "text"}})
	d := mustClaim(t, b, q, 1, long)[0]
	mustSettle(t, b, q, queue.Settlement{ID: d.ID, Receipt: d.Receipt, Kind: queue.SettleDeadLetter, DeadLetterQueue: dlq})
	if got := depth(t, b, q); got != 0 {
		t.Errorf("source Depth = %d, want 0", got)
	}
	if got := depth(t, b, dlq); got != 1 {
		t.Fatalf("dead-letter Depth = %d, want 1", got)
	}
	dd := mustClaim(t, b, dlq, 1, long)
	if len(dd) != 1 {
		t.Fatal("dead-lettered message not claimable at once")
	}
	got := dd[0]
	if got.ID != d.ID || string(got.Body) != "poison" || got.ContentType != "text" || got.Attempts != 1 || !got.Timestamp.Equal(d.Timestamp) {
		t.Errorf("dead-lettered delivery = %+v, want ID, body, type and timestamp kept and Attempts 1 (was %+v)", got, d)
	}
}

func testDeadLetterDrop(t *testing.T, h *harness) {
	b, q := h.open(t), h.name(t, "q")
	mustSend(t, b, q, msg("m"))
	d := mustClaim(t, b, q, 1, long)[0]
	mustSettle(t, b, q, queue.Settlement{ID: d.ID, Receipt: d.Receipt, Kind: queue.SettleDeadLetter})
	if got := depth(t, b, q); got != 0 {
		t.Errorf("Depth after drop = %d", got)
	}
}

func testSettleValidation(t *testing.T, h *harness) {
	b, q := h.open(t), h.name(t, "q")
	mustSend(t, b, q, msg("a"), msg("b"))
	ds := mustClaim(t, b, q, 2, long)
	bad := []queue.Settlement{
		{ID: ds[0].ID, Kind: queue.SettleAck},
		{Receipt: ds[0].Receipt, Kind: queue.SettleAck},
		{ID: ds[0].ID, Receipt: ds[0].Receipt},
		{ID: ds[0].ID, Receipt: ds[0].Receipt, Kind: queue.SettleRetry, Delay: -time.Second},
		{ID: ds[0].ID, Receipt: ds[0].Receipt, Kind: queue.SettleDeadLetter, DeadLetterQueue: q},
	}
	for _, s := range bad {
		// A valid ack first proves the call is all or none.
		if err := b.Settle(ctxFor(t), q, []queue.Settlement{ack(ds[1]), s}); !errors.Is(err, queue.ErrSettlement) {
			t.Errorf("Settle(%+v) err = %v, want ErrSettlement", s, err)
		}
	}
	if got := depth(t, b, q); got != 2 {
		t.Errorf("rejected settle changed the queue: depth %d, want 2", got)
	}
	mustSettle(t, b, q) // nothing to settle is fine
}

func testDepth(t *testing.T, h *harness) {
	b, q := h.open(t), h.name(t, "q")
	mustSend(t, b, q, msg("ready"), msg("claimed"))
	mustSend(t, b, q, worker.QueueMessage{Body: []byte("delayed"), QueueSendOptions: worker.QueueSendOptions{Delay: time.Hour}})
	mustClaim(t, b, q, 1, long)
	if got := depth(t, b, q); got != 3 {
		t.Errorf("Depth = %d, want 3 (ready, claimed and delayed)", got)
	}
}
