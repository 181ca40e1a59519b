package internaltls

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"net"
	"os"
	"sync"
	"time"
)

// Errors of the package.
var (
	// ErrPeer: the other side's certificate is not the expected member's
	// (wrong CA, another fleet, another member, or none).
	ErrPeer = errors.New("internaltls: peer certificate refused")
	// ErrNoPeer: a dial carried no expected member (see WithPeer).
	ErrNoPeer = errors.New("internaltls: no expected member for this connection")
)

// Files are the PEM files of a replica's identity.
type Files struct {
	// CA holds the fleet CA certificate(s) peers must chain to.
	CA string
	// Cert is this member's certificate (optionally followed by
	// intermediates); Key its private key.
	Cert, Key string
}

// Identity is a member's certificate and the fleet CA it trusts.
type Identity struct {
	fleet  string
	member string
	cert   tls.Certificate
	roots  *x509.CertPool

	clients  sync.Map               // member → *tls.Config dialling it, made once
	sessions tls.ClientSessionCache // resumable sessions with peers, shared by those configs
}

// peerSessions is how many peer sessions a member keeps for resumption.
const peerSessions = 256

// Load reads f and checks that the certificate chains to the CA and names
// member of fleet, so a mix-up of files fails at start with a message
// naming them instead of at the first connection.
func Load(f Files, fleet, member string) (*Identity, error) {
	roots, err := LoadCA(f.CA)
	if err != nil {
		return nil, err
	}
	cert, err := tls.LoadX509KeyPair(f.Cert, f.Key)
	if err != nil {
		return nil, fmt.Errorf("internaltls: load %s and %s: %w", f.Cert, f.Key, err)
	}
	id := &Identity{fleet: fleet, member: member, cert: cert, roots: roots, sessions: tls.NewLRUClientSessionCache(peerSessions)}
	leaf := cert.Leaf
	if err := id.verify([][]byte{leaf.Raw}, x509.ExtKeyUsageServerAuth, member); err != nil {
		return nil, fmt.Errorf("internaltls: %s is not usable by member %q: %w", f.Cert, member, err)
	}
	return id, nil
}

// LoadCA reads a PEM bundle of CA certificates.
func LoadCA(file string) (*x509.CertPool, error) {
	b, err := os.ReadFile(file)
	if err != nil {
		return nil, fmt.Errorf("internaltls: read the fleet CA: %w", err)
	}
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(b) {
		return nil, fmt.Errorf("internaltls: %s holds no PEM certificate", file)
	}
	return pool, nil
}

// Member is the member id this identity names.
func (id *Identity) Member() string { return id.member }

// verify checks a presented chain against the CA for usage and, when want
// is not empty, that the leaf names member want (else any member of the
// fleet).
func (id *Identity) verify(raw [][]byte, usage x509.ExtKeyUsage, want string) error {
	return verifyChain(raw, id.roots, id.fleet, usage, want, time.Now())
}

func verifyChain(raw [][]byte, roots *x509.CertPool, fleet string, usage x509.ExtKeyUsage, want string, now time.Time) error {
	certs := make([]*x509.Certificate, len(raw))
	for i, r := range raw {
		c, err := x509.ParseCertificate(r)
		if err != nil {
			return fmt.Errorf("%w: %v", ErrPeer, err)
		}
		certs[i] = c
	}
	return verifyCerts(certs, roots, fleet, usage, want, now)
}

// verifyCerts checks a presented chain, parsed: it chains to roots for
// usage and its leaf names a member of fleet (want, when set).
func verifyCerts(certs []*x509.Certificate, roots *x509.CertPool, fleet string, usage x509.ExtKeyUsage, want string, now time.Time) error {
	if len(certs) == 0 {
		return fmt.Errorf("%w: no certificate presented", ErrPeer)
	}
	inter := x509.NewCertPool()
	for _, c := range certs[1:] {
		inter.AddCert(c)
	}
	leaf := certs[0]
	if _, err := leaf.Verify(x509.VerifyOptions{Roots: roots, Intermediates: inter, KeyUsages: []x509.ExtKeyUsage{usage}, CurrentTime: now}); err != nil {
		return fmt.Errorf("%w: not issued by the fleet CA: %v", ErrPeer, err)
	}
	got, ok := MemberOf(leaf, fleet)
	if fleet == "" {
		ok = anyMember(leaf)
	}
	switch {
	case !ok:
		return fmt.Errorf("%w: it names no member of fleet %q (%s)", ErrPeer, fleet, names(leaf))
	case want != "" && got != want:
		return fmt.Errorf("%w: it names member %q, expected %q", ErrPeer, got, want)
	}
	return nil
}

// ServerConfig serves the internal listener: TLS 1.3, and a client
// certificate of a member of the fleet is required.
func (id *Identity) ServerConfig() *tls.Config {
	return &tls.Config{
		MinVersion:   tls.VersionTLS13,
		Certificates: []tls.Certificate{id.cert},
		ClientAuth:   tls.RequireAnyClientCert,
		VerifyPeerCertificate: func(raw [][]byte, _ [][]*x509.Certificate) error {
			return id.verify(raw, x509.ExtKeyUsageClientAuth, "")
		},
	}
}

// AdminServerConfig serves the admin API: this member's certificate, no
// client certificate (admin calls carry the admin token).
func (id *Identity) AdminServerConfig() *tls.Config {
	return &tls.Config{MinVersion: tls.VersionTLS12, Certificates: []tls.Certificate{id.cert}}
}

// ClientConfig dials member want: this member's certificate is presented
// and the server's must chain to the CA and name want. It is made once per
// member and shared by every connection to it, read-only. Later
// connections resume a session (TLS 1.3 tickets), which skips sending and
// checking certificates again; VerifyConnection still checks the peer's,
// as the ticket carries them.
func (id *Identity) ClientConfig(want string) *tls.Config {
	if c, ok := id.clients.Load(want); ok {
		return c.(*tls.Config)
	}
	c, _ := id.clients.LoadOrStore(want, &tls.Config{
		MinVersion:         tls.VersionTLS13,
		Certificates:       []tls.Certificate{id.cert},
		ClientSessionCache: id.sessions,
		InsecureSkipVerify: true, // verified by VerifyConnection: member id, not host name
		VerifyConnection: func(cs tls.ConnectionState) error {
			return verifyCerts(cs.PeerCertificates, id.roots, id.fleet, x509.ExtKeyUsageServerAuth, want, time.Now())
		},
	})
	return c.(*tls.Config)
}

type peerKey struct{}

// WithPeer returns ctx carrying the member a connection dialled with it
// must reach.
func WithPeer(ctx context.Context, member string) context.Context {
	return context.WithValue(ctx, peerKey{}, member)
}

// PeerFrom returns the member WithPeer put in ctx.
func PeerFrom(ctx context.Context) (string, bool) {
	m, ok := ctx.Value(peerKey{}).(string)
	return m, ok && m != ""
}

// HandshakeError is a failed TLS handshake with a peer: nothing of a
// request was sent, so it may be retried elsewhere like a dial error.
type HandshakeError struct {
	Member, Addr string
	Err          error
}

func (e *HandshakeError) Error() string {
	return fmt.Sprintf("TLS handshake with member %q at %s: %v", e.Member, e.Addr, e.Err)
}

func (e *HandshakeError) Unwrap() error { return e.Err }

// DialTLS returns a DialTLSContext for an http.Transport: it dials with
// dial and completes the handshake, within timeout (a frozen peer accepts
// connections but never answers), with the member WithPeer put in the
// context. A context without one is refused (ErrNoPeer).
func (id *Identity) DialTLS(dial func(ctx context.Context, network, addr string) (net.Conn, error), timeout time.Duration) func(ctx context.Context, network, addr string) (net.Conn, error) {
	return func(ctx context.Context, network, addr string) (net.Conn, error) {
		want, ok := PeerFrom(ctx)
		if !ok {
			return nil, &HandshakeError{Addr: addr, Err: ErrNoPeer}
		}
		raw, err := dial(ctx, network, addr)
		if err != nil {
			return nil, err
		}
		hctx, cancel := context.WithTimeout(ctx, timeout)
		defer cancel()
		c := tls.Client(raw, id.ClientConfig(want))
		if err := c.HandshakeContext(hctx); err != nil {
			raw.Close()
			return nil, &HandshakeError{Member: want, Addr: addr, Err: err}
		}
		return c, nil
	}
}

// CheckPeer checks, after a request, that the connection it used reached
// member want; a pooled connection is verified once at its handshake, and
// this catches one reused for a member that since moved to its address.
func (id *Identity) CheckPeer(cs *tls.ConnectionState, want string) error {
	if cs == nil || len(cs.PeerCertificates) == 0 {
		return fmt.Errorf("%w: the connection to member %q is not TLS", ErrPeer, want)
	}
	got, ok := MemberOf(cs.PeerCertificates[0], id.fleet)
	if !ok || got != want {
		return fmt.Errorf("%w: the connection reached member %q, expected %q", ErrPeer, got, want)
	}
	return nil
}

// AdminClientConfig trusts the fleet CA in file for calls to admin APIs:
// the server's certificate must chain to it and name a member (any: the
// admin URL says which one the operator meant) of fleet, or of any fleet
// when fleet is empty.
func AdminClientConfig(file, fleet string) (*tls.Config, error) {
	roots, err := LoadCA(file)
	if err != nil {
		return nil, err
	}
	return adminClientConfig(roots, fleet), nil
}

// AdminClientConfigPEM is AdminClientConfig with the CA certificates given
// as PEM.
func AdminClientConfigPEM(ca []byte, fleet string) (*tls.Config, error) {
	roots := x509.NewCertPool()
	if !roots.AppendCertsFromPEM(ca) {
		return nil, errors.New("internaltls: the CA holds no PEM certificate")
	}
	return adminClientConfig(roots, fleet), nil
}

func adminClientConfig(roots *x509.CertPool, fleet string) *tls.Config {
	return &tls.Config{
		MinVersion:         tls.VersionTLS12,
		InsecureSkipVerify: true, // verified by VerifyConnection
		VerifyConnection: func(cs tls.ConnectionState) error {
			raw := make([][]byte, len(cs.PeerCertificates))
			for i, c := range cs.PeerCertificates {
				raw[i] = c.Raw
			}
			return verifyChain(raw, roots, fleet, x509.ExtKeyUsageServerAuth, "", time.Now())
		},
	}
}
