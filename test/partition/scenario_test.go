package partition

import (
	"net/http"
	"testing"
	"time"

	"github.com/dwk/fleet/appliance/config"
	counterworker "github.com/dwk/fleet/appliance/refworkers/counter"
	"github.com/dwk/fleet/test/fleettest"
	"github.com/dwk/fleet/test/wait"
)

// counters are the objects of every scenario; replica 0 holds them when
// the fault strikes.
var counters = []string{"pa", "pb", "pc"}

// recoverWithin bounds how long after the fault ends every counter takes
// writes again.
const recoverWithin = 30 * time.Second

// scenario is one fault under load.
type scenario struct {
	// strike starts the fault on f, whose replica 0 holds the counters,
	// and returns when it took effect and what ends it, or nil when it
	// ended by itself.
	strike func(t *testing.T, f *Fleet) (began time.Time, heal func())
	// holderDoor: clients also write through the holder's own front door.
	holderDoor bool
	// holderFenced: the holder cannot commit while the fault lasts. It
	// must acknowledge no increment sent during the fault, and another
	// replica must serve the counters before the fault ends.
	holderFenced bool
	// serves: every counter must take writes while the fault lasts.
	serves bool
}

// window is when the fault lasted.
type window struct{ began, ended time.Time }

func (w window) during(at time.Time) bool { return !at.Before(w.began) && at.Before(w.ended) }

// since is the offset of at from the fault's start, in seconds.
func (w window) since(at time.Time) float64 { return at.Sub(w.began).Seconds() }

// runScenario starts a fleet with the default lease TTL and forward
// timeout, places the counters on replica 0, and sends increments and
// reads through the front doors of the other replicas (and of replica 0
// with holderDoor) while the fault strikes, lasts and heals. Each
// counter has a patient writer and reader (clientTimeout) and an
// impatient writer that gives up after 3s and tries again, as a user
// would. Then it checks that no request hung, that no acknowledged
// increment was lost, that no increment landed beyond those the clients
// sent, and the scenario's own conditions; it logs the longest request
// and how long each counter was unavailable.
func runScenario(t *testing.T, sc scenario) {
	f := StartFleet(t, fleettest.Options{LeaseTTL: config.DefaultLeaseTTL})
	holder := f.Replicas[0]
	for _, name := range counters {
		place(t, holder, name)
	}
	l := newLoad(counters...)
	defer l.finish()
	l.start(f.Replicas[1:], clientTimeout, impatient)
	if sc.holderDoor {
		l.start([]*fleettest.Replica{holder}, clientTimeout)
	}
	warm := time.Now()
	wait.Within(t, 20*time.Second, "10 acknowledged increments of every counter", func() bool {
		return every(l.counters, func(c *counter) bool { n, _ := c.acksSince(warm, ""); return n >= 10 })
	})
	for _, c := range l.counters {
		if _, elsewhere := c.acksSince(warm, holder.Member); elsewhere > 0 {
			t.Fatalf("counter %s: %d increments served by a replica other than its holder %s before the fault", c.name, elsewhere, holder.Member)
		}
	}

	began, heal := sc.strike(t, f)
	w := window{began: began}
	if heal != nil {
		time.Sleep(faultFor) // the fault's duration, not a wait for an event
		heal()
	}
	w.ended = time.Now()
	t.Logf("fault from +0s to %+.2fs", w.since(w.ended))
	wait.Within(t, recoverWithin, "10 acknowledged increments of every counter after the fault", func() bool {
		return every(l.counters, func(c *counter) bool { n, _ := c.acksSince(w.ended, ""); return n >= 10 })
	})
	l.finish()

	s := l.summary()
	t.Logf("%d requests, %d failed %v; longest: %s", s.total, s.failed, s.kinds, s.longest)
	for k, r := range s.samples {
		t.Logf("  %s, e.g. sent at %+.2fs: %s", k, w.since(r.start), r)
	}
	for i, r := range s.hung {
		if i == 5 {
			t.Errorf("... and %d more requests took %v or longer", len(s.hung)-i, hangBound)
			break
		}
		t.Errorf("hung: sent at %+.2fs, %s (bound %v)", w.since(r.start), r, hangBound)
	}
	for _, c := range l.counters {
		check(t, c, finalValue(t, f, c.name), holder.Member, w, sc)
	}
}

// check holds counter c, whose value is final, to what its clients were
// told, and logs how long it was unavailable.
func check(t *testing.T, c *counter, final int64, holder string, w window, sc scenario) {
	t.Helper()
	g := c.longestGap()
	c.mu.Lock()
	defer c.mu.Unlock()
	t.Logf("counter %s: final %d, %d acknowledged, %d of %d unknown outcomes landed, %d reads; unavailable %v, from %+.2fs (%s) to %+.2fs (%s)",
		c.name, final, c.acked, final-c.acked, c.unknown, c.reads,
		g.d.Round(time.Millisecond), w.since(g.from.at), g.from.member, w.since(g.to.at), g.to.member)
	for _, v := range c.violations {
		t.Errorf("counter %s: %s", c.name, v)
	}
	if final < c.acked {
		t.Errorf("counter %s: final %d < %d acknowledged increments: an acknowledged write was lost", c.name, final, c.acked)
	}
	if final > c.acked+c.unknown {
		t.Errorf("counter %s: final %d > %d acknowledged + %d unknown: a write no client may count on landed (a fenced holder's, or one applied twice)", c.name, final, c.acked, c.unknown)
	}
	for v, m := range c.values {
		if v > final {
			t.Errorf("counter %s: %s acknowledged an increment to %d, above the final value %d: it was lost", c.name, m, v, final)
		}
	}
	if c.reads == 0 {
		t.Errorf("counter %s: no read came back, so the stale-read check checked nothing", c.name)
	}
	var during int
	var elsewhere *ack
	for _, a := range c.acks {
		if !w.during(a.sent) {
			continue
		}
		during++
		if sc.holderFenced && a.member == holder && a.at.Before(w.ended) {
			t.Errorf("counter %s: the holder %s, cut off from libSQL, acknowledged an increment sent at %+.2fs", c.name, holder, w.since(a.sent))
		}
		if a.member != holder && elsewhere == nil {
			elsewhere = &a
		}
	}
	if elsewhere != nil {
		t.Logf("counter %s: served by %s %+.2fs after the fault began", c.name, elsewhere.member, w.since(elsewhere.at))
	}
	if sc.holderFenced && (elsewhere == nil || !w.during(elsewhere.at)) {
		t.Errorf("counter %s: no other replica served it during the fault (%.2fs)", c.name, w.since(w.ended))
	}
	if sc.serves && during == 0 {
		t.Errorf("counter %s: no increment sent during the fault was acknowledged", c.name)
	}
}

// finalValue reads counter name through replica 1's front door, trying
// again until it answers: the fault is over.
func finalValue(t *testing.T, f *Fleet, name string) int64 {
	t.Helper()
	var got struct{ Value int64 }
	l := newLoad()
	wait.Within(t, 20*time.Second, "the final value of "+name, func() bool {
		_, err := l.do("GET", f.Replicas[1], "/counter/"+name, clientTimeout, &got)
		return err == nil
	})
	return got.Value
}

// place makes holder take counter name: a request to its internal
// listener, as the last hop of a forward, makes it take a free object.
func place(t *testing.T, holder *fleettest.Replica, name string) {
	t.Helper()
	req, err := holder.ObjectRequest("GET", counterworker.Class, name, "/counter/"+name, nil)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := holder.Fleet().InternalClient().Do(req)
	if err != nil {
		t.Fatalf("place %s on %s: %v", name, holder.Member, err)
	}
	resp.Body.Close()
	if m := resp.Header.Get("X-Dwk-Member"); resp.StatusCode != http.StatusOK || m != holder.Member {
		t.Fatalf("place %s on %s: %s from %q", name, holder.Member, resp.Status, m)
	}
}

func every[T any](xs []T, ok func(T) bool) bool {
	for _, x := range xs {
		if !ok(x) {
			return false
		}
	}
	return true
}
