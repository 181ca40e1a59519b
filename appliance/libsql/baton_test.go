package libsql

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/dwk/fleet/appliance/libsql/hrana"
)

func TestBatonCodec(t *testing.T) {
	a, b := batonCodec{key: [32]byte{1}}, batonCodec{key: [32]byte{2}}
	baton := a.encode(42, 7)
	id, seq, err := a.decode(baton)
	if err != nil || id != 42 || seq != 7 {
		t.Fatalf("decode = %d %d %v", id, seq, err)
	}
	if _, _, err := b.decode(baton); err == nil {
		t.Error("a baton from another server (key) was accepted")
	}
	tampered := []byte(baton)
	tampered[3] ^= 1
	for _, bad := range []string{string(tampered), "", "!!!", baton[:20]} {
		_, _, err := a.decode(bad)
		var pe *hrana.ProtocolError
		if !errors.As(err, &pe) {
			t.Errorf("decode(%q) = %v, want a protocol error", bad, err)
		}
	}
	if a.encode(42, 8) == baton {
		t.Error("the baton does not change with the sequence number")
	}
}

func TestHTTPStreamsLifecycle(t *testing.T) {
	clock := newFakeClock()
	r := newHTTPStreams(clock.Now, 10*time.Second)
	ctx := context.Background()

	e := r.add(&stream{})
	b1 := r.baton(e)
	r.release(e, false)

	e2, err := r.acquire(ctx, b1)
	if err != nil || e2 != e {
		t.Fatalf("acquire with the released baton: %v", err)
	}
	b2 := r.baton(e)
	if b2 == b1 {
		t.Fatal("baton not rotated")
	}
	r.release(e, false)
	if _, err := r.acquire(ctx, b1); err == nil || !strings.Contains(err.Error(), "already been used") {
		t.Fatalf("old baton: %v, want reused", err)
	}

	// Idle past the timeout: expired, then forgotten.
	clock.Advance(9 * time.Second)
	if n := r.expire(); n != 0 {
		t.Fatalf("expired %d streams before the timeout", n)
	}
	clock.Advance(2 * time.Second)
	if n := r.expire(); n != 1 {
		t.Fatalf("expired %d streams, want 1", n)
	}
	var he *hrana.Error
	if _, err := r.acquire(ctx, b2); !errors.As(err, &he) || he.Code != hrana.CodeStreamExpired {
		t.Fatalf("acquire expired stream: %v, want STREAM_EXPIRED", err)
	}
	clock.Advance(expiredRetention + time.Second)
	r.expire()
	if _, err := r.acquire(ctx, b2); err == nil || !strings.Contains(err.Error(), "invalid baton") {
		t.Fatalf("acquire forgotten stream: %v, want invalid baton", err)
	}
}

func TestHTTPStreamsWaitForRelease(t *testing.T) {
	clock := newFakeClock()
	r := newHTTPStreams(clock.Now, 10*time.Second)
	e := r.add(&stream{})
	next := r.baton(e) // handed out before the release, as /v3/cursor does
	got := make(chan error, 1)
	go func() {
		_, err := r.acquire(context.Background(), next)
		got <- err
	}()
	select {
	case err := <-got:
		t.Fatalf("acquire returned before the release: %v", err)
	case <-time.After(20 * time.Millisecond):
	}
	r.release(e, false)
	if err := <-got; err != nil {
		t.Fatalf("acquire after release: %v", err)
	}
}
