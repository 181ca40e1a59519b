package soak

import (
	"fmt"
	"io"
	"net/http"
	"time"
)

// closedLoop is what the closed-loop client of one fault saw: one client
// that sends one increment at a time of its own counter, the next as soon
// as the last is answered, through a front door other than the faulted
// replica's, while the fault and its effects (the timeline's Tail) last.
// Its counter is first incremented through the victim's door, so that the
// victim most likely holds it when the fault begins.
type closedLoop struct {
	// Wait is the longest wait for any one request, answered or failed.
	Wait time.Duration
	// Without is the longest time without its object: from sending a
	// request that failed until the next acknowledged increment.
	Without time.Duration
	// Requests and Failed count its requests.
	Requests, Failed int
}

// merge keeps the longest figures of c and o.
func (c closedLoop) merge(o closedLoop) closedLoop {
	return closedLoop{Wait: max(c.Wait, o.Wait), Without: max(c.Without, o.Without),
		Requests: c.Requests + o.Requests, Failed: c.Failed + o.Failed}
}

// noteClosedLoop merges a closed-loop client's figures into f's.
func (l *Ledger) noteClosedLoop(f Fault, c closedLoop) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.closed[f] = l.closed[f].merge(c)
}

// closedLoops returns every fault kind's closed-loop figures.
func (l *Ledger) closedLoops() map[Fault]closedLoop {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := make(map[Fault]closedLoop, len(l.closed))
	for f, c := range l.closed {
		out[f] = c
	}
	return out
}

// closedLoopClient's requests time out after this: longer than any
// forward or drain, so that a request's wait is the fleet's, not ours.
const closedLoopTimeout = 30 * time.Second

// runClosedLoop increments counter through door(), one request at a time,
// until stop closes. A failed request that got no answer at all (the
// connection was refused) is followed by a 10ms pause, so that a dead
// door is not spun on.
func runClosedLoop(door func() string, counter string, stop <-chan struct{}) closedLoop {
	client := &http.Client{Timeout: closedLoopTimeout}
	var (
		out       closedLoop
		lostSince time.Time
	)
	for {
		select {
		case <-stop:
			return out
		default:
		}
		start := time.Now()
		err := increment(client, door(), counter)
		end := time.Now()
		out.Requests++
		out.Wait = max(out.Wait, end.Sub(start))
		if err != nil {
			out.Failed++
			if lostSince.IsZero() {
				lostSince = start
			}
			select {
			case <-stop:
				return out
			case <-time.After(10 * time.Millisecond):
			}
			continue
		}
		if !lostSince.IsZero() {
			out.Without = max(out.Without, end.Sub(lostSince))
			lostSince = time.Time{}
		}
	}
}

// increment sends one increment of counter through door.
func increment(client *http.Client, door, counter string) error {
	_, err := incrementOn(client, door, counter)
	return err
}

// incrementOn sends one increment of counter through door and returns
// the member that served it (X-Dwk-Member), its object's holder.
func incrementOn(client *http.Client, door, counter string) (string, error) {
	if client == nil {
		client = &http.Client{Timeout: closedLoopTimeout}
	}
	resp, err := client.Post(door+"/counter/"+counter+"/increment", "", nil)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	io.Copy(io.Discard, resp.Body)
	if resp.StatusCode != http.StatusOK {
		return "", fmt.Errorf("increment %s: %s", counter, resp.Status)
	}
	return resp.Header.Get("X-Dwk-Member"), nil
}
