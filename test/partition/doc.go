// Package partition cuts and slows the network of a multi-process fleet.
//
// [New] builds a private network for one test: a bridge in the root
// network namespace with an address on a random /24 of 10.0.0.0/8, and
// one network namespace per node, joined to the bridge by a veth pair.
// [StartFleet] runs each `dwk serve` of a fleettest fleet in its own
// namespace, and puts libSQL and S3, which stay in the root namespace on
// loopback, behind TCP proxies on the bridge address (toxiproxy, as a
// library, in the test process). A test then
//
//   - cuts a node off from some addresses or ports with nftables drop
//     rules inside its namespace ([Node.Cut]), and heals the cut;
//   - slows a store down by adding latency on its proxy ([Proxy.Delay]).
//
// Everything is removed when the test ends, failed or not; names carry a
// random run id, so parallel runs and the leftovers of a killed run do not
// collide. It needs root (or CAP_NET_ADMIN and CAP_SYS_ADMIN), `ip` from
// iproute2 and `nft` from nftables: without them a test skips saying why,
// and fails under CI (see test/needtool).
//
// The tests of this package are the partition cases of issue 16: a holder
// cut off from libSQL, a holder cut off from its peers, libSQL slowed to
// 200 ms per round trip, and libSQL restarted, each under load; and the
// case of issue 33: a holder cut off from its peers is deposed by them,
// its objects move within 5 s, and it rejoins once the cut heals.
package partition
