package membership

import (
	"context"
	"errors"
	"slices"
	"sync"
	"time"

	"github.com/dwk/fleet/appliance/process/clock/clocktest"
)

// epoch is when every test's fake clock starts.
var epoch = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

func newFakeClock() *clocktest.Fake { return clocktest.NewFake(epoch) }

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
