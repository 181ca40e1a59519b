package soak

import (
	"fmt"
	"time"

	"github.com/dwk/fleet/test/partition"
	"github.com/dwk/fleet/test/slowproxy"
)

// slowBy is the latency the slow-store fault adds on each direction of
// the libSQL proxies: 200 ms per round trip.
const slowBy = 100 * time.Millisecond

// cutStore cuts a replica off from libSQL (both proxies: Hrana and the
// admin API) for 2–3.5 lease TTLs, while clients and peers still reach
// it: its leases lapse, other replicas take its objects, and it must
// acknowledge nothing it cannot commit.
func (in *Injector) cutStore() {
	i, r := in.victim()
	d := 2*in.ttl + time.Duration(in.rng.Int64N(int64(in.ttl*3/2)))
	detail := fmt.Sprintf("%s cut from libSQL for %v (lease TTL %v)", r.Member, d.Round(time.Millisecond), in.ttl)
	in.cut(CutStore, detail, in.net.Nodes[i], d, in.net.Store())
}

// cutPeers cuts a replica off from every other replica, not from libSQL
// or the clients, for 2–5 lease TTLs: it keeps its leases, so its objects
// are out of reach through the other front doors, which must answer
// within forward.timeout rather than hang.
func (in *Injector) cutPeers() {
	i, r := in.victim()
	d := 2*in.ttl + time.Duration(in.rng.Int64N(int64(3*in.ttl)))
	detail := fmt.Sprintf("%s cut from its peers for %v", r.Member, d.Round(time.Millisecond))
	in.cut(CutPeers, detail, in.net.Nodes[i], d, in.net.Peers(i))
}

// cut drops node's traffic with eps for d, then heals it.
func (in *Injector) cut(kind Fault, detail string, node *partition.Node, d time.Duration, eps []partition.Endpoint) {
	in.logf("fault: %s", detail)
	end := in.tl.Begin(kind, detail)
	defer end()
	c := node.Cut(in.t, eps...)
	time.Sleep(d)
	c.Heal(in.t)
}

// slowStore adds 200 ms to every libSQL round trip of every replica for
// 5–10s.
func (in *Injector) slowStore() {
	d := 5*time.Second + time.Duration(in.rng.Int64N(int64(5*time.Second)))
	detail := fmt.Sprintf("libSQL slowed by %v per round trip for %v", 2*slowBy, d.Round(time.Millisecond))
	in.logf("fault: %s", detail)
	end := in.tl.Begin(SlowStore, detail)
	defer end()
	in.delay(slowBy)
	time.Sleep(d)
	in.delay(0)
}

// delay sets the latency of both libSQL proxies.
func (in *Injector) delay(d time.Duration) {
	in.t.Helper()
	for _, p := range []*slowproxy.Proxy{in.net.HranaProxy, in.net.AdminProxy} {
		if err := p.Delay(d); err != nil {
			in.t.Fatalf("slow libSQL: %v", err)
		}
	}
}
