package soak

import (
	"fmt"
	"sync"
	"time"
)

// closedClients runs the closed-loop client of each injected fault (see
// closedLoop) and merges what each saw into the ledger.
type closedClients struct {
	l    *Ledger
	tail time.Duration

	wg   sync.WaitGroup
	n    int
	stop chan struct{}
}

// start starts the client of a fault of kind. victim is the index of the
// faulted replica, or -1 when the fault has none: the client then asks
// any door, as pick chooses (a rolling restart moves every door). doors
// are the replicas' public URLs. The client's counter is one that the
// victim holds (member): of up to placeTries names, the first whose
// increment through the victim's door the victim served.
func (c *closedClients) start(kind Fault, victim int, member string, doors []string, pick func() string) {
	c.n++
	counter := fmt.Sprintf("closed-%s-%d", kind, c.n)
	door := pick
	if victim >= 0 {
		other := doors[(victim+1)%len(doors)]
		door = func() string { return other }
		for try := range placeTries {
			counter = fmt.Sprintf("closed-%s-%d-%d", kind, c.n, try)
			if m, err := incrementOn(nil, doors[victim], counter); err == nil && m == member {
				break
			}
		}
	}
	c.stop = make(chan struct{})
	stop := c.stop
	c.wg.Add(1)
	go func() {
		defer c.wg.Done()
		c.l.noteClosedLoop(kind, runClosedLoop(door, counter, stop))
	}()
}

// placeTries bounds the names tried to find a counter the victim holds.
const placeTries = 32

// end stops the running client, if any, once the fault's effects are
// over: the timeline's Tail after the fault ended.
func (c *closedClients) end() {
	if c.stop == nil {
		return
	}
	stop := c.stop
	c.stop = nil
	c.wg.Add(1)
	go func() {
		defer c.wg.Done()
		time.Sleep(c.tail) // fault pacing: how long the effects are watched
		close(stop)
	}()
}

// wait waits for every client to stop and report.
func (c *closedClients) wait() { c.wg.Wait() }
