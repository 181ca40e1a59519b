package kvtest

import (
	"errors"
	"testing"
	"time"

	"github.com/dwk/fleet/appliance/worker"
	"github.com/dwk/fleet/test/wait"
)

func testExpirationTTL(t *testing.T, h *harness) {
	ns, p := h.setup(t)
	before := time.Now()
	mustPut(t, ns, p+"short", []byte("v"), &worker.KVPutOptions{ExpirationTTL: 2 * time.Second})
	mustPut(t, ns, p+"long", []byte("v"), &worker.KVPutOptions{ExpirationTTL: time.Hour})
	after := time.Now()
	checkExpiring(t, ns, p, p+"short", before.Add(2*time.Second), after.Add(2*time.Second))
	if _, err := ns.Get(ctxFor(t), p+"long"); err != nil {
		t.Errorf("key with 1h TTL gone: %v", err)
	}
}

func testExpirationAbsolute(t *testing.T, h *harness) {
	ns, p := h.setup(t)
	exp := time.Now().Add(2 * time.Second)
	mustPut(t, ns, p+"short", []byte("v"), &worker.KVPutOptions{Expiration: exp})
	checkExpiring(t, ns, p, p+"short", exp, exp)
}

// checkExpiring asserts key is readable and listed with an expiration in
// [lo, hi] (to the millisecond), then that it vanishes from Get,
// GetWithMetadata and List once that time has passed.
func checkExpiring(t *testing.T, ns worker.KVNamespace, prefix, key string, lo, hi time.Time) {
	t.Helper()
	ctx := ctxFor(t)
	if _, err := ns.Get(ctx, key); err != nil {
		t.Fatalf("Get before expiry: %v (is the TTL measured in the wrong unit?)", err)
	}
	res, err := ns.List(ctx, &worker.KVListOptions{Prefix: key})
	if err != nil || len(res.Keys) != 1 {
		t.Fatalf("List before expiry = %+v, %v; want one key", res, err)
	}
	got := res.Keys[0].Expiration
	if got.Before(lo.Truncate(time.Millisecond)) || got.After(hi.Add(time.Millisecond)) {
		t.Errorf("listed Expiration = %s, want within [%s, %s]", got, lo, hi)
	}
	wait.For(t, "expired key reads as ErrNotFound", func() bool {
		_, err := ns.Get(ctx, key)
		return errors.Is(err, worker.ErrNotFound)
	})
	if time.Now().Before(lo) {
		t.Errorf("key vanished before its expiration %s", lo)
	}
	if _, _, err := ns.GetWithMetadata(ctx, key); !errors.Is(err, worker.ErrNotFound) {
		t.Errorf("GetWithMetadata after expiry: err = %v, want ErrNotFound", err)
	}
	res, err = ns.List(ctx, &worker.KVListOptions{Prefix: prefix})
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range res.Keys {
		if k.Name == key {
			t.Errorf("expired key %q still listed", key)
		}
	}
}

func testPutClearsExpiration(t *testing.T, h *harness) {
	ns, p := h.setup(t)
	ctx := ctxFor(t)
	mustPut(t, ns, p+"k", []byte("v1"), &worker.KVPutOptions{ExpirationTTL: time.Second})
	mustPut(t, ns, p+"k", []byte("v2"), nil)
	res, err := ns.List(ctx, &worker.KVListOptions{Prefix: p})
	if err != nil || len(res.Keys) != 1 || !res.Keys[0].Expiration.IsZero() {
		t.Fatalf("List = %+v, %v; want one key without expiration", res, err)
	}
	// Outlast the first put's TTL: the key must survive it.
	deadline := time.Now().Add(1500 * time.Millisecond)
	for time.Now().Before(deadline) {
		if got, err := ns.Get(ctx, p+"k"); err != nil || string(got) != "v2" {
			t.Fatalf("Get = %q, %v; want v2 to outlive the old TTL", got, err)
		}
		time.Sleep(100 * time.Millisecond)
	}
}
