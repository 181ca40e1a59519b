// Package sshtarget reaches a host over SSH (golang.org/x/crypto/ssh): it
// runs commands in sessions and opens TCP connections from the host through
// direct-tcpip channels, so a replica's admin port never has to be exposed.
//
// The host key is always verified against the one key the configuration
// names (ssh.FixedHostKey); there is no trust-on-first-use and no way to
// skip verification.
package sshtarget

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"strconv"
	"strings"
	"sync"
	"time"

	"golang.org/x/crypto/ssh"

	"github.com/dwk/fleet/provider/internal/deploy"
)

// DefaultTimeout bounds connecting and the SSH handshake.
const DefaultTimeout = 15 * time.Second

// Config says how to reach a host.
type Config struct {
	// Address is the host name or IP.
	Address string
	// Port is the SSH port. Default: 22.
	Port int
	// User to log in as.
	User string
	// PrivateKey is the client key, PEM (OpenSSH, PKCS#1 or PKCS#8).
	// Empty: only the agent's keys are offered.
	PrivateKey string
	// Passphrase decrypts an encrypted PrivateKey.
	Passphrase string
	// Agent offers the keys of the ssh-agent at AgentSocket too.
	Agent bool
	// AgentSocket is the agent's socket. Default: $SSH_AUTH_SOCK.
	AgentSocket string
	// HostKey is the host's public key in authorized_keys format
	// ("ssh-ed25519 AAAA… [comment]").
	HostKey string
	// Timeout bounds connecting and the handshake. Default: DefaultTimeout.
	Timeout time.Duration
}

// Sentinel errors callers branch on.
var (
	// ErrHostKeyMismatch is a host that presented a key other than HostKey.
	ErrHostKeyMismatch = errors.New("SSH host key verification failed")
	// ErrAuth is a host that refused the client key.
	ErrAuth = errors.New("SSH authentication failed")
	// ErrBadKey is a PrivateKey or HostKey that does not parse.
	ErrBadKey = errors.New("bad SSH key")
	// ErrNoCredentials is a Config with neither a private key nor an agent.
	ErrNoCredentials = errors.New("no SSH credentials")
)

// Target is a connected host. It is safe for concurrent use: each Run is
// its own session and each DialContext its own channel.
type Target struct {
	name   string
	client *ssh.Client
	once   sync.Once
	// gone is closed when the connection has ended.
	gone chan struct{}
}

// errNoSession is a Run that could not open a session: the command did
// not run (the connection is usually gone).
var errNoSession = errors.New("open session")

// dead reports whether the connection has ended.
func (t *Target) dead() bool {
	select {
	case <-t.gone:
		return true
	default:
		return false
	}
}

var _ deploy.Target = (*Target)(nil)

// ParseHostKey parses an authorized_keys-format public key. It also
// accepts a known_hosts line ("host ssh-ed25519 AAAA…").
func ParseHostKey(s string) (ssh.PublicKey, error) {
	s = strings.TrimSpace(s)
	pub, _, _, _, err := ssh.ParseAuthorizedKey([]byte(s))
	if err == nil {
		return pub, nil
	}
	if _, _, pub, _, _, err2 := ssh.ParseKnownHosts([]byte(s)); err2 == nil {
		return pub, nil
	}
	return nil, fmt.Errorf("%w: host_key is not a public key in authorized_keys format (\"ssh-ed25519 AAAA…\"): %v", ErrBadKey, err)
}

// ParsePrivateKey parses a private key, decrypting it with passphrase
// when it is encrypted.
func ParsePrivateKey(s, passphrase string) (ssh.Signer, error) {
	if passphrase != "" {
		signer, err := ssh.ParsePrivateKeyWithPassphrase([]byte(s), []byte(passphrase))
		if err != nil {
			return nil, fmt.Errorf("%w: private_key with its passphrase: %v", ErrBadKey, err)
		}
		return signer, nil
	}
	signer, err := ssh.ParsePrivateKey([]byte(s))
	if err != nil {
		var pme *ssh.PassphraseMissingError
		if errors.As(err, &pme) {
			return nil, fmt.Errorf("%w: private_key is encrypted; give its passphrase (private_key_passphrase) or load it into ssh-agent", ErrBadKey)
		}
		return nil, fmt.Errorf("%w: private_key: %v", ErrBadKey, err)
	}
	return signer, nil
}

// Name is "user@address:port".
func (c Config) Name() string {
	return c.User + "@" + net.JoinHostPort(c.Address, strconv.Itoa(c.port()))
}

func (c Config) port() int {
	if c.Port == 0 {
		return 22
	}
	return c.Port
}

// Dial connects and authenticates. Errors say which step failed: the TCP
// connection, the host key check (ErrHostKeyMismatch) or authentication
// (ErrAuth).
func Dial(ctx context.Context, c Config) (*Target, error) {
	auth, closeAuth, err := c.auth()
	if err != nil {
		return nil, err
	}
	defer closeAuth()
	want, err := ParseHostKey(c.HostKey)
	if err != nil {
		return nil, err
	}
	timeout := c.Timeout
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	var mismatch ssh.PublicKey
	fixed := ssh.FixedHostKey(want)
	cfg := &ssh.ClientConfig{
		User: c.User,
		Auth: auth,
		HostKeyCallback: func(hostname string, remote net.Addr, key ssh.PublicKey) error {
			if err := fixed(hostname, remote, key); err != nil {
				mismatch = key
				return err
			}
			return nil
		},
		// Ask only for the algorithms of the configured key, so a host
		// with several keys presents the one we can check.
		HostKeyAlgorithms: hostKeyAlgorithms(want),
		Timeout:           timeout,
	}
	addr := net.JoinHostPort(c.Address, strconv.Itoa(c.port()))
	dctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	var d net.Dialer
	conn, err := d.DialContext(dctx, "tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("connect to %s: %w", addr, err)
	}
	// Bound the handshake too.
	conn.SetDeadline(time.Now().Add(timeout))
	sc, chans, reqs, err := ssh.NewClientConn(conn, addr, cfg)
	if err != nil {
		conn.Close()
		switch {
		case mismatch != nil:
			return nil, fmt.Errorf("%w for %s: it presented %s %s, but host_key is %s %s",
				ErrHostKeyMismatch, addr, mismatch.Type(), ssh.FingerprintSHA256(mismatch), want.Type(), ssh.FingerprintSHA256(want))
		case strings.Contains(err.Error(), "unable to authenticate"):
			return nil, fmt.Errorf("%w as %q on %s (is the key's public half in the user's authorized_keys?): %v", ErrAuth, c.User, addr, err)
		case strings.Contains(err.Error(), "no common algorithm for host key"):
			return nil, fmt.Errorf("%w for %s: the host has no %s key (host_key names one): %v", ErrHostKeyMismatch, addr, want.Type(), err)
		}
		return nil, fmt.Errorf("SSH handshake with %s: %w", addr, err)
	}
	conn.SetDeadline(time.Time{})
	t := &Target{name: c.Name(), client: ssh.NewClient(sc, chans, reqs), gone: make(chan struct{})}
	go func() {
		t.client.Wait()
		close(t.gone)
	}()
	return t, nil
}

func hostKeyAlgorithms(k ssh.PublicKey) []string {
	if k.Type() == ssh.KeyAlgoRSA {
		return []string{ssh.KeyAlgoRSASHA512, ssh.KeyAlgoRSASHA256, ssh.KeyAlgoRSA}
	}
	return []string{k.Type()}
}

// Run runs cmd in a new session. When ctx ends the session is closed (the
// remote command gets SIGHUP when sshd notices).
func (t *Target) Run(ctx context.Context, cmd string, stdin io.Reader) ([]byte, error) {
	s, err := t.client.NewSession()
	if err != nil {
		return nil, fmt.Errorf("%s: %w: %v", t.name, errNoSession, err)
	}
	defer s.Close()
	var stdout, stderr bytes.Buffer
	s.Stdin, s.Stdout, s.Stderr = stdin, &stdout, &stderr
	done := make(chan error, 1)
	go func() { done <- s.Run(cmd) }()
	select {
	case err := <-done:
		if err != nil {
			var ee *ssh.ExitError
			if errors.As(err, &ee) {
				return stdout.Bytes(), &deploy.CommandError{Err: fmt.Errorf("exit status %d", ee.ExitStatus()), Stderr: stderr.String()}
			}
			return stdout.Bytes(), fmt.Errorf("%s: run command: %w", t.name, err)
		}
		return stdout.Bytes(), nil
	case <-ctx.Done():
		s.Signal(ssh.SIGKILL)
		s.Close()
		// The output copiers may still write the buffers until the remote
		// side closes the channel (or the connection closes), so they are
		// not touched here.
		return nil, fmt.Errorf("%s: %w", t.name, ctx.Err())
	}
}

// DialContext opens a direct-tcpip channel: a TCP connection made by the
// host's sshd to addr.
func (t *Target) DialContext(ctx context.Context, network, addr string) (net.Conn, error) {
	conn, err := t.client.DialContext(ctx, network, addr)
	if err != nil {
		return nil, fmt.Errorf("%s: forward to %s: %w", t.name, addr, err)
	}
	return conn, nil
}

// Close closes the connection.
func (t *Target) Close() error {
	var err error
	t.once.Do(func() { err = t.client.Close() })
	return err
}
