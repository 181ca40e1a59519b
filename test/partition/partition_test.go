package partition

import (
	"net/http"
	"net/netip"
	"testing"
	"time"

	"github.com/dwk/fleet/appliance/config"
	"github.com/dwk/fleet/test/slowproxy"
)

// hangBound is the longest a request may take before it counts as hung:
// a hop waits at most forward.timeout for an answer, and the rest of the
// request takes far less than the slack on top.
const hangBound = config.DefaultForwardTimeout + 5*time.Second

// faultFor is how long a cut or a slow store lasts: past hangBound, so a
// request that would hang on the fault is still waiting when the bound
// passes, rather than released when the fault ends.
const faultFor = hangBound + 3*time.Second

// restartDown is how long libSQL stays down in a restart: longer than
// twice the default lease TTL, so leases lapse while it is down.
const restartDown = 5 * time.Second

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
// from libSQL: its peers depose it and its objects move (which
// TestCutHolderIsDeposed times); every request through the other front
// doors must answer within the bound instead of hanging.
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
			slow := func(d time.Duration) {
				for _, p := range []*slowproxy.Proxy{f.HranaProxy, f.AdminProxy} {
					if err := p.Delay(d); err != nil {
						t.Fatal(err)
					}
				}
			}
			before := roundTrip(t, f.HranaProxy)
			slow(100 * time.Millisecond)
			began := time.Now()
			after := roundTrip(t, f.HranaProxy)
			t.Logf("a libSQL round trip through the proxy took %v, slowed %v", before.Round(time.Millisecond), after.Round(time.Millisecond))
			if after < 200*time.Millisecond {
				t.Fatalf("a slowed round trip took %v, want at least 200ms", after)
			}
			return began, func() { slow(0) }
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
func roundTrip(t *testing.T, p *slowproxy.Proxy) time.Duration {
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
