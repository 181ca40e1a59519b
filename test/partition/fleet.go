package partition

import (
	"net/netip"
	"net/url"
	"testing"

	"github.com/dwk/fleet/appliance/config"
	"github.com/dwk/fleet/test/fleettest"
	"github.com/dwk/fleet/test/slowproxy"
)

// Fleet is a fleettest fleet whose replicas each run in a node of Net,
// and whose stores the replicas reach through proxies on the bridge.
type Fleet struct {
	*fleettest.Fleet
	Net *Net
	// Nodes[i] is the namespace of Replicas[i].
	Nodes []*Node
	// HranaProxy and AdminProxy stand in front of libSQL (Hrana, admin API),
	// S3Proxy in front of S3.
	HranaProxy, AdminProxy, S3Proxy *slowproxy.Proxy
}

// internalPort is every replica's internal port: each has its own
// namespace, so they do not collide.
const internalPort = 7100

// StartFleet builds a network, starts a fleet on it as fleettest.Start
// does with o (whose Edit and Prefix it wraps), and waits until every
// replica is ready.
func StartFleet(t testing.TB, o fleettest.Options) *Fleet {
	t.Helper()
	f := &Fleet{Net: New(t)}
	if o.Replicas == 0 {
		o.Replicas = 3
	}
	for i := range o.Replicas {
		f.Nodes = append(f.Nodes, f.Net.Node(string(rune('a'+i))))
	}
	edit := o.Edit
	o.Edit = func(i int, c *config.Config) {
		if f.HranaProxy == nil { // the stores run by now; the replicas do not
			f.HranaProxy = slowproxy.New(t, f.Net.Host, hostPort(t, c.Storage.LibSQL.URL))
			f.AdminProxy = slowproxy.New(t, f.Net.Host, hostPort(t, c.Storage.LibSQL.AdminURL))
			f.S3Proxy = slowproxy.New(t, f.Net.Host, hostPort(t, c.Storage.S3.Endpoint))
		}
		c.Storage.LibSQL.URL = "http://" + f.HranaProxy.Addr
		c.Storage.LibSQL.AdminURL = "http://" + f.AdminProxy.Addr
		c.Storage.S3.Endpoint = "http://" + f.S3Proxy.Addr
		addr := f.Nodes[i].Addr
		c.Listen.Public = netip.AddrPortFrom(addr, 0).String()
		c.Listen.Internal = netip.AddrPortFrom(addr, internalPort).String()
		c.Listen.Advertise = c.Listen.Internal
		c.Listen.Admin = netip.AddrPortFrom(addr, 0).String()
		if edit != nil {
			edit(i, c)
		}
	}
	prefix := o.Prefix
	o.Prefix = func(i int) []string {
		var inner []string
		if prefix != nil {
			inner = prefix(i)
		}
		return append(f.Nodes[i].Prefix(), inner...)
	}
	f.Fleet = fleettest.Start(t, o)
	return f
}

// hostPort is the host:port of a store's http URL. A store the proxies
// cannot stand in front of (https, or none) skips the test: a TCP proxy
// on another address breaks TLS name checks.
func hostPort(t testing.TB, raw string) string {
	t.Helper()
	u, err := url.Parse(raw)
	if err != nil || u.Scheme != "http" || u.Host == "" {
		t.Skipf("the partition tests proxy each store over plain TCP, so it needs an http:// URL, not %q (unset DWK_TEST_LIBSQL_URL and DWK_TEST_S3_ENDPOINT)", raw)
	}
	return u.Host
}

// Store is the libSQL endpoints as a cut names them: both proxies' ports
// on the bridge address.
func (f *Fleet) Store() []Endpoint {
	return []Endpoint{
		{Addr: f.Net.Host, Port: f.HranaProxy.Port()},
		{Addr: f.Net.Host, Port: f.AdminProxy.Port()},
	}
}

// Peers is every node's address except node i's.
func (f *Fleet) Peers(i int) []Endpoint {
	var eps []Endpoint
	for j, nd := range f.Nodes {
		if j != i {
			eps = append(eps, Endpoint{Addr: nd.Addr})
		}
	}
	return eps
}
