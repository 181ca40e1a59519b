package queuecentral

import (
	"bytes"
	"context"
	"errors"
	"testing"
	"time"

	"github.com/dwk/fleet/appliance/bindings/queue"
	"github.com/dwk/fleet/appliance/libsql/hranaclient"
	"github.com/dwk/fleet/appliance/worker"
)

func ctxFor(t testing.TB) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	t.Cleanup(cancel)
	return ctx
}

func msgs(n, size int) []worker.QueueMessage {
	out := make([]worker.QueueMessage, n)
	for i := range out {
		out[i] = worker.QueueMessage{Body: bytes.Repeat([]byte{byte('a' + i%26)}, size)}
	}
	return out
}

// TestOneRoundTripEach counts the HTTP requests of every operation.
func TestOneRoundTripEach(t *testing.T) {
	ctx := ctxFor(t)
	db := newQueueDB(t)
	c := db.client(t)
	b, err := Open(ctx, c, Options{})
	if err != nil {
		t.Fatal(err)
	}
	rt := func(what string, fn func() error) {
		t.Helper()
		before := c.RoundTrips()
		if err := fn(); err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		if got := c.RoundTrips() - before; got != 1 {
			t.Errorf("%s took %d round trips, want 1", what, got)
		}
	}
	var ds []queue.Delivery
	rt("send of 100", func() error { return b.Send(ctx, "q", msgs(100, 10)) })
	rt("claim of 100", func() (err error) { ds, err = b.Claim(ctx, "q", 100, time.Minute); return err })
	if len(ds) != 100 {
		t.Fatalf("claimed %d", len(ds))
	}
	var ss []queue.Settlement
	for i, d := range ds {
		s := queue.Settlement{ID: d.ID, Receipt: d.Receipt, Kind: queue.SettleAck}
		switch i % 4 {
		case 1:
			s.Kind, s.Delay = queue.SettleRetry, time.Hour
		case 2:
			s.Kind, s.Delay = queue.SettleRetry, time.Minute
		case 3:
			s.Kind, s.DeadLetterQueue = queue.SettleDeadLetter, "dlq"
		}
		ss = append(ss, s)
	}
	rt("settle of acks, retries and dead-letters", func() error { return b.Settle(ctx, "q", ss) })
	rt("depth", func() error {
		n, err := b.Depth(ctx, "q")
		if n != 50 {
			t.Errorf("depth = %d, want the 50 retried", n)
		}
		return err
	})
	if n, _ := b.Depth(ctx, "dlq"); n != 25 {
		t.Errorf("dead-letter depth = %d, want 25", n)
	}
}

// TestLargeBatch sends 64 messages of 128 KiB — 8 MiB, 10.7 MiB in
// base64, over the server's 10 MiB request limit — atomically in chunks,
// and claims them within the response budget.
func TestLargeBatch(t *testing.T) {
	ctx := ctxFor(t)
	db := newQueueDB(t)
	// Each chunk is about 5 MiB of JSON; a race-built server on a loaded
	// machine takes longer than the client's and the broker's default 10 s
	// for one, and this test is about atomic chunking, not speed.
	db.timeout = time.Minute
	b := db.open(t, Options{Timeout: time.Minute})
	big := msgs(64, worker.QueueMaxBody)
	if err := b.Send(ctx, "big", big); err != nil {
		t.Fatal(err)
	}
	if n, err := b.Depth(ctx, "big"); err != nil || n != len(big) {
		t.Fatalf("Depth = %d, %v; want %d", n, err, len(big))
	}
	ds, err := b.Claim(ctx, "big", 100, time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	if want := DefaultMaxClaimBytes / worker.QueueMaxBody; len(ds) != want {
		t.Errorf("claimed %d messages of 128 KiB, want the %d that fit the 4 MiB budget", len(ds), want)
	}
	for i, d := range ds {
		if !bytes.Equal(d.Body, big[i].Body) {
			t.Fatalf("message %d came back changed or out of order", i)
		}
	}
}

// zeros is a Rand that makes every id the same, so the second row of a
// batch violates the unique id.
type zeros struct{}

func (zeros) Read(p []byte) (int, error) {
	clear(p)
	return len(p), nil
}

func TestFailedBatchStoresNothing(t *testing.T) {
	ctx := ctxFor(t)
	db := newQueueDB(t)
	for name, o := range map[string]Options{
		"one statement": {Rand: zeros{}},
		"chunked":       {Rand: zeros{}, MaxRequestBytes: 1},
	} {
		b := db.open(t, o)
		if err := b.Send(ctx, name, msgs(3, 2)); err == nil {
			t.Errorf("%s: a batch with duplicate ids was stored", name)
		}
		if n, err := b.Depth(ctx, name); err != nil || n != 0 {
			t.Errorf("%s: failed batch left %d messages (%v)", name, n, err)
		}
	}
}

func TestClaimByteBudget(t *testing.T) {
	ctx := ctxFor(t)
	db := newQueueDB(t)
	b := db.open(t, Options{MaxClaimBytes: 10})
	if err := b.Send(ctx, "q", append(msgs(3, 6), worker.QueueMessage{Body: make([]byte, 20)})); err != nil {
		t.Fatal(err)
	}
	for i, want := range []int{1, 1, 1, 1, 0} {
		ds, err := b.Claim(ctx, "q", 10, time.Minute)
		if err != nil {
			t.Fatal(err)
		}
		if len(ds) != want {
			t.Errorf("claim %d returned %d messages, want %d (6-byte bodies, 10-byte budget; an oversized body alone)", i, len(ds), want)
		}
	}
}

func TestOpenAndClose(t *testing.T) {
	ctx := ctxFor(t)
	db := newQueueDB(t)
	c, err := hranaclient.New(hranaclient.Config{URL: db.srv.URL, AuthToken: db.srv.AuthToken, Namespace: "dwk-queues-missing"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Open(ctx, c, Options{}); !errors.Is(err, ErrNoDatabase) {
		t.Errorf("Open on a missing namespace = %v, want ErrNoDatabase", err)
	}
	b := db.open(t, Options{})
	if err := b.Close(); err != nil {
		t.Fatal(err)
	}
	if err := b.Close(); err != nil {
		t.Errorf("second Close = %v", err)
	}
	if err := b.Send(ctx, "q", msgs(1, 1)); !errors.Is(err, ErrClosed) {
		t.Errorf("Send after Close = %v, want ErrClosed", err)
	}
	if _, err := Open(ctx, db.client(t), Options{Timeout: -1}); !errors.Is(err, ErrOptions) {
		t.Errorf("Open with a negative timeout = %v, want ErrOptions", err)
	}
}
