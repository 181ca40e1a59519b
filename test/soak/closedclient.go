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
// are the replicas' public URLs. The client's counter is first
// incremented through the victim's door, so that the victim most likely
// holds it.
func (c *closedClients) start(kind Fault, victim int, doors []string, pick func() string) {
	c.n++
	counter := fmt.Sprintf("closed-%s-%d", kind, c.n)
	door := pick
	if victim >= 0 {
		other := doors[(victim+1)%len(doors)]
		door = func() string { return other }
		increment(nil, doors[victim], counter) // placement only: its outcome does not matter
	}
	c.stop = make(chan struct{})
	stop := c.stop
	c.wg.Add(1)
	go func() {
		defer c.wg.Done()
		c.l.noteClosedLoop(kind, runClosedLoop(door, counter, stop))
	}()
}

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
