package cronlease

import (
	"errors"
	"testing"
	"time"

	"github.com/dwk/fleet/appliance/bindings/cron"
	"github.com/dwk/fleet/test/wait"
)

// TestLapsedClaimIsTakenOver: a claim neither renewed nor done lapses
// after the claim TTL, by the server's clock; another replica then wins
// the tick, and the first winner's renewal and done both report the claim
// lost. Once done, the tick is settled for every replica.
func TestLapsedClaimIsTakenOver(t *testing.T) {
	db := newFleetDB(t)
	o := Options{ClaimTTL: 300 * time.Millisecond}
	a := newClaimer(t, db.open(t, nil), "a", o)
	b := newClaimer(t, db.open(t, nil), "b", o)
	ctx := ctxFor(t)
	tick := time.Date(2026, 1, 1, 0, 0, 1, 0, time.UTC)

	ca, err := a.Claim(ctx, "s", tick)
	if err != nil || ca.Held == nil {
		t.Fatalf("first claim = %+v, %v; want a win", ca, err)
	}
	cb, err := b.Claim(ctx, "s", tick)
	if err != nil || cb.Held != nil || cb.Retry != 150*time.Millisecond {
		t.Fatalf("claim of a held tick = %+v, %v; want a loss with Retry 150ms", cb, err)
	}
	wait.For(t, "a's claim to lapse and b to take the tick over", func() bool {
		cb, err = b.Claim(ctx, "s", tick)
		if err != nil {
			t.Fatal(err)
		}
		return cb.Held != nil
	})
	if l, ok, err := a.Holder(ctx, "s", tick); err != nil || !ok || l.Member != "b" || l.Done {
		t.Errorf("Holder after the takeover = %+v, %v, %v; want b, running", l, ok, err)
	}
	if err := ca.Held.Renew(ctx); !errors.Is(err, cron.ErrClaimLost) {
		t.Errorf("the first winner's Renew = %v, want ErrClaimLost", err)
	}
	if err := ca.Held.Done(ctx); !errors.Is(err, cron.ErrClaimLost) {
		t.Errorf("the first winner's Done = %v, want ErrClaimLost", err)
	}
	if err := cb.Held.Renew(ctx); err != nil {
		t.Errorf("the new winner's Renew = %v", err)
	}
	if err := cb.Held.Done(ctx); err != nil {
		t.Fatalf("Done = %v", err)
	}
	// Done outlives the claim TTL, for every replica, a restarted one too.
	c := newClaimer(t, db.open(t, nil), "a", o)
	for range 3 {
		got, err := c.Claim(ctx, "s", tick)
		if err != nil || got.Held != nil || got.Retry != 0 {
			t.Fatalf("claim of a done tick = %+v, %v; want it settled", got, err)
		}
		time.Sleep(200 * time.Millisecond) // past the claim TTL, by the server's clock
	}
	if l, ok, err := a.Holder(ctx, "s", tick); err != nil || !ok || l.Member != "b" || !l.Done {
		t.Errorf("Holder after Done = %+v, %v, %v; want b, done", l, ok, err)
	}
}

// TestRenewedClaimIsKept: a winner renewing every third of the claim TTL
// keeps the tick for several TTLs; nobody else wins it meanwhile.
func TestRenewedClaimIsKept(t *testing.T) {
	db := newFleetDB(t)
	o := Options{ClaimTTL: 600 * time.Millisecond}
	a := newClaimer(t, db.open(t, nil), "a", o)
	b := newClaimer(t, db.open(t, nil), "b", o)
	ctx := ctxFor(t)
	tick := time.Date(2026, 1, 1, 0, 0, 2, 0, time.UTC)
	ca, err := a.Claim(ctx, "s", tick)
	if err != nil || ca.Held == nil {
		t.Fatalf("first claim = %+v, %v", ca, err)
	}
	if got := ca.Held.RenewEvery(); got != 200*time.Millisecond {
		t.Errorf("RenewEvery = %v, want a third of the claim TTL", got)
	}
	for end := time.Now().Add(2 * time.Second); time.Now().Before(end); {
		time.Sleep(ca.Held.RenewEvery()) // the renewal cadence is what is tested
		if err := ca.Held.Renew(ctx); err != nil {
			t.Fatalf("Renew = %v", err)
		}
		if won, err := claimed(b.Claim(ctx, "s", tick)); err != nil || won {
			t.Fatalf("b's claim of a renewed tick = %v, %v", won, err)
		}
	}
}
