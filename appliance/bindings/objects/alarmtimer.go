package objects

import (
	"container/heap"
	"sync"
	"time"
)

// AlarmLookahead is implemented by an AlarmIndex whose Due takes long
// enough to make alarms late (round trips to a remote store). The
// scheduler then calls Due that much before an alarm's time, passing the
// current time plus the lookahead as now, holds the entries it gets, and
// starts each at its time.
type AlarmLookahead interface {
	// Lookahead returns how long before an alarm's time to ask for it:
	// about what Due takes, with room to spare. It must not block. The
	// scheduler uses at most maxLookahead.
	Lookahead() time.Duration
}

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

	// held are alarms claimed before their time, earliest first, each
	// holding a slot in Runtime.alarming; the scheduler starts them at
	// their time. Only the scheduler goroutine touches it.
	held []heldRun

	// backlog is set when a poll left due alarms for lack of a free slot,
	// or because the object's alarm was still running, so the end of a run
	// polls again. Guarded by Runtime.mu, so that it is ordered with
	// Runtime.alarming.
	backlog bool
}

// heldRun is an alarm claimed before its time.
type heldRun struct {
	e  AlarmEntry
	at time.Time // not before: the entry's time, or the time armed here
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

// takeDue forgets every time at or before horizon and returns them by
// object (nil when there was none).
func (t *alarmTimer) takeDue(horizon time.Time) map[objKey]time.Time {
	t.mu.Lock()
	defer t.mu.Unlock()
	var took map[objKey]time.Time
	for len(t.heap) > 0 && !t.heap[0].at.After(horizon) {
		a := heap.Pop(&t.heap).(*armed)
		delete(t.byKey, a.key)
		if took == nil {
			took = map[objKey]time.Time{}
		}
		took[a.key] = a.at
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
