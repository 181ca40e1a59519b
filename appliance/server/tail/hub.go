package tail

import (
	"math/rand/v2"
	"sync"
	"sync/atomic"
)

// Buffer is how many events a subscriber may fall behind by; past it,
// events are dropped for that subscriber (and counted), never waited for.
const Buffer = 1024

// Hub fans a replica's events out to its subscribers.
type Hub struct {
	mu   sync.Mutex
	subs map[*Subscription]struct{}
	n    atomic.Int32
}

// Subscription is one subscriber: read C until Close.
type Subscription struct {
	// C delivers the events that pass the filter.
	C <-chan Event

	c       chan Event
	f       Filter
	h       *Hub
	dropped atomic.Int64
}

// Dropped is how many events the subscriber missed by falling behind.
func (s *Subscription) Dropped() int64 { return s.dropped.Load() }

// Close ends the subscription.
func (s *Subscription) Close() {
	s.h.mu.Lock()
	if _, ok := s.h.subs[s]; ok {
		delete(s.h.subs, s)
		s.h.n.Add(-1)
	}
	s.h.mu.Unlock()
}

// Subscribe starts a subscription to the events f passes.
func (h *Hub) Subscribe(f Filter) *Subscription {
	c := make(chan Event, Buffer)
	s := &Subscription{C: c, c: c, f: f, h: h}
	h.mu.Lock()
	if h.subs == nil {
		h.subs = map[*Subscription]struct{}{}
	}
	h.subs[s] = struct{}{}
	h.n.Add(1)
	h.mu.Unlock()
	return s
}

// Active reports whether anyone tails worker: only then are its requests
// worth an event.
func (h *Hub) Active(worker string) bool {
	if h == nil || h.n.Load() == 0 {
		return false
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	for s := range h.subs {
		if s.f.Worker == "" || s.f.Worker == worker {
			return true
		}
	}
	return false
}

// Publish sends ev to every subscriber whose filter passes it, sampled at
// the filter's rate. It never blocks.
func (h *Hub) Publish(ev Event) {
	if h == nil || h.n.Load() == 0 {
		return
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	for s := range h.subs {
		if !s.f.Match(&ev) || (s.f.SamplingRate > 0 && s.f.SamplingRate < 1 && rand.Float64() >= s.f.SamplingRate) {
			continue
		}
		select {
		case s.c <- ev:
		default:
			s.dropped.Add(1)
		}
	}
}
