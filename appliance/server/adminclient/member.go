package adminclient

import (
	"net"
	"net/http"
	"time"

	"github.com/dwk/fleet/appliance/config"
	"github.com/dwk/fleet/appliance/fleet/internaltls"
	"github.com/dwk/fleet/appliance/fleet/membership"
	"github.com/dwk/fleet/appliance/process/netaddr"
)

// MemberURL is the URL of member m's admin API as a peer dials it ("" when
// it has none): its listen.admin, with a wildcard host replaced by its
// internal address's host; https when the fleet uses internal TLS and the
// listener is not on loopback (a replica then serves it over TLS).
func MemberURL(m membership.Member, internalTLS bool) string {
	if m.Admin == "" {
		return ""
	}
	host, port, err := net.SplitHostPort(m.Admin)
	if err != nil {
		return ""
	}
	if ip := net.ParseIP(host); host == "" || (ip != nil && ip.IsUnspecified()) {
		if h, _, err := net.SplitHostPort(m.Internal); err == nil {
			host = h
		}
	}
	scheme := "http://"
	if internalTLS && !netaddr.Loopback(m.Admin) {
		scheme = "https://"
	}
	return scheme + net.JoinHostPort(host, port)
}

// ForFleet returns the HTTP client a member of the fleet cfg configures
// calls its peers' admin APIs with: one that trusts the fleet CA when
// listen.internal_tls is set. Each call is bounded by timeout.
func ForFleet(cfg *config.Config, timeout time.Duration) (*http.Client, error) {
	c := &http.Client{Timeout: timeout}
	if t := cfg.Listen.InternalTLS; t != nil {
		tc, err := internaltls.AdminClientConfig(t.CAFile, cfg.Fleet.Name)
		if err != nil {
			return nil, err
		}
		c.Transport = &http.Transport{TLSClientConfig: tc}
	}
	return c, nil
}
