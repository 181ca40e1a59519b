package machines

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"strings"
	"sync"
	"time"

	"golang.org/x/crypto/ssh"
)

const (
	// dialTimeout bounds connecting and the SSH handshake.
	dialTimeout = 10 * time.Second
	// abandonTimeout bounds the wait for a command to end once its
	// context is done and its session or connection is closed.
	abandonTimeout = 5 * time.Second
)

// Run runs cmd (a shell command line) on m as m.User over SSH and returns
// its combined output. The error, if any, holds the output too. When ctx
// is done the command is killed.
func (m *Machine) Run(ctx context.Context, cmd string) ([]byte, error) {
	out, err := m.run(ctx, cmd)
	if err != nil {
		return out, fmt.Errorf("%s: %q: %w\n%s", m.Name, cmd, err, out)
	}
	return out, nil
}

// run is Run with a bare error.
func (m *Machine) run(ctx context.Context, cmd string) ([]byte, error) {
	var out buffer
	for attempt := 0; ; attempt++ {
		c, err := m.sshClient(ctx)
		if err != nil {
			return nil, err
		}
		err = m.session(ctx, c, cmd, &out)
		if errors.Is(err, errNoSession) && attempt == 0 && ctx.Err() == nil {
			// The connection went stale (the machine was powered off,
			// say): dial again once.
			m.dropClient(c)
			continue
		}
		return out.Bytes(), err
	}
}

// errNoSession says a session could not be opened on a connection.
var errNoSession = errors.New("no SSH session")

// session runs cmd in a new session on c, writing its output to out.
func (m *Machine) session(ctx context.Context, c *ssh.Client, cmd string, out *buffer) error {
	opened := make(chan *ssh.Session, 1)
	ended := make(chan error, 1)
	go func() {
		s, err := c.NewSession()
		if err != nil {
			ended <- fmt.Errorf("%w: %w", errNoSession, err)
			return
		}
		defer s.Close()
		s.Stdout, s.Stderr = out, out
		opened <- s
		ended <- s.Run(cmd)
	}()
	select {
	case err := <-ended:
		return err
	case <-ctx.Done():
	}
	// Abandon the command: close its session, or the whole connection if
	// that does not end it.
	select {
	case s := <-opened:
		s.Signal(ssh.SIGKILL)
		s.Close()
	default:
	}
	select {
	case <-ended:
	case <-time.After(abandonTimeout):
		m.dropClient(c)
		select {
		case <-ended:
		case <-time.After(abandonTimeout):
		}
	}
	return ctx.Err()
}

// sshClient returns m's SSH connection, dialing one if there is none.
func (m *Machine) sshClient(ctx context.Context) (*ssh.Client, error) {
	m.mu.Lock()
	c := m.client
	m.mu.Unlock()
	if c != nil {
		return c, nil
	}
	c, err := dial(ctx, m.Addr(), m.User, m.privateKey, m.HostKey)
	if err != nil {
		return nil, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.client != nil {
		c.Close()
		return m.client, nil
	}
	m.client = c
	return c, nil
}

// dropClient closes c and forgets it if it is m's connection.
func (m *Machine) dropClient(c *ssh.Client) {
	c.Close()
	m.mu.Lock()
	if m.client == c {
		m.client = nil
	}
	m.mu.Unlock()
}

// dial opens an SSH connection to addr as user with privateKey, accepting
// only hostKey.
func dial(ctx context.Context, addr, user, privateKey, hostKey string) (*ssh.Client, error) {
	signer, err := ssh.ParsePrivateKey([]byte(privateKey))
	if err != nil {
		return nil, err
	}
	pub, _, _, _, err := ssh.ParseAuthorizedKey([]byte(hostKey))
	if err != nil {
		return nil, err
	}
	deadline := time.Now().Add(dialTimeout)
	if d, ok := ctx.Deadline(); ok && d.Before(deadline) {
		deadline = d
	}
	ctx, cancel := context.WithDeadline(ctx, deadline)
	defer cancel()
	conn, err := (&net.Dialer{}).DialContext(ctx, "tcp", addr)
	if err != nil {
		return nil, err
	}
	conn.SetDeadline(deadline)
	cc, chans, reqs, err := ssh.NewClientConn(conn, addr, &ssh.ClientConfig{
		User: user, Auth: []ssh.AuthMethod{ssh.PublicKeys(signer)},
		HostKeyCallback: ssh.FixedHostKey(pub),
	})
	if err != nil {
		conn.Close()
		return nil, err
	}
	conn.SetDeadline(time.Time{})
	return ssh.NewClient(cc, chans, reqs), nil
}

// buffer is a bytes.Buffer safe for concurrent use.
type buffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (b *buffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

// Bytes returns a copy of what was written.
func (b *buffer) Bytes() []byte {
	b.mu.Lock()
	defer b.mu.Unlock()
	return bytes.Clone(b.b.Bytes())
}

// shellQuote quotes s for a POSIX shell.
func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
