package server

import (
	"net/http"
	"sync"
	"time"

	"github.com/dwk/fleet/appliance/fleet/membership"
	"github.com/dwk/fleet/appliance/server/adminclient"
)

// peerAdmins builds, once, the client this replica calls its peers' admin
// APIs with (adminclient.ForFleet).
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
	s.peers.once.Do(func() { s.peers.client, s.peers.err = adminclient.ForFleet(s.cfg, peerAdminTimeout) })
	base := adminclient.MemberURL(m, s.cfg.Listen.InternalTLS != nil)
	return base, adminclient.Client{Token: token, HTTP: s.peers.client}, s.peers.err
}
