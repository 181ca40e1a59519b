package lease

import (
	"context"
	"errors"
	"fmt"
	"testing"
)

// TestDeposeHandsBackAndRestoreRejoins: a deposed manager loses every
// lease at once (Lost closed, keys deleted so another member takes them
// at once) and takes none; restored, it takes leases again.
func TestDeposeHandsBackAndRestoreRejoins(t *testing.T) {
	e := newEnv(t)
	ctx := ctxFor(t)
	st := openStore(t, e.srv)
	a := manager(t, st, "a", nil)
	b := manager(t, st, "b", nil)
	var ls []*Lease
	for i := range 3 {
		l, err := a.Acquire(ctx, "C", fmt.Sprint(i))
		if err != nil {
			t.Fatal(err)
		}
		ls = append(ls, l)
	}
	n, err := a.Depose(ctx, "unreachable")
	if err != nil || n != 3 {
		t.Fatalf("Depose = %d, %v; want 3 leases handed back", n, err)
	}
	if !a.Deposed() || !a.Draining() || a.Count() != 0 {
		t.Errorf("after Depose: deposed %v, draining %v, %d held; want true, true, 0", a.Deposed(), a.Draining(), a.Count())
	}
	for _, l := range ls {
		select {
		case <-l.Lost():
		default:
			t.Errorf("lease %s not lost after Depose", l.ID())
		}
		if cause := context.Cause(l.Context()); !errors.Is(cause, ErrLost) {
			t.Errorf("lease %s: cause %v, want ErrLost", l.ID(), cause)
		}
	}
	if _, err := a.Acquire(ctx, "C", "new"); !errors.Is(err, ErrDeposed) || !errors.Is(err, ErrDraining) {
		t.Errorf("Acquire while deposed: err = %v, want ErrDeposed wrapping ErrDraining", err)
	}
	if n, err := a.Depose(ctx, "again"); n != 0 || err != nil {
		t.Errorf("second Depose = %d, %v; want a no-op", n, err)
	}
	// The liveness record is gone: another member takes the object before
	// the TTL.
	if _, err := b.Acquire(ctx, "C", "0"); err != nil {
		t.Fatalf("another member takes a handed-back object: %v", err)
	}
	a.Restore()
	if a.Deposed() || a.Draining() {
		t.Error("still deposed or draining after Restore")
	}
	if _, err := a.Acquire(ctx, "C", "1"); err != nil {
		t.Errorf("Acquire after Restore: %v", err)
	}
	if _, err := a.Acquire(ctx, "C", "0"); !errors.Is(err, ErrHeld) {
		t.Errorf("Acquire of the object the other member took: %v, want ErrHeld", err)
	}
}

// TestDrainWinsOverRestore: a drain that begins while deposed stays a
// drain.
func TestDrainWinsOverRestore(t *testing.T) {
	e := newEnv(t)
	ctx := ctxFor(t)
	a := manager(t, openStore(t, e.srv), "a", nil)
	if _, err := a.Depose(ctx, "unreachable"); err != nil {
		t.Fatal(err)
	}
	a.Drain()
	a.Restore()
	if _, err := a.Acquire(ctx, "C", "x"); !errors.Is(err, ErrDraining) || errors.Is(err, ErrDeposed) {
		t.Errorf("Acquire after Drain and Restore: err = %v, want ErrDraining", err)
	}
}
