package sshtarget

import (
	"context"
	"io"
	"net"
	"sync"

	"github.com/dwk/fleet/provider/internal/deploy"
)

// Lazy is a Target that connects on first use, so that an operation
// touching only some hosts connects only to those, and a host that cannot
// be reached fails the step that needed it (with the dial error) rather
// than the whole operation up front.
type Lazy struct {
	cfg  Config
	once sync.Once
	t    *Target
	err  error
}

var _ deploy.Target = (*Lazy)(nil)

// NewLazy returns a Lazy for cfg. It does no I/O.
func NewLazy(cfg Config) *Lazy { return &Lazy{cfg: cfg} }

func (l *Lazy) connect(ctx context.Context) (*Target, error) {
	l.once.Do(func() { l.t, l.err = Dial(ctx, l.cfg) })
	return l.t, l.err
}

// Run connects if needed and runs cmd.
func (l *Lazy) Run(ctx context.Context, cmd string, stdin io.Reader) ([]byte, error) {
	t, err := l.connect(ctx)
	if err != nil {
		return nil, err
	}
	return t.Run(ctx, cmd, stdin)
}

// DialContext connects if needed and forwards to addr.
func (l *Lazy) DialContext(ctx context.Context, network, addr string) (net.Conn, error) {
	t, err := l.connect(ctx)
	if err != nil {
		return nil, err
	}
	return t.DialContext(ctx, network, addr)
}

// Close closes the connection if one was made.
func (l *Lazy) Close() error {
	l.once.Do(func() {}) // no connection after Close
	if l.t != nil {
		return l.t.Close()
	}
	return nil
}
