package sshtarget

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"sync"
	"time"

	"github.com/dwk/fleet/provider/internal/deploy"
)

// DefaultBackoff is how long Lazy waits before each new attempt to dial a
// host whose connection failed for a reason that may pass (refused, timed
// out, reset): four attempts over about 3.5 s.
var DefaultBackoff = []time.Duration{500 * time.Millisecond, time.Second, 2 * time.Second}

// Lazy is a Target that connects on first use, so that an operation
// touching only some hosts connects only to those, and a host that cannot
// be reached fails the step that needed it (with the dial error) rather
// than the whole operation up front.
//
// It dials with backoff (DefaultBackoff) when the failure may pass, never
// when the host key, the credentials or the key itself are wrong. A
// connection that dies between commands is redialled: when a session or
// channel cannot even be opened, nothing ran, so the call is retried once
// on a fresh connection.
type Lazy struct {
	cfg     Config
	backoff []time.Duration

	mu     sync.Mutex
	t      *Target
	closed bool
}

var _ deploy.Target = (*Lazy)(nil)

// NewLazy returns a Lazy for cfg. It does no I/O.
func NewLazy(cfg Config) *Lazy { return &Lazy{cfg: cfg, backoff: DefaultBackoff} }

// permanent reports whether a dial error will not pass by retrying.
func permanent(err error) bool {
	return errors.Is(err, ErrHostKeyMismatch) || errors.Is(err, ErrAuth) || errors.Is(err, ErrBadKey) ||
		errors.Is(err, ErrNoCredentials) || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded)
}

// connect returns the live connection, dialling (with backoff) when there
// is none.
func (l *Lazy) connect(ctx context.Context) (*Target, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		return nil, fmt.Errorf("%s: connection closed", l.cfg.Name())
	}
	if l.t != nil {
		return l.t, nil
	}
	var err error
	for attempt := 0; ; attempt++ {
		var t *Target
		if t, err = Dial(ctx, l.cfg); err == nil {
			l.t = t
			return t, nil
		}
		if permanent(err) || attempt >= len(l.backoff) {
			break
		}
		timer := time.NewTimer(l.backoff[attempt])
		select {
		case <-ctx.Done():
			timer.Stop()
			return nil, fmt.Errorf("%w (gave up redialling: %v)", err, ctx.Err())
		case <-timer.C:
		}
	}
	if attempt := len(l.backoff) + 1; !permanent(err) {
		return nil, fmt.Errorf("%w (after %d attempts)", err, attempt)
	}
	return nil, err
}

// drop forgets t when it is still the current connection, so that the
// next call dials again.
func (l *Lazy) drop(t *Target) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.t == t {
		l.t = nil
	}
	t.Close()
}

// Run connects if needed and runs cmd.
func (l *Lazy) Run(ctx context.Context, cmd string, stdin io.Reader) ([]byte, error) {
	for retried := false; ; retried = true {
		t, err := l.connect(ctx)
		if err != nil {
			return nil, err
		}
		out, err := t.Run(ctx, cmd, stdin)
		if errors.Is(err, errNoSession) && !retried && ctx.Err() == nil {
			l.drop(t)
			continue
		}
		return out, err
	}
}

// DialContext connects if needed and forwards to addr.
func (l *Lazy) DialContext(ctx context.Context, network, addr string) (net.Conn, error) {
	for retried := false; ; retried = true {
		t, err := l.connect(ctx)
		if err != nil {
			return nil, err
		}
		c, err := t.DialContext(ctx, network, addr)
		if err != nil && !retried && ctx.Err() == nil && t.dead() {
			l.drop(t)
			continue
		}
		return c, err
	}
}

// Close closes the connection if one was made; later calls fail.
func (l *Lazy) Close() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.closed = true
	if l.t != nil {
		return l.t.Close()
	}
	return nil
}
