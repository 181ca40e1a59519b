package partition

import (
	"net/http"
	"net/netip"
	"testing"
	"time"

	counterworker "github.com/dwk/fleet/appliance/refworkers/counter"
	"github.com/dwk/fleet/test/fleettest"
	"github.com/dwk/fleet/test/wait"
)

// faultFor is how long a cut or a slow store lasts: past hangBound, so a
// request that would hang on the fault is still waiting when the bound
// passes, rather than released when the fault ends.
const faultFor = hangBound + 3*time.Second

// restartDown is how long libSQL stays down in a restart: longer than
// twice the default lease TTL, so leases lapse while it is down.
const restartDown = 5 * time.Second

// recoverWithin bounds how long after the fault ends every counter takes
// writes again.
const recoverWithin = 30 * time.Second

// counters are the objects of every case; replica 0 holds them when the
// fault strikes.
var counters = []string{"pa", "pb", "pc"}

// TestHolderCutFromLibSQL cuts the holder off from libSQL while the
// other replicas' front doors, and the clients, still reach it. It can
// commit nothing, so it must acknowledge no increment sent during the
// cut, and its objects must be served elsewhere before the cut heals.
func TestHolderCutFromLibSQL(t *testing.T) {
	runScenario(t, scenario{
		holderDoor:   true,
		holderFenced: true,
		strike: func(t *testing.T, f *Fleet) (time.Time, func()) {
			holder := f.Nodes[0]
			cut := holder.Cut(t, f.Store()...)
			began := time.Now()
			if err := holder.Reach(netip.MustParseAddrPort(f.HranaProxy.Addr), time.Second); err == nil {
				t.Fatal("the cut holder still reaches libSQL")
			}
			if err := f.Nodes[1].Reach(netip.MustParseAddrPort(f.Replicas[0].Internal), time.Second); err != nil {
				t.Fatalf("a peer does not reach the cut holder: %v", err)
			}
			return began, func() { cut.Heal(t) }
		},
	})
}

// TestHolderCutFromPeers cuts the holder off from the other replicas, not
// from libSQL: it keeps its leases, and the front doors that cannot reach
// it must answer within the bound instead of hanging.
func TestHolderCutFromPeers(t *testing.T) {
	runScenario(t, scenario{
		strike: func(t *testing.T, f *Fleet) (time.Time, func()) {
			holder := f.Nodes[0]
			cut := holder.Cut(t, f.Peers(0)...)
			began := time.Now()
			if err := f.Nodes[1].Reach(netip.MustParseAddrPort(f.Replicas[0].Internal), time.Second); err == nil {
				t.Fatal("a peer still reaches the cut holder")
			}
			if err := holder.Reach(netip.MustParseAddrPort(f.HranaProxy.Addr), time.Second); err != nil {
				t.Fatalf("the holder cut off from its peers does not reach libSQL: %v", err)
			}
			return began, func() { cut.Heal(t) }
		},
	})
}

// TestSlowLibSQL slows libSQL to 200 ms per round trip for every replica:
// the counters must keep taking writes.
func TestSlowLibSQL(t *testing.T) {
	runScenario(t, scenario{
		serves: true,
		strike: func(t *testing.T, f *Fleet) (time.Time, func()) {
			before := roundTrip(t, f.HranaProxy)
			for _, p := range []*Proxy{f.HranaProxy, f.AdminProxy} {
				if err := p.Delay(100 * time.Millisecond); err != nil {
					t.Fatal(err)
				}
			}
			began := time.Now()
			slow := roundTrip(t, f.HranaProxy)
			t.Logf("libSQL round trip through the proxy: %v, slowed to %v", before.Round(time.Millisecond), slow.Round(time.Millisecond))
			if slow < 200*time.Millisecond {
				t.Fatalf("slowed round trip took %v, want at least 200ms", slow)
			}
			return began, func() {
				for _, p := range []*Proxy{f.HranaProxy, f.AdminProxy} {
					if err := p.Delay(0); err != nil {
						t.Fatal(err)
					}
				}
			}
		},
	})
}

// TestLibSQLRestart stops libSQL for restartDown and starts it again on
// the same ports and data.
func TestLibSQLRestart(t *testing.T) {
	runScenario(t, scenario{
		strike: func(t *testing.T, f *Fleet) (time.Time, func()) {
			var began time.Time
			f.Fleet.LibSQL.Restart(restartDown, func() { began = time.Now() })
			return began, nil
		},
	})
}

// roundTrip times one request to libSQL's /health through p on a new
// connection.
func roundTrip(t *testing.T, p *Proxy) time.Duration {
	t.Helper()
	c := &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{DisableKeepAlives: true}}
	start := time.Now()
	resp, err := c.Get("http://" + p.Addr + "/health")
	if err != nil {
		t.Fatalf("libSQL through the proxy: %v", err)
	}
	resp.Body.Close()
	return time.Since(start)
}

// scenario is one fault under load.
type scenario struct {
	// strike starts the fault on f, whose replica 0 holds the counters,
	// and returns when it took effect and what ends it, or nil when it
	// ended by itself.
	strike func(t *testing.T, f *Fleet) (began time.Time, heal func())
	// holderDoor: clients also write through the holder's own front door.
	holderDoor bool
	// holderFenced: the holder cannot commit while the fault lasts. It
	// must acknowledge no increment sent after the fault began before the
	// fault ends, and the counters must be served by another replica
	// before the fault ends.
	holderFenced bool
	// serves: every counter must take writes while the fault lasts.
	serves bool
}

// runScenario starts a fleet at the default lease TTL on its own network,
// places the counters on replica 0, and sends increments and reads
// through the front doors of the other replicas (and of replica 0 with
// holderDoor) while the fault strikes, lasts and heals. Then it checks
// that no request hung, that no acknowledged increment was lost, that no
// increment beyond those the clients sent landed, and the scenario's own
// conditions, and logs how long each counter was unavailable.
func runScenario(t *testing.T, sc scenario) {
	f := StartFleet(t, fleettest.Options{})
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

	struck, heal := sc.strike(t, f)
	if heal != nil {
		time.Sleep(faultFor) // the fault's duration, not a wait for an event
		heal()
	}
	healed := time.Now()
	t.Logf("fault from +0s to +%v", healed.Sub(struck).Round(time.Millisecond))
	wait.Within(t, recoverWithin, "10 acknowledged increments of every counter after the fault", func() bool {
		return every(l.counters, func(c *counter) bool { n, _ := c.acksSince(healed, ""); return n >= 10 })
	})
	l.finish()

	s := l.summary()
	t.Logf("%d requests, %d failed %v; longest: %s", s.total, s.failed, s.kinds, s.longest)
	for k, r := range s.samples {
		t.Logf("  %s, e.g. at %+.1fs: %s", k, r.start.Sub(struck).Seconds(), r)
	}
	for i, r := range s.hung {
		if i == 5 {
			t.Errorf("... and %d more requests took %v or longer", len(s.hung)-i, hangBound)
			break
		}
		t.Errorf("hung: sent at %+.1fs, %s (bound %v)", r.start.Sub(struck).Seconds(), r, hangBound)
	}
	for _, c := range l.counters {
		check(t, f, c, holder.Member, struck, healed, sc)
	}
}

// check holds counter c to what its clients were told, and logs how long
// it was unavailable.
func check(t *testing.T, f *Fleet, c *counter, holder string, struck, healed time.Time, sc scenario) {
	t.Helper()
	var final struct{ Value int64 }
	l := newLoad()
	wait.Within(t, 20*time.Second, "the final value of "+c.name, func() bool {
		_, err := l.do("GET", f.Replicas[1], "/counter/"+c.name, clientTimeout, &final)
		return err == nil
	})
	g := c.longestGap()
	c.mu.Lock()
	defer c.mu.Unlock()
	t.Logf("counter %s: final %d, %d acknowledged, %d of %d unknown outcomes landed, %d reads; unavailable %v, from %+.2fs (%s) to %+.2fs (%s)",
		c.name, final.Value, c.acked, final.Value-c.acked, c.unknown, c.reads,
		g.d.Round(time.Millisecond), g.from.at.Sub(struck).Seconds(), g.from.member, g.to.at.Sub(struck).Seconds(), g.to.member)
	for _, v := range c.violations {
		t.Errorf("counter %s: %s", c.name, v)
	}
	if final.Value < c.acked {
		t.Errorf("counter %s: final %d < %d acknowledged increments: an acknowledged write was lost", c.name, final.Value, c.acked)
	}
	if final.Value > c.acked+c.unknown {
		t.Errorf("counter %s: final %d > %d acknowledged + %d unknown: a write no client may count on landed (a fenced holder's, or one applied twice)", c.name, final.Value, c.acked, c.unknown)
	}
	for v, m := range c.values {
		if v > final.Value {
			t.Errorf("counter %s: %s acknowledged an increment to %d, above the final value %d: it was lost", c.name, m, v, final.Value)
		}
	}
	if c.reads == 0 {
		t.Errorf("counter %s: no read came back, so the stale-read check checked nothing", c.name)
	}
	var during, elsewhere int
	var firstElsewhere time.Duration
	for _, a := range c.acks {
		if a.sent.Before(struck) || !a.sent.Before(healed) {
			continue
		}
		during++
		if sc.holderFenced && a.member == holder && a.at.Before(healed) {
			t.Errorf("counter %s: the holder %s, cut off from libSQL, acknowledged an increment sent at %+.2fs", c.name, holder, a.sent.Sub(struck).Seconds())
		}
		if a.member != holder {
			if elsewhere == 0 {
				firstElsewhere = a.at.Sub(struck)
			}
			elsewhere++
		}
	}
	if sc.holderFenced {
		if elsewhere == 0 {
			t.Errorf("counter %s: no other replica served it during the fault (%v)", c.name, healed.Sub(struck).Round(time.Millisecond))
		} else {
			t.Logf("counter %s: served elsewhere %v after the fault began", c.name, firstElsewhere.Round(time.Millisecond))
		}
	}
	if sc.serves && during == 0 {
		t.Errorf("counter %s: no increment sent during the fault was acknowledged", c.name)
	}
}

// place makes holder take counter name: a request to its internal
// listener, as the last hop of a forward, makes it take a free object.
func place(t *testing.T, holder *fleettest.Replica, name string) {
	t.Helper()
	req, err := holder.ObjectRequest("GET", counterworker.Class, name, "/counter/"+name, nil)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := (&http.Client{Timeout: 30 * time.Second}).Do(req)
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
