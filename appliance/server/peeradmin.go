package server

import (
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/dwk/fleet/appliance/fleet/internaltls"
	"github.com/dwk/fleet/appliance/fleet/membership"
	"github.com/dwk/fleet/appliance/process/netaddr"
	"github.com/dwk/fleet/appliance/server/adminclient"
)

// peerAdmins builds, once, the client this replica calls its peers' admin
// APIs with: one that trusts the fleet CA when listen.internal_tls is set
// (a peer's admin listener off loopback then speaks TLS, see adminTLS).
type peerAdmins struct {
	once   sync.Once
	client *http.Client
	err    error
}

// peerAdminTimeout bounds one call to a peer's admin API.
const peerAdminTimeout = 10 * time.Second

// peerAdmin returns the URL of m's admin API ("" without one) and the
// client to call it with.
func (s *Server) peerAdmin(m membership.Member, token string) (string, adminclient.Client, error) {
	s.peers.once.Do(func() {
		s.peers.client = &http.Client{Timeout: peerAdminTimeout}
		if t := s.cfg.Listen.InternalTLS; t != nil {
			c, err := internaltls.AdminClientConfig(t.CAFile, s.cfg.Fleet.Name)
			if err != nil {
				s.peers.err = err
				return
			}
			s.peers.client.Transport = &http.Transport{TLSClientConfig: c}
		}
	})
	base := adminURL(m)
	if base != "" && s.cfg.Listen.InternalTLS != nil && !netaddr.Loopback(m.Admin) {
		base = "https://" + strings.TrimPrefix(base, "http://")
	}
	return base, adminclient.Client{Token: token, HTTP: s.peers.client}, s.peers.err
}
