package dwkconns

import (
	"errors"
	"net"
	"syscall"

	"github.com/caddyserver/caddy/v2"
)

func init() { caddy.RegisterModule(Wrapper{}) }

// Wrapper is the listener wrapper caddy.listeners.dwk_conns.
type Wrapper struct{}

// CaddyModule returns the module's information.
func (Wrapper) CaddyModule() caddy.ModuleInfo {
	return caddy.ModuleInfo{ID: "caddy.listeners.dwk_conns", New: func() caddy.Module { return new(Wrapper) }}
}

// WrapListener returns l with its connections wrapped.
func (Wrapper) WrapListener(l net.Listener) net.Listener { return listener{l} }

type listener struct{ net.Listener }

func (l listener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	if _, ok := c.(interface{ CloseWrite() error }); ok {
		return halfCloser{conn{c}}, nil
	}
	return conn{c}, nil
}

// conn is a net.Conn with only net.Conn's methods.
type conn struct{ net.Conn }

// SyscallConn returns the socket's raw connection, so that a spliced
// tunnel (package dwkdirect) can wait for bytes without holding a buffer.
func (c conn) SyscallConn() (syscall.RawConn, error) {
	if sc, ok := c.Conn.(syscall.Conn); ok {
		return sc.SyscallConn()
	}
	return nil, errors.ErrUnsupported
}

// halfCloser is a conn that keeps CloseWrite, which reverse_proxy uses to
// pass a half-close on.
type halfCloser struct{ conn }

// CloseWrite shuts down the writing side.
func (c halfCloser) CloseWrite() error {
	return c.Conn.(interface{ CloseWrite() error }).CloseWrite()
}

var _ caddy.ListenerWrapper = Wrapper{}
