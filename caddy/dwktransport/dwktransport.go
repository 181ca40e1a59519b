// Package dwktransport is the Caddy module http.reverse_proxy.transport.dwk:
// the front door's transport to the members' internal listeners. It is
// Caddy's HTTP transport with the peer link on top (package
// appliance/fleet/peerlink): every request is signed with the fleet
// secret, and with TLS files it goes over mutual TLS to the member the
// upstream source (dwkupstreams, via fleetview) says listens at the
// upstream's address, or to Peer.
package dwktransport

import (
	"errors"
	"fmt"
	"net/http"

	"github.com/caddyserver/caddy/v2"
	"github.com/caddyserver/caddy/v2/modules/caddyhttp/reverseproxy"

	"github.com/dwk/fleet/appliance/fleet/internaltls"
	"github.com/dwk/fleet/appliance/fleet/peerlink"
	"github.com/dwk/fleet/caddy/internal/fleetview"
)

func init() {
	caddy.RegisterModule(&Transport{})
}

// Transport is the dwk reverse-proxy transport.
type Transport struct {
	// HTTP holds the dial and timeout settings of the underlying
	// connections. Default: Caddy's HTTP transport defaults.
	HTTP *reverseproxy.HTTPTransport `json:"http,omitempty"`
	// Secret is the fleet secret requests are signed with; placeholders
	// such as {env.DWK_FLEET_SECRET} are expanded. Required.
	Secret string `json:"secret"`
	// Fleet and Member name this front door's replica (fleet.name,
	// fleet.member).
	Fleet  string `json:"fleet"`
	Member string `json:"member"`
	// CAFile, CertFile and KeyFile turn on mutual TLS
	// (listen.internal_tls). Default: none (plain HTTP, still signed).
	CAFile   string `json:"ca_file,omitempty"`
	CertFile string `json:"cert_file,omitempty"`
	KeyFile  string `json:"key_file,omitempty"`
	// Peer, when set, is the member every request goes to (the front
	// door's routes to its own replica). Default: the member the fleet
	// view names at the upstream's address.
	Peer string `json:"peer,omitempty"`

	rt   http.RoundTripper
	link *peerlink.Link
}

var (
	_ http.RoundTripper         = (*Transport)(nil)
	_ caddy.Provisioner         = (*Transport)(nil)
	_ caddy.CleanerUpper        = (*Transport)(nil)
	_ caddy.Module              = (*Transport)(nil)
	_ reverseproxy.TLSTransport = (*Transport)(nil)
)

// CaddyModule returns the Caddy module information.
func (*Transport) CaddyModule() caddy.ModuleInfo {
	return caddy.ModuleInfo{ID: "http.reverse_proxy.transport.dwk", New: func() caddy.Module { return new(Transport) }}
}

// Provision builds the link over Caddy's HTTP transport.
func (t *Transport) Provision(ctx caddy.Context) error {
	secret, err := caddy.NewReplacer().ReplaceOrErr(t.Secret, false, true)
	if err != nil {
		return fmt.Errorf("dwk transport: secret: %w", err)
	}
	if t.HTTP == nil {
		t.HTTP = new(reverseproxy.HTTPTransport)
	}
	if err := t.HTTP.Provision(ctx); err != nil {
		return err
	}
	c := peerlink.Config{Secret: []byte(secret), Fleet: t.Fleet, Member: t.Member}
	switch {
	case t.CAFile != "" && t.CertFile != "" && t.KeyFile != "":
		c.TLS = &internaltls.Files{CA: t.CAFile, Cert: t.CertFile, Key: t.KeyFile}
	case t.CAFile != "" || t.CertFile != "" || t.KeyFile != "":
		return errors.New("dwk transport: give ca_file, cert_file and key_file together")
	}
	link, err := peerlink.New(c)
	if err != nil {
		return fmt.Errorf("dwk transport: %w", err)
	}
	t.rt, t.link = link.Transport(t.HTTP.Transport, t.resolve), link
	return nil
}

// Link is the peer link requests go over, once provisioned; the
// dwk_direct handler reaches members with it too.
func (t *Transport) Link() *peerlink.Link { return t.link }

// resolve names the member a request goes to.
func (t *Transport) resolve(r *http.Request) (string, bool) {
	if t.Peer != "" {
		return t.Peer, true
	}
	if v := fleetview.From(r); v != nil && v.Members != nil {
		return v.Members.IDOf(r.URL.Host)
	}
	return "", false
}

// RoundTrip implements http.RoundTripper. A request that never reached
// the member (a failed TLS handshake, an unknown member) fails as a dial
// error, which the reverse proxy retries on another member whatever the
// method.
func (t *Transport) RoundTrip(r *http.Request) (*http.Response, error) {
	resp, err := t.rt.RoundTrip(r)
	if err != nil && peerlink.Unsent(err) {
		return nil, reverseproxy.NewDialError(err)
	}
	return resp, err
}

// TLSEnabled reports whether the link speaks TLS; the scheme is set by
// the link itself.
func (t *Transport) TLSEnabled() bool { return t.CAFile != "" }

// EnableTLS is not supported: TLS comes from the fleet's files.
func (t *Transport) EnableTLS(*reverseproxy.TLSConfig) error {
	return errors.New("dwk transport: TLS is configured with ca_file, cert_file and key_file")
}

// Cleanup closes the pooled connections.
func (t *Transport) Cleanup() error {
	if c, ok := t.rt.(interface{ CloseIdleConnections() }); ok {
		c.CloseIdleConnections()
	}
	return t.HTTP.Cleanup()
}
