package dwkstorage

import (
	"context"
	"encoding/json"
	"errors"
	"io/fs"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/dwk/fleet/appliance/fleet/coord"
)

// holderOf returns the owner in the raw lock record of name, "" if none.
func holderOf(t *testing.T, st *coord.Store, k *KV, name string) string {
	t.Helper()
	e, err := st.Get(ctxFor(t), k.keys.lock(name))
	if err != nil {
		t.Fatal(err)
	}
	if !e.Exists() {
		return ""
	}
	var r LockRecord
	if err := json.Unmarshal(e.Value, &r); err != nil {
		t.Fatalf("lock record %q: %v", e.Value, err)
	}
	return r.Owner
}

// TestLockExcludes has two storages on separate connections, two
// goroutines each, increment a counter kept in the storage under the lock:
// no increment is lost and no two goroutines are ever inside at once.
func TestLockExcludes(t *testing.T) {
	db := newDatabase(t)
	kvs := []*KV{
		newKV(t, db.open(t), Options{Owner: "a", LockTTL: 2 * time.Second}),
		newKV(t, db.open(t), Options{Owner: "b", LockTTL: 2 * time.Second}),
	}
	const perWorker = 5
	ctx := ctxFor(t)
	var inside atomic.Int32
	var overlapped atomic.Bool
	var wg sync.WaitGroup
	errs := make(chan error, 4*perWorker)
	for i := range 4 {
		k := kvs[i%2]
		wg.Go(func() {
			for range perWorker {
				if err := k.Lock(ctx, "counter"); err != nil {
					errs <- err
					return
				}
				if inside.Add(1) > 1 {
					overlapped.Store(true)
				}
				v := 0
				b, err := k.Load(ctx, "counter")
				if err == nil {
					v, err = strconv.Atoi(string(b))
				} else if errors.Is(err, fs.ErrNotExist) {
					err = nil
				}
				if err == nil {
					err = k.Store(ctx, "counter", []byte(strconv.Itoa(v+1)))
				}
				inside.Add(-1)
				if err != nil {
					errs <- err
				}
				if err := k.Unlock(ctx, "counter"); err != nil {
					errs <- err
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if overlapped.Load() {
		t.Error("two goroutines held the lock at once")
	}
	b, err := kvs[0].Load(ctx, "counter")
	if err != nil || string(b) != strconv.Itoa(4*perWorker) {
		t.Errorf("counter = %q, %v; want %d", b, err, 4*perWorker)
	}
	if h := holderOf(t, db.open(t), kvs[0], "counter"); h != "" {
		t.Errorf("lock still held by %q after the last Unlock", h)
	}
}

// TestLockRenewed: a held lock outlives its TTL several times over, and
// is free at once after Unlock.
func TestLockRenewed(t *testing.T) {
	db := newDatabase(t)
	ttl := time.Second
	a := newKV(t, db.open(t), Options{Owner: "a", LockTTL: ttl})
	b := newKV(t, db.open(t), Options{Owner: "b", LockTTL: ttl})
	ctx := ctxFor(t)
	if err := a.Lock(ctx, "issue_cert_example.com"); err != nil {
		t.Fatal(err)
	}
	for end := time.Now().Add(3 * ttl); time.Now().Before(end); {
		ok, err := b.TryLock(ctx, "issue_cert_example.com")
		if err != nil || ok {
			t.Fatalf("TryLock of a held lock = %v, %v", ok, err)
		}
		if err := a.RenewLockLease(ctx, "issue_cert_example.com", time.Minute); err != nil {
			t.Fatalf("RenewLockLease by the holder: %v", err)
		}
	}
	if err := b.RenewLockLease(ctx, "issue_cert_example.com", time.Minute); !errors.Is(err, ErrNotHeld) {
		t.Errorf("RenewLockLease by another owner = %v, want ErrNotHeld", err)
	}
	if err := a.Unlock(ctx, "issue_cert_example.com"); err != nil {
		t.Fatal(err)
	}
	if ok, err := b.TryLock(ctx, "issue_cert_example.com"); err != nil || !ok {
		t.Fatalf("TryLock after Unlock = %v, %v", ok, err)
	}
	if err := b.Unlock(ctx, "issue_cert_example.com"); err != nil {
		t.Fatal(err)
	}
}

// TestUnlockByOtherOwner: Unlock by a storage that does not hold the lock
// fails and releases nothing.
func TestUnlockByOtherOwner(t *testing.T) {
	db := newDatabase(t)
	st := db.open(t)
	a := newKV(t, st, Options{Owner: "a"})
	b := newKV(t, db.open(t), Options{Owner: "b"})
	ctx := ctxFor(t)
	if err := a.Lock(ctx, "x"); err != nil {
		t.Fatal(err)
	}
	if err := b.Unlock(ctx, "x"); !errors.Is(err, ErrNotHeld) {
		t.Errorf("Unlock by another owner = %v, want ErrNotHeld", err)
	}
	if h := holderOf(t, st, a, "x"); h != "a" {
		t.Errorf("after another owner's Unlock the lock is held by %q, want a", h)
	}
	if ok, err := b.TryLock(ctx, "x"); err != nil || ok {
		t.Errorf("TryLock = %v, %v; want false", ok, err)
	}
	if err := a.Unlock(ctx, "x"); err != nil {
		t.Fatal(err)
	}
	if err := a.Unlock(ctx, "x"); !errors.Is(err, ErrNotHeld) {
		t.Errorf("second Unlock = %v, want ErrNotHeld", err)
	}
}

// swappable is a Source whose store the test replaces, as a replica's
// connection is lost and opened again.
type swappable struct{ p atomic.Pointer[coord.Store] }

func (s *swappable) Store(context.Context) (*coord.Store, error) { return s.p.Load(), nil }

// TestLockOfDeadHolderExpires: a holder that stops renewing (its store is
// closed) loses the lock about LockTTL after its last renewal, and a
// waiter takes it then, not before; when the old holder comes back, its
// Unlock does not release the new holder's lock.
func TestLockOfDeadHolderExpires(t *testing.T) {
	db := newDatabase(t)
	ttl := 2 * time.Second
	src := new(swappable)
	stA := db.open(t)
	src.p.Store(stA)
	a, err := New(src, Options{Secret: []byte(testSecret), Owner: "a", LockTTL: ttl, Logger: testLogger(t)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		a.Close(ctx) // idempotent: the test closes it itself, checking the error
	})
	stB := db.open(t)
	b := newKV(t, stB, Options{Owner: "b", LockTTL: ttl})
	ctx := ctxFor(t)
	if err := a.Lock(ctx, "x"); err != nil {
		t.Fatal(err)
	}
	got := make(chan error, 1)
	go func() { got <- b.Lock(ctx, "x") }()

	// Let one renewal happen, so that expiry is counted from a renewal,
	// then cut a off.
	first := holderVersion(t, stB, a, "x")
	for holderVersion(t, stB, a, "x") == first {
		if ctx.Err() != nil {
			t.Fatal("the lock was never renewed")
		}
		time.Sleep(50 * time.Millisecond)
	}
	closeStore(t, stA)
	cut := time.Now()
	select {
	case err := <-got:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(5 * ttl):
		t.Fatalf("the lock of a holder that stopped renewing was not taken within %s", 5*ttl)
	}
	// The last renewal was at most ttl/3 before the cut.
	if waited := time.Since(cut); waited < ttl/2 {
		t.Errorf("the lock was taken %s after its holder stopped renewing; TTL is %s", waited, ttl)
	}
	if h := holderOf(t, stB, b, "x"); h != "b" {
		t.Fatalf("lock held by %q, want b", h)
	}

	// a comes back with a working connection.
	src.p.Store(db.open(t))
	if err := a.Unlock(ctx, "x"); !errors.Is(err, ErrLockLost) {
		t.Errorf("Unlock by the old holder = %v, want ErrLockLost", err)
	}
	if h := holderOf(t, stB, b, "x"); h != "b" {
		t.Errorf("after the old holder's Unlock the lock is held by %q, want b", h)
	}
	if err := a.Close(ctx); err != nil {
		t.Error(err)
	}
	if err := b.Unlock(ctx, "x"); err != nil {
		t.Error(err)
	}
}

// holderVersion is the versionstamp of the lock key of name.
func holderVersion(t *testing.T, st *coord.Store, k *KV, name string) coord.Versionstamp {
	t.Helper()
	e, err := st.Get(ctxFor(t), k.keys.lock(name))
	if err != nil {
		t.Fatal(err)
	}
	return e.Versionstamp
}

// TestLockWaitEnds: a wait for a held lock ends with the caller's
// context, with LockWait and with Close.
func TestLockWaitEnds(t *testing.T) {
	db := newDatabase(t)
	a := newKV(t, db.open(t), Options{Owner: "a"})
	ctx := ctxFor(t)
	if err := a.Lock(ctx, "x"); err != nil {
		t.Fatal(err)
	}

	short, cancel := context.WithTimeout(ctx, 300*time.Millisecond)
	defer cancel()
	b := newKV(t, db.open(t), Options{Owner: "b"})
	if err := b.Lock(short, "x"); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("Lock with a short context = %v, want DeadlineExceeded", err)
	}

	c := newKV(t, db.open(t), Options{Owner: "c", LockWait: 300 * time.Millisecond})
	start := time.Now()
	if err := c.Lock(ctx, "x"); err == nil || time.Since(start) > 5*time.Second {
		t.Errorf("Lock with LockWait 300ms = %v after %s, want an error soon", err, time.Since(start))
	}

	d, err := New(fixed{db.open(t)}, Options{Secret: []byte(testSecret), Owner: "d"})
	if err != nil {
		t.Fatal(err)
	}
	got := make(chan error, 1)
	go func() { got <- d.Lock(ctx, "x") }()
	if err := d.Close(ctx); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-got:
		if !errors.Is(err, ErrClosed) {
			t.Errorf("Lock during Close = %v, want ErrClosed", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Close did not end a waiting Lock")
	}
	if err := a.Unlock(ctx, "x"); err != nil {
		t.Fatal(err)
	}
}

// TestCloseReleases: Close releases the locks the storage holds.
func TestCloseReleases(t *testing.T) {
	db := newDatabase(t)
	st := db.open(t)
	a, err := New(fixed{st}, Options{Secret: []byte(testSecret), Owner: "a"})
	if err != nil {
		t.Fatal(err)
	}
	ctx := ctxFor(t)
	for _, name := range []string{"x", "y"} {
		if err := a.Lock(ctx, name); err != nil {
			t.Fatal(err)
		}
	}
	if err := a.Close(ctx); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"x", "y"} {
		if h := holderOf(t, st, a, name); h != "" {
			t.Errorf("lock %s held by %q after Close", name, h)
		}
	}
	if _, err := a.Load(ctx, "k"); !errors.Is(err, ErrClosed) {
		t.Errorf("Load after Close = %v, want ErrClosed", err)
	}
}
