package dwkstorage

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	mrand "math/rand/v2"
	"sync"
	"time"

	"github.com/dwk/fleet/appliance/fleet/coord"
	"github.com/dwk/fleet/appliance/fleet/coord/tuple"
)

// Backoff between attempts to take a lock another owner holds.
const (
	minBackoff = 100 * time.Millisecond
	maxBackoff = 2 * time.Second
)

// LockRecord is the value of a lock key. Token is fresh for every
// acquisition, so an owner recognises its own write byte for byte.
type LockRecord struct {
	Owner string `json:"owner"`
	Token string `json:"token"`
}

// heldLock is a lock this storage took.
type heldLock struct {
	key   tuple.Key
	value []byte // the LockRecord written

	mu    sync.Mutex // orders renewals and the release
	vs    coord.Versionstamp
	valid time.Time // by the local clock: the key cannot expire before
	lost  bool

	stop context.CancelFunc // ends the renewals
	done chan struct{}      // closed when they have ended
}

// Lock takes the lock named name, waiting while another owner holds it
// until its context ends, LockWait passes or the storage closes. A held
// lock is renewed in the background until Unlock.
func (k *KV) Lock(ctx context.Context, name string) error {
	ctx, cancel := k.waitContext(ctx)
	defer cancel()
	delay := minBackoff
	for {
		ok, err := k.acquire(ctx, name)
		switch {
		case ok:
			return nil
		case ctx.Err() != nil:
			return fmt.Errorf("dwk storage: lock %q: %w", name, context.Cause(ctx))
		case err != nil && !retryable(err):
			return fmt.Errorf("dwk storage: lock %q: %w", name, err)
		case err != nil:
			k.log.Warn("dwk storage: taking a lock failed; trying again", "lock", name, "err", err)
		}
		t := time.NewTimer(delay/2 + mrand.N(delay/2+1))
		select {
		case <-t.C:
		case <-ctx.Done():
			t.Stop()
			return fmt.Errorf("dwk storage: lock %q: held by another owner: %w", name, context.Cause(ctx))
		}
		delay = min(2*delay, maxBackoff)
	}
}

// TryLock takes the lock named name if no owner holds it, in one round
// trip, without waiting.
func (k *KV) TryLock(ctx context.Context, name string) (bool, error) {
	ok, err := k.acquire(ctx, name)
	if err != nil {
		return false, fmt.Errorf("dwk storage: try lock %q: %w", name, err)
	}
	return ok, nil
}

// Unlock releases the lock named name if this storage holds it: it stops
// the renewals and deletes the key if it still holds this owner's record.
// It fails with ErrNotHeld, changing nothing, when this storage does not
// hold the lock, and with ErrLockLost when the lock expired or was taken
// meanwhile.
func (k *KV) Unlock(ctx context.Context, name string) error {
	k.mu.Lock()
	h := k.held[name]
	delete(k.held, name)
	k.mu.Unlock()
	if h == nil {
		return fmt.Errorf("dwk storage: unlock %q: %w", name, ErrNotHeld)
	}
	if err := k.release(ctx, name, h); err != nil {
		return fmt.Errorf("dwk storage: unlock %q: %w", name, err)
	}
	return nil
}

// RenewLockLease renews the held lock named name now and reports whether
// it is still held (ErrNotHeld, ErrLockLost). certmagic calls it before
// each obtain attempt. The lock is kept for LockTTL after each renewal,
// not for leaseDuration: the background renewals keep it while it is held.
func (k *KV) RenewLockLease(ctx context.Context, name string, _ time.Duration) error {
	k.mu.Lock()
	h := k.held[name]
	k.mu.Unlock()
	if h == nil {
		return fmt.Errorf("dwk storage: renew lock %q: %w", name, ErrNotHeld)
	}
	if err := k.renew(ctx, h); err != nil {
		return fmt.Errorf("dwk storage: renew lock %q: %w", name, err)
	}
	return nil
}

// waitContext bounds a Lock by LockWait and by Close.
func (k *KV) waitContext(ctx context.Context) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancelCause(ctx)
	stop := context.AfterFunc(k.closing, func() { cancel(ErrClosed) })
	if k.wait <= 0 {
		return ctx, func() { stop(); cancel(nil) }
	}
	tctx, tcancel := context.WithTimeoutCause(ctx, k.wait, fmt.Errorf("lock wait %s passed", k.wait))
	return tctx, func() { tcancel(); stop(); cancel(nil) }
}

// acquire writes this owner's record to the lock key if the key is absent
// (one round trip) and starts renewing it.
func (k *KV) acquire(ctx context.Context, name string) (bool, error) {
	st, err := k.store(ctx)
	if err != nil {
		return false, err
	}
	key := k.keys.lock(name)
	value := k.record()
	sent := time.Now()
	res, err := st.Atomic().Check(key, 0).Set(key, value, k.ttl).Commit(ctx)
	if err != nil {
		if !errors.Is(err, coord.ErrOutcomeUnknown) {
			return false, err
		}
		// The answer was lost: the key tells whether the write happened.
		// If it cannot be read, a write that happened expires after TTL.
		e, rerr := st.Get(ctx, key)
		if rerr != nil {
			return false, err
		}
		if !bytes.Equal(e.Value, value) {
			return false, nil
		}
		res = coord.CommitResult{OK: true, Versionstamp: e.Versionstamp}
	}
	if !res.OK {
		return false, nil
	}
	h := &heldLock{key: key, value: value, vs: res.Versionstamp, valid: sent.Add(k.ttl), done: make(chan struct{})}
	if err := k.adopt(name, h); err != nil {
		rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), k.ttl)
		defer cancel()
		return false, errors.Join(err, k.release(rctx, name, h))
	}
	return true, nil
}

// record is a fresh LockRecord of this owner.
func (k *KV) record() []byte {
	var tok [16]byte
	_, _ = rand.Read(tok[:]) // crypto/rand.Read does not fail
	b, err := json.Marshal(LockRecord{Owner: k.owner, Token: hex.EncodeToString(tok[:])})
	if err != nil {
		panic(err) // two strings always encode
	}
	return b
}

// adopt records h as held and starts its renewals, unless the storage is
// closed.
func (k *KV) adopt(name string, h *heldLock) error {
	ctx, stop := context.WithCancel(context.Background())
	h.stop = stop
	k.mu.Lock()
	if k.closed {
		k.mu.Unlock()
		stop()
		close(h.done)
		return ErrClosed
	}
	// A lock of the same name recorded as held was lost: its key expired,
	// or this write would not have succeeded.
	old := k.held[name]
	k.held[name] = h
	k.wg.Add(1)
	k.mu.Unlock()
	if old != nil {
		old.stop()
	}
	go func() {
		defer k.wg.Done()
		defer close(h.done)
		k.renewLoop(ctx, name, h)
	}()
	return nil
}

// renewLoop renews h every LockTTL/3 until ctx ends or the lock is lost.
func (k *KV) renewLoop(ctx context.Context, name string, h *heldLock) {
	t := time.NewTicker(k.ttl / 3)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		err := k.renew(ctx, h)
		switch {
		case err == nil || ctx.Err() != nil:
		case errors.Is(err, ErrLockLost):
			k.log.Warn("dwk storage: lock lost", "lock", name, "owner", k.owner, "err", err)
			return
		default:
			k.log.Warn("dwk storage: renewing a lock failed; trying again", "lock", name, "owner", k.owner, "err", err)
		}
	}
}

// renew extends h's expiry to LockTTL from now if the key still holds this
// owner's record. A lock found taken, or not renewed until it may have
// expired, is lost for good.
func (k *KV) renew(ctx context.Context, h *heldLock) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.lost {
		return ErrLockLost
	}
	err := k.renewOnce(ctx, h)
	if err != nil && !errors.Is(err, ErrLockLost) && !time.Now().Before(h.valid) {
		err = fmt.Errorf("%w: not renewed within %s: %w", ErrLockLost, k.ttl, err)
	}
	if errors.Is(err, ErrLockLost) {
		h.lost = true
	}
	return err
}

func (k *KV) renewOnce(ctx context.Context, h *heldLock) error {
	st, err := k.src.Store(ctx)
	if err != nil {
		return err
	}
	// The second attempt follows a check that failed only because an
	// earlier renewal, whose answer was lost, did commit.
	for range 2 {
		sent := time.Now()
		res, err := st.Atomic().Check(h.key, h.vs).Set(h.key, h.value, k.ttl).Commit(ctx)
		switch {
		case err == nil && res.OK:
			h.vs, h.valid = res.Versionstamp, sent.Add(k.ttl)
			return nil
		case err != nil && !errors.Is(err, coord.ErrOutcomeUnknown):
			return err
		}
		e, rerr := st.Get(ctx, h.key)
		if rerr != nil {
			return errors.Join(err, rerr)
		}
		if !bytes.Equal(e.Value, h.value) {
			return fmt.Errorf("%w: the key holds %s", ErrLockLost, describe(e))
		}
		if err != nil && e.Versionstamp != h.vs {
			// This renewal committed; its answer was lost.
			h.vs, h.valid = e.Versionstamp, sent.Add(k.ttl)
			return nil
		}
		h.vs = e.Versionstamp
	}
	return errors.New("renewal did not commit")
}

// release stops h's renewals and deletes the key if it still holds this
// owner's record.
func (k *KV) release(ctx context.Context, name string, h *heldLock) error {
	h.stop()
	select {
	case <-h.done:
	case <-ctx.Done():
		return fmt.Errorf("release lock %q: renewal still running: %w", name, ctx.Err())
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.lost {
		return ErrLockLost
	}
	st, err := k.src.Store(ctx)
	if err != nil {
		return err
	}
	for range 2 {
		res, err := st.Atomic().Check(h.key, h.vs).Delete(h.key).Commit(ctx)
		switch {
		case err == nil && res.OK:
			return nil
		case err != nil && !errors.Is(err, coord.ErrOutcomeUnknown):
			return err
		}
		e, rerr := st.Get(ctx, h.key)
		if rerr != nil {
			return errors.Join(err, rerr)
		}
		if !bytes.Equal(e.Value, h.value) {
			if err != nil {
				return nil // the delete went through; its answer was lost
			}
			return fmt.Errorf("%w: the key holds %s", ErrLockLost, describe(e))
		}
		h.vs = e.Versionstamp
	}
	return errors.New("release did not commit")
}

// describe names what a lock key holds, for errors.
func describe(e coord.Entry) string {
	if !e.Exists() {
		return "nothing (expired or deleted)"
	}
	var r LockRecord
	if json.Unmarshal(e.Value, &r) != nil || r.Owner == "" {
		return fmt.Sprintf("a record that is not a lock (%d bytes)", len(e.Value))
	}
	return "the lock of " + r.Owner
}
