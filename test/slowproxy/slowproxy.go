// Package slowproxy is a TCP proxy in the test process that slows the
// connections through it on demand (toxiproxy's latency toxic): tests put
// it in front of a store to make the store slow without touching it.
package slowproxy

import (
	"context"
	"fmt"
	"net/netip"
	"strings"
	"testing"
	"time"

	toxiproxy "github.com/Shopify/toxiproxy/v2"
	"github.com/rs/zerolog"
)

// Proxy is a TCP proxy in the test process in front of a store: it makes
// a store on loopback reachable from other network namespaces, and slows
// it down on demand. Its toxics apply to open connections as well as new
// ones.
type Proxy struct {
	// Addr is the host:port it listens on.
	Addr string
	// Upstream is the host:port it forwards to.
	Upstream string

	p *toxiproxy.Proxy
}

// New listens on host (port 0) and forwards to upstream; it stops
// when t ends.
func New(t testing.TB, host netip.Addr, upstream string) *Proxy {
	t.Helper()
	srv := toxiproxy.NewServer(toxiproxy.NewMetricsContainer(nil), zerolog.Nop())
	p := toxiproxy.NewProxy(srv, "store-"+upstream, netip.AddrPortFrom(host, 0).String(), upstream)
	if err := p.Start(); err != nil {
		t.Fatalf("proxy to %s: %v", upstream, err)
	}
	t.Cleanup(p.Stop)
	return &Proxy{Addr: p.Listen, Upstream: upstream, p: p}
}

// Port is the port the proxy listens on.
func (p *Proxy) Port() uint16 { return netip.MustParseAddrPort(p.Addr).Port() }

// Delay holds every chunk of data d longer in each direction, so that a
// request and its answer take 2d longer; 0 removes the delay.
func (p *Proxy) Delay(d time.Duration) error {
	for _, stream := range []string{"upstream", "downstream"} {
		name := "delay-" + stream
		if p.p.Toxics.GetToxic(name) != nil {
			if err := p.p.Toxics.RemoveToxic(context.Background(), name); err != nil {
				return fmt.Errorf("remove %s: %w", name, err)
			}
		}
		if d == 0 {
			continue
		}
		spec := fmt.Sprintf(`{"name":%q,"type":"latency","stream":%q,"attributes":{"latency":%d}}`, name, stream, d.Milliseconds())
		if _, err := p.p.Toxics.AddToxicJson(strings.NewReader(spec)); err != nil {
			return fmt.Errorf("add %s: %w", name, err)
		}
	}
	return nil
}
