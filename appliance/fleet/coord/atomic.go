package coord

import (
	"context"
	"fmt"
	"time"

	"github.com/dwk/fleet/appliance/fleet/coord/tuple"
)

// Atomic is an atomic operation under construction: checks that must all
// hold and mutations applied, in order, only if they do. Build it with the
// chaining methods and run it with Commit. The first invalid argument is
// remembered and returned by Commit. An Atomic is not safe for concurrent
// use and commits once.
type Atomic struct {
	s         *Store
	checks    []check
	muts      []mutation
	reads     []tuple.Key // read when a check fails (ReadOnFail)
	err       error
	committed bool
	shared    bool
}

type check struct {
	key []byte
	vs  Versionstamp
}

type mutationKind uint8

const (
	mutSet mutationKind = iota
	mutSetU64
	mutDelete
	mutSum
)

type mutation struct {
	kind     mutationKind
	key      []byte
	value    []byte
	n        uint64
	expireMS int64 // 0: never
}

// CommitResult is the outcome of a Commit that reached the server.
type CommitResult struct {
	// OK is false when a check failed; nothing was written then.
	OK bool
	// Versionstamp is the commit's versionstamp when OK; every key the
	// operation wrote now carries it.
	Versionstamp Versionstamp
	// Read holds, when a check failed, the entries of the keys given to
	// ReadOnFail, in their order, as Get would return them: read from one
	// snapshot in the commit's round trip.
	Read []Entry
}

// Atomic starts an atomic operation.
func (s *Store) Atomic() *Atomic { return &Atomic{s: s} }

// ReadOnFail has a commit whose checks fail also read keys (at most
// MaxGetMany), in the same round trip (CommitResult.Read): the operation
// can be tried on an assumption (that the keys are absent, say) at no
// extra cost when the assumption is wrong.
func (a *Atomic) ReadOnFail(keys ...tuple.Key) *Atomic {
	a.reads = append(a.reads, keys...)
	return a
}

// Shared lets the operation share one transaction and round trip with
// the Shared operations other goroutines commit on the same Store at the
// same moment: those that arrive while one such commit is in flight go
// together in the next (at most MaxShared). Each is applied as if
// committed alone, in some order, with a versionstamp of its own; one
// whose checks fail, or that fails, holds none of the others back. It
// suits small operations that many goroutines commit at once, like the
// leases of objects being created: a batch is one request, under the
// server's limits on a request's size. A Shared commit whose context ends
// after its transaction was sent waits for its outcome (at most the
// store's timeout) instead of reporting ErrOutcomeUnknown.
func (a *Atomic) Shared() *Atomic {
	a.shared = true
	return a
}

// Check requires key's current versionstamp to be vs; a zero vs requires
// the key to be absent (missing or expired).
func (a *Atomic) Check(key tuple.Key, vs Versionstamp) *Atomic {
	k, err := a.key("check", key)
	if err == nil {
		a.checks = append(a.checks, check{key: k, vs: vs})
	}
	return a
}

// Set writes value under key. A positive expireIn makes the key expire
// that long after the commit, by the server's clock (millisecond
// precision, rounded up); zero means never. value must not change until
// Commit returns.
func (a *Atomic) Set(key tuple.Key, value []byte, expireIn time.Duration) *Atomic {
	k, err := a.key("set", key)
	if err != nil {
		return a
	}
	if len(value) > MaxValueSize {
		a.fail(fmt.Errorf("set %v: %w: %d bytes, limit %d", key, ErrValueTooLarge, len(value), MaxValueSize))
		return a
	}
	ms, err := expiryMS(expireIn)
	if err != nil {
		a.fail(fmt.Errorf("set %v: %w", key, err))
		return a
	}
	if value == nil {
		value = []byte{}
	}
	a.muts = append(a.muts, mutation{kind: mutSet, key: k, value: value, expireMS: ms})
	return a
}

// SetU64 writes the u64 counter v under key, for later Sums; expireIn as
// in Set.
func (a *Atomic) SetU64(key tuple.Key, v uint64, expireIn time.Duration) *Atomic {
	k, err := a.key("set u64", key)
	if err != nil {
		return a
	}
	ms, err := expiryMS(expireIn)
	if err != nil {
		a.fail(fmt.Errorf("set u64 %v: %w", key, err))
		return a
	}
	a.muts = append(a.muts, mutation{kind: mutSetU64, key: k, n: v, expireMS: ms})
	return a
}

// Delete removes key; deleting an absent key is not an error.
func (a *Atomic) Delete(key tuple.Key) *Atomic {
	if k, err := a.key("delete", key); err == nil {
		a.muts = append(a.muts, mutation{kind: mutDelete, key: k})
	}
	return a
}

// Sum adds delta to the u64 counter under key, modulo 2^64 (as Deno's
// sum). An absent key is treated as 0 and becomes a counter without
// expiry; an existing counter keeps its expiry. If key holds a value that
// is not a counter, Commit fails with ErrNotU64 and writes nothing.
func (a *Atomic) Sum(key tuple.Key, delta uint64) *Atomic {
	if k, err := a.key("sum", key); err == nil {
		a.muts = append(a.muts, mutation{kind: mutSum, key: k, n: delta})
	}
	return a
}

func (a *Atomic) key(op string, key tuple.Key) ([]byte, error) {
	k, err := encodeKey(key)
	if err != nil {
		a.fail(fmt.Errorf("%s: %w", op, err))
	}
	return k, err
}

func (a *Atomic) fail(err error) {
	if a.err == nil {
		a.err = err
	}
}

// expiryMS converts expireIn to whole milliseconds, rounding up.
func expiryMS(d time.Duration) (int64, error) {
	if d < 0 {
		return 0, fmt.Errorf("%w: %s", ErrInvalidExpiry, d)
	}
	return int64((d + time.Millisecond - 1) / time.Millisecond), nil
}

// Commit runs the operation in one round trip: it returns OK=false if a
// check failed, the new versionstamp if everything was written, and an
// error otherwise (nothing was written, except after an error wrapping
// ErrOutcomeUnknown, when the caller cannot know and must re-read).
func (a *Atomic) Commit(ctx context.Context) (CommitResult, error) {
	if a.committed {
		return CommitResult{}, ErrCommitted
	}
	a.committed = true
	if a.err != nil {
		return CommitResult{}, fmt.Errorf("atomic: %w", a.err)
	}
	if len(a.reads) > MaxGetMany {
		return CommitResult{}, fmt.Errorf("atomic: %d keys to read on failure: %w (limit %d)", len(a.reads), ErrTooManyOps, MaxGetMany)
	}
	if len(a.checks) > MaxChecks || len(a.muts) > MaxMutations {
		return CommitResult{}, fmt.Errorf("atomic: %d checks, %d mutations: %w (limits %d, %d)",
			len(a.checks), len(a.muts), ErrTooManyOps, MaxChecks, MaxMutations)
	}
	ctx, cancel, err := a.s.begin(ctx)
	if err != nil {
		return CommitResult{}, err
	}
	defer cancel()
	if !a.shared {
		return a.s.commitAlone(ctx, a)
	}
	res, err := a.s.shared.Do(ctx, a)
	if err != nil && err == ctx.Err() {
		// Dropped before its transaction was sent: nothing was written.
		err = fmt.Errorf("atomic commit: not sent: %w", err)
	}
	return res, err
}
