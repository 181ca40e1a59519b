package soak

import (
	"sync"
	"time"
)

// Fault is a kind of injected fault.
type Fault string

// The fault kinds, and None for "no fault was active".
const (
	None     Fault = "none"
	Kill     Fault = "kill -9"
	Pause    Fault = "SIGSTOP past TTL"
	Rolling  Fault = "rolling restart"
	LibSQL   Fault = "libSQL restart"
	S3Outage Fault = "S3 outage"
	// The network faults need network namespaces (test/partition).
	CutStore  Fault = "replica cut from libSQL"
	CutPeers  Fault = "replica cut from peers"
	SlowStore Fault = "libSQL slowed"
)

// Faults lists every fault kind in the order reports show them.
var Faults = []Fault{Kill, Pause, Rolling, LibSQL, S3Outage, CutStore, CutPeers, SlowStore}

// NetFaults are the kinds that run only where the soak may build network
// namespaces.
var NetFaults = []Fault{CutStore, CutPeers, SlowStore}

// blame orders fault kinds by how much they explain a failure: a failure
// that overlaps a kill and a rolling restart is the kill's.
var blame = map[Fault]int{None: 0, Rolling: 1, SlowStore: 2, S3Outage: 3, LibSQL: 4, CutPeers: 5, CutStore: 6, Pause: 7, Kill: 8}

// failuresAllowed tells whether requests may fail while f is blamed: not
// with no fault active, nor during a graceful rolling restart (enforced
// in strict runs); during every other kind they may, since each takes a
// store or a replica away, or slows libSQL, for a while.
func failuresAllowed(f Fault) bool { return f != None && f != Rolling }

// window is one fault, from its injection to the end of its effects.
type window struct {
	kind       Fault
	detail     string
	start, end time.Time
}

// Timeline records when each fault was active, so failures can be
// attributed to the fault that caused them.
type Timeline struct {
	// Tail extends each fault past its end: a kill's effects last until the
	// dead holder's lease expires, a pause's until the resumed replica has
	// learned it lost its leases.
	Tail time.Duration

	mu      sync.Mutex
	windows []window
}

// Begin records that a fault of kind starts now, described by detail
// (the victim, how long), and returns the function that records its end.
func (tl *Timeline) Begin(kind Fault, detail string) (end func()) {
	tl.mu.Lock()
	defer tl.mu.Unlock()
	i := len(tl.windows)
	tl.windows = append(tl.windows, window{kind: kind, detail: detail, start: time.Now()})
	return func() {
		tl.mu.Lock()
		defer tl.mu.Unlock()
		tl.windows[i].end = time.Now()
	}
}

// Blame returns the fault that explains a failure of a request sent at
// start and finished at end: the most disruptive fault whose window
// (extended by Tail) overlaps the request, or None.
func (tl *Timeline) Blame(start, end time.Time) Fault {
	f, _ := tl.blameWindow(start, end)
	return f
}

// blameWindow is Blame that also returns the index of the window blamed
// (the first of the most disruptive), or -1 for None.
func (tl *Timeline) blameWindow(start, end time.Time) (Fault, int) {
	tl.mu.Lock()
	defer tl.mu.Unlock()
	got, at := None, -1
	for i, w := range tl.windows {
		wend := w.end
		if wend.IsZero() {
			wend = end // still active
		}
		if start.Before(wend.Add(tl.Tail)) && !end.Before(w.start) && blame[w.kind] > blame[got] {
			got, at = w.kind, i
		}
	}
	return got, at
}

// snapshotWindows copies the windows recorded so far, in order.
func (tl *Timeline) snapshotWindows() []window {
	tl.mu.Lock()
	defer tl.mu.Unlock()
	return append([]window(nil), tl.windows...)
}

// Count returns how many faults of each kind were injected.
func (tl *Timeline) Count() map[Fault]int {
	tl.mu.Lock()
	defer tl.mu.Unlock()
	n := map[Fault]int{}
	for _, w := range tl.windows {
		n[w.kind]++
	}
	return n
}
