package objects

import (
	"container/heap"
	"sync"
	"time"
)

// maxArmed bounds the alarm times the scheduler keeps in memory. Alarms set
// while it is full are not armed; the poll still finds them, up to
// AlarmPollInterval late.
const maxArmed = 1 << 16

// alarmTimer holds the times of the alarms this replica set, rescheduled or
// retried, so the scheduler sleeps until the earliest of them instead of
// until its next poll. It only says when to look: the scheduler still asks
// the AlarmIndex (which claims, in central mode) what is due, so an armed
// time that has gone stale (the alarm moved, was deleted, or its object
// moved to another replica) costs one poll that finds nothing. The zero
// value is ready to use.
type alarmTimer struct {
	mu      sync.Mutex
	heap    armedHeap // earliest first
	byKey   map[objKey]*armed
	rearmed chan struct{} // capacity 1; signalled when the earliest time moves earlier

	// backlog is set when a poll left due alarms for lack of a free slot,
	// or because the object's alarm was still running, so the end of a run
	// polls again. Guarded by Runtime.mu, so that it is ordered with
	// Runtime.alarming.
	backlog bool
}

// armed is one object's alarm time in the heap.
type armed struct {
	key objKey
	at  time.Time
	i   int // position in the heap
}

// arm records that the alarm of object k is due at at, replacing the
// object's earlier time. It signals the scheduler when at is the new
// earliest time.
func (t *alarmTimer) arm(k objKey, at time.Time) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if a, ok := t.byKey[k]; ok {
		a.at = at
		heap.Fix(&t.heap, a.i)
	} else {
		if len(t.heap) >= maxArmed {
			return
		}
		if t.byKey == nil {
			t.byKey = map[objKey]*armed{}
		}
		a := &armed{key: k, at: at}
		t.byKey[k] = a
		heap.Push(&t.heap, a)
	}
	if t.heap[0].key == k {
		select {
		case t.rearmedLocked() <- struct{}{}:
		default:
		}
	}
}

// disarm forgets the alarm time of object k.
func (t *alarmTimer) disarm(k objKey) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if a, ok := t.byKey[k]; ok {
		heap.Remove(&t.heap, a.i)
		delete(t.byKey, k)
	}
}

// takeDue forgets every time at or before now and reports whether there
// was one.
func (t *alarmTimer) takeDue(now time.Time) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	took := false
	for len(t.heap) > 0 && !t.heap[0].at.After(now) {
		a := heap.Pop(&t.heap).(*armed)
		delete(t.byKey, a.key)
		took = true
	}
	return took
}

// next returns the earliest armed time, if any.
func (t *alarmTimer) next() (time.Time, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if len(t.heap) == 0 {
		return time.Time{}, false
	}
	return t.heap[0].at, true
}

// armedCount is the number of armed times.
func (t *alarmTimer) armedCount() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return len(t.heap)
}

// rearmedChan is signalled when arm makes a time the earliest.
func (t *alarmTimer) rearmedChan() <-chan struct{} {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.rearmedLocked()
}

func (t *alarmTimer) rearmedLocked() chan struct{} {
	if t.rearmed == nil {
		t.rearmed = make(chan struct{}, 1)
	}
	return t.rearmed
}

// armedHeap is a min-heap of alarm times (container/heap).
type armedHeap []*armed

var _ heap.Interface = (*armedHeap)(nil)

func (h armedHeap) Len() int           { return len(h) }
func (h armedHeap) Less(i, j int) bool { return h[i].at.Before(h[j].at) }
func (h armedHeap) Swap(i, j int) {
	h[i], h[j] = h[j], h[i]
	h[i].i, h[j].i = i, j
}

func (h *armedHeap) Push(x any) {
	a := x.(*armed)
	a.i = len(*h)
	*h = append(*h, a)
}

func (h *armedHeap) Pop() any {
	old := *h
	a := old[len(old)-1]
	old[len(old)-1] = nil
	*h = old[:len(old)-1]
	return a
}
