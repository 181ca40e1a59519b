package membership

import (
	"context"
	"errors"
	"slices"
	"sync"
	"testing"
	"time"
)

// fakeClock is a Clock that moves only when the test advances it.
type fakeClock struct {
	mu      sync.Mutex
	now     time.Time
	waiters []fakeWaiter
	calls   int
}

type fakeWaiter struct {
	at time.Time
	ch chan time.Time
}

var _ Clock = (*fakeClock)(nil)

var epoch = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

func newFakeClock() *fakeClock { return &fakeClock{now: epoch} }

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) After(d time.Duration) <-chan time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.calls++
	ch := make(chan time.Time, 1)
	if d <= 0 {
		ch <- c.now
		return ch
	}
	c.waiters = append(c.waiters, fakeWaiter{c.now.Add(d), ch})
	return ch
}

// Advance moves the clock by d and fires every waiter due by then.
func (c *fakeClock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
	kept := c.waiters[:0]
	for _, w := range c.waiters {
		if w.at.After(c.now) {
			kept = append(kept, w)
			continue
		}
		w.ch <- c.now
	}
	c.waiters = kept
}

// WaitCalls blocks until After has been called n times in all: the
// goroutine under test is asleep, waiting for the clock.
func (c *fakeClock) WaitCalls(t *testing.T, n int) {
	t.Helper()
	waitFor(t, "a goroutine to wait on the clock", func() bool {
		c.mu.Lock()
		defer c.mu.Unlock()
		return c.calls >= n
	})
}

// waitFor polls cond with a deadline.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(time.Millisecond)
	}
}

// memStore is an in-memory Recorder and Lister with no expiry.
type memStore struct {
	mu      sync.Mutex
	members map[string]Member
	puts    []Member
	removed []string
	err     error // returned by every call while set
	block   chan struct{}
	blocked chan struct{} // receives when a Put starts waiting on block
}

var (
	_ Recorder = (*memStore)(nil)
	_ Lister   = (*memStore)(nil)
)

func newMemStore() *memStore { return &memStore{members: map[string]Member{}} }

func (s *memStore) Put(ctx context.Context, m Member, ttl time.Duration) error {
	s.mu.Lock()
	block := s.block
	s.mu.Unlock()
	if block != nil {
		s.blocked <- struct{}{}
		select {
		case <-block:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.err != nil {
		return s.err
	}
	s.members[m.ID] = m
	s.puts = append(s.puts, m)
	return nil
}

func (s *memStore) Remove(_ context.Context, id string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.err != nil {
		return s.err
	}
	delete(s.members, id)
	s.removed = append(s.removed, id)
	return nil
}

func (s *memStore) List(context.Context) ([]Member, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.err != nil {
		return nil, s.err
	}
	var out []Member
	for _, m := range s.members {
		out = append(out, m)
	}
	// Map order: the View must sort.
	return out, nil
}

func (s *memStore) setErr(err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.err = err
}

func (s *memStore) putLog() []Member {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.puts)
}

func (s *memStore) set(ms ...Member) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, m := range ms {
		s.members[m.ID] = m
	}
}

func (s *memStore) del(id string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.members, id)
}

var errDown = errors.New("store down")

func member(id string, st State) Member {
	return Member{ID: id, State: st, Internal: id + ":8788", Public: id + ":8787", Version: "v1", Started: epoch}
}
