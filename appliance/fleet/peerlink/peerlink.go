// Package peerlink is the one place a replica's link to its peers is
// built: every sender (the front door proxying to a member, object
// forwarding, tests and benches) and every receiver (the internal
// listener) of internal requests gets its transport, stream pool,
// listener and handler from a Link, so they can never disagree on TLS or
// the MAC.
//
// A Link always signs and verifies requests (package internalauth); with
// Config.TLS set it also speaks mutual TLS (package internaltls), dialing
// only members it can name: each request's expected member comes from a
// Resolver.
package peerlink

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"net/http"
	"time"

	"github.com/dwk/fleet/appliance/config"
	"github.com/dwk/fleet/appliance/fleet/internalauth"
	"github.com/dwk/fleet/appliance/fleet/internaltls"
	"github.com/dwk/fleet/appliance/fleet/peermux"
)

// Config is what a Link needs.
type Config struct {
	// Secret is the fleet secret the MAC key is derived from. Required.
	Secret []byte
	// Fleet and Member name this replica (fleet.name, fleet.member).
	Fleet, Member string
	// TLS, when set, turns on mutual TLS with these files.
	TLS *internaltls.Files
	// Auth tunes the MAC (the zero value takes its defaults).
	Auth internalauth.Options
}

// FromConfig is the Link config of a validated dwk.json with defaults
// applied and its fleet secret resolved.
func FromConfig(cfg *config.Config, secret string) Config {
	c := Config{Secret: []byte(secret), Fleet: cfg.Fleet.Name, Member: cfg.Fleet.Member}
	if t := cfg.Listen.InternalTLS; t != nil {
		c.TLS = &internaltls.Files{CA: t.CAFile, Cert: t.CertFile, Key: t.KeyFile}
	}
	return c
}

// Link is a replica's side of the internal links.
type Link struct {
	auth *internalauth.Auth
	id   *internaltls.Identity // nil: plaintext
}

// New derives the MAC key and loads the TLS identity.
func New(c Config) (*Link, error) {
	auth, err := internalauth.New(c.Secret, c.Auth)
	if err != nil {
		return nil, fmt.Errorf("fleet.secret: %w", err)
	}
	l := &Link{auth: auth}
	if c.TLS != nil {
		if l.id, err = internaltls.Load(*c.TLS, c.Fleet, c.Member); err != nil {
			return nil, fmt.Errorf("listen.internal_tls: %w", err)
		}
	}
	return l, nil
}

// TLS reports whether the link speaks TLS.
func (l *Link) TLS() bool { return l.id != nil }

// Scheme is "https" with TLS, else "http".
func (l *Link) Scheme() string {
	if l.id != nil {
		return "https"
	}
	return "http"
}

// Identity is the TLS identity, nil without TLS.
func (l *Link) Identity() *internaltls.Identity { return l.id }

// Listen wraps ln, the internal listener, in TLS when the link has it.
func (l *Link) Listen(ln net.Listener) net.Listener {
	if l.id == nil {
		return ln
	}
	return tls.NewListener(ln, l.id.ServerConfig())
}

// Handler verifies the MAC of every request before next sees it.
func (l *Link) Handler(next http.Handler) http.Handler { return l.auth.Middleware(next) }

// Sign returns a copy of r signed for its receiver (package internalauth),
// for a request written on a connection of the caller's own, such as a
// WebSocket handshake that is then spliced. r's body is consumed.
func (l *Link) Sign(r *http.Request) (*http.Request, error) { return l.auth.Sign(r) }

// Dial connects to member at addr: over mutual TLS, checking that the
// peer is member, when the link has TLS; else plain TCP. A failed
// handshake is a *internaltls.HandshakeError (Unsent).
func (l *Link) Dial(ctx context.Context, d *net.Dialer, member, addr string) (net.Conn, error) {
	if l.id == nil {
		return d.DialContext(ctx, "tcp", addr)
	}
	return l.id.DialTLS(d.DialContext, HandshakeTimeout)(internaltls.WithPeer(ctx, member), "tcp", addr)
}

// Streams returns a pool of sessions to peers (package peermux) over this
// link: each session is a connection from Dial whose upgrade request is
// signed, accepted by the peer's internal listener at peermux.Path.
// Close it when done.
func (l *Link) Streams() *peermux.Pool {
	return peermux.NewPool(func(ctx context.Context, member, addr string) (net.Conn, error) {
		var d net.Dialer
		return l.Dial(ctx, &d, member, addr)
	}, l.Sign)
}

// Resolver names the member a request is for (the member whose internal
// address its URL holds). ok false: the sender does not know it, and the
// request is refused rather than sent to whoever answers at the address.
type Resolver func(r *http.Request) (member string, ok bool)

// Peer is a Resolver that always names member.
func Peer(member string) Resolver {
	return func(*http.Request) (string, bool) { return member, true }
}

// HandshakeTimeout bounds a TLS handshake with a peer: on a private
// network it takes milliseconds, and a frozen peer (which the kernel
// still accepts connections for) must fail fast, as a dial error (nothing
// was sent), not hold the request until the forward deadline.
const HandshakeTimeout = 2 * time.Second

// Unsent reports whether err means a request never reached its peer (a
// failed dial or handshake, or no known member at the address), so that
// it may be sent elsewhere whatever its method.
func Unsent(err error) bool {
	var hs *internaltls.HandshakeError
	return errors.As(err, &hs) || errors.Is(err, ErrUnknownPeer)
}

// ErrUnknownPeer: the resolver could not name the member of a request's
// address.
var ErrUnknownPeer = errors.New("peerlink: no known member at this address")

// Transport returns the RoundTripper internal requests are sent with:
// base (cloned; http.DefaultTransport's settings when nil) with TLS to
// the member resolve names when the link has TLS, and the MAC on top.
// Requests may name http:// URLs; the scheme is set here.
func (l *Link) Transport(base *http.Transport, resolve Resolver) http.RoundTripper {
	if base == nil {
		base = http.DefaultTransport.(*http.Transport)
	}
	t := base.Clone()
	var rt http.RoundTripper = &schemeTransport{base: t, scheme: l.Scheme()}
	if l.id != nil {
		dial := t.DialContext
		if dial == nil {
			dial = (&net.Dialer{Timeout: 30 * time.Second, KeepAlive: 30 * time.Second}).DialContext
		}
		t.DialTLSContext = l.id.DialTLS(dial, HandshakeTimeout)
		t.ForceAttemptHTTP2 = false
		rt = &peerTransport{base: rt, id: l.id, resolve: resolve}
	}
	return l.auth.Transport(rt)
}

// schemeTransport sets the link's scheme on each request.
type schemeTransport struct {
	base   *http.Transport
	scheme string
}

// The copy is shallow: Request.Clone would copy the Trailer map, which the
// signed body fills in as it ends, and the trailer would never be sent.
func (t *schemeTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	if r.URL.Scheme != t.scheme {
		r2 := *r
		u := *r.URL
		u.Scheme = t.scheme
		r2.URL = &u
		r = &r2
	}
	return t.base.RoundTrip(r)
}

// CloseIdleConnections closes the pooled connections.
func (t *schemeTransport) CloseIdleConnections() { t.base.CloseIdleConnections() }

// peerTransport puts the expected member in the dial context and checks,
// after the response, that the connection used reached it.
type peerTransport struct {
	base    http.RoundTripper
	id      *internaltls.Identity
	resolve Resolver
}

func (t *peerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	want, ok := t.resolve(r)
	if !ok {
		if r.Body != nil {
			r.Body.Close()
		}
		return nil, fmt.Errorf("%w: %s", ErrUnknownPeer, r.URL.Host)
	}
	resp, err := t.base.RoundTrip(r.WithContext(internaltls.WithPeer(r.Context(), want)))
	if err != nil {
		return nil, err
	}
	if err := t.id.CheckPeer(resp.TLS, want); err != nil {
		resp.Body.Close()
		return nil, err
	}
	return resp, nil
}

// CloseIdleConnections closes the pooled connections.
func (t *peerTransport) CloseIdleConnections() {
	if c, ok := t.base.(interface{ CloseIdleConnections() }); ok {
		c.CloseIdleConnections()
	}
}
