package partition

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/netip"
	"strings"
	"testing"
	"time"

	"github.com/dwk/fleet/appliance/config"
	"github.com/dwk/fleet/test/fleettest"
	"github.com/dwk/fleet/test/wait"
)

// movedWithin bounds how long after a holder is cut from its peers (not
// from libSQL) its objects are served elsewhere for the clients of the
// other front doors (issue 33).
const movedWithin = 5 * time.Second

// deposedFor is how long the cut lasts once the objects moved: long
// enough for requests through the cut holder's own front door to show
// what its clients get (a forward waits forward.timeout).
const deposedFor = config.DefaultForwardTimeout + 2*time.Second

// TestCutHolderIsDeposed cuts the holder off from its peers but not from
// libSQL, under load through every front door. Its peers report it, so it
// hands its leases back: its objects must be served through the other
// front doors within movedWithin, with no acknowledged increment lost and
// none landed that no client may count on (a fenced write). It must
// report not ready while the cut lasts; healed, it must be ready again
// and hold objects.
func TestCutHolderIsDeposed(t *testing.T) {
	f := StartFleet(t, fleettest.Options{LeaseTTL: config.DefaultLeaseTTL})
	holder := f.Replicas[0]
	for _, name := range counters {
		place(t, holder, name)
	}
	l := newLoad(counters...)
	defer l.finish()
	l.start(f.Replicas[1:], clientTimeout, impatient)
	l.start([]*fleettest.Replica{holder}, clientTimeout)
	warm := time.Now()
	wait.Within(t, 20*time.Second, "10 acknowledged increments of every counter", func() bool {
		return every(l.counters, func(c *counter) bool { n, _ := c.acksSince(warm, ""); return n >= 10 })
	})
	if got := readyz(holder); got != "200 ready" {
		t.Fatalf("the holder's /readyz before the cut: %s, want 200 ready", got)
	}

	cut := f.Nodes[0].Cut(t, f.Peers(0)...)
	w := window{began: time.Now()}
	defer cut.Heal(t)
	if err := f.Nodes[1].Reach(netip.MustParseAddrPort(holder.Internal), time.Second); err == nil {
		t.Fatal("a peer still reaches the cut holder")
	}
	if err := f.Nodes[0].Reach(netip.MustParseAddrPort(f.HranaProxy.Addr), time.Second); err != nil {
		t.Fatalf("the holder cut off from its peers does not reach libSQL: %v", err)
	}
	wait.Within(t, 3*movedWithin, "every counter served by another replica", func() bool {
		return every(l.counters, func(c *counter) bool { _, n := c.acksSince(w.began, holder.Member); return n > 0 })
	})
	var moved time.Duration
	for _, c := range l.counters {
		at := firstElsewhere(c, w.began, holder.Member)
		t.Logf("counter %s: served by %s %+.2fs after the cut", c.name, at.member, w.since(at.at))
		moved = max(moved, at.at.Sub(w.began))
	}
	t.Logf("every counter served elsewhere %.2fs after the cut", moved.Seconds())
	if moved > movedWithin {
		t.Errorf("the cut holder's objects were served elsewhere %.2fs after the cut, want at most %v", moved.Seconds(), movedWithin)
	}
	wait.Within(t, 5*time.Second, "the cut holder reports deposed", func() bool { return readyz(holder) == "503 deposed" })
	time.Sleep(deposedFor) // the cut's duration, not a wait for an event
	if got := readyz(holder); got != "503 deposed" {
		t.Errorf("the cut holder's /readyz late in the cut: %s, want 503 deposed", got)
	}

	cut.Heal(t)
	w.ended = time.Now()
	wait.Within(t, 15*time.Second, "the healed replica ready again", func() bool { return readyz(holder) == "200 ready" })
	t.Logf("ready again %.2fs after the cut healed", time.Since(w.ended).Seconds())
	place(t, holder, "pd")
	wait.Within(t, recoverWithin, "10 acknowledged increments of every counter after the cut", func() bool {
		return every(l.counters, func(c *counter) bool { n, _ := c.acksSince(w.ended, ""); return n >= 10 })
	})
	l.finish()

	s := l.summary()
	t.Logf("%d requests, %d failed %v; longest: %s", s.total, s.failed, s.kinds, s.longest)
	logOwnDoor(t, l, holder, w)
	for i, r := range s.hung {
		if i == 5 {
			t.Errorf("... and %d more requests took %v or longer", len(s.hung)-i, hangBound)
			break
		}
		t.Errorf("hung: sent at %+.2fs, %s (bound %v)", w.since(r.start), r, hangBound)
	}
	for _, c := range l.counters {
		check(t, c, finalValue(t, f, c.name), holder.Member, w, scenario{})
	}
}

// firstElsewhere is the first increment sent at or after from that a
// member other than not acknowledged.
func firstElsewhere(c *counter, from time.Time, not string) ack {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, a := range c.acks {
		if !a.sent.Before(from) && a.member != not {
			return a
		}
	}
	return ack{}
}

// logOwnDoor logs what the clients of the cut holder's own front door got
// during the cut: its objects moved to replicas it cannot reach.
func logOwnDoor(t *testing.T, l *load, holder *fleettest.Replica, w window) {
	t.Helper()
	door := " " + holder.Member + " "
	got := map[string]int{}
	var longest time.Duration
	for _, r := range l.requests {
		if !strings.Contains(r.what, door) || !w.during(r.start) {
			continue
		}
		got[kind(r)]++
		longest = max(longest, r.took)
	}
	t.Logf("through the cut holder's own front door during the cut: %v; longest %v", got, longest.Round(time.Millisecond))
}

// readyz is the replica's /readyz answer as "code status".
func readyz(r *fleettest.Replica) string {
	c := &http.Client{Timeout: 2 * time.Second}
	resp, err := c.Get(r.Public + "/readyz")
	if err != nil {
		return err.Error()
	}
	defer resp.Body.Close()
	var body struct{ Status string }
	json.NewDecoder(resp.Body).Decode(&body)
	return fmt.Sprintf("%d %s", resp.StatusCode, body.Status)
}
