package libsql

import (
	"errors"
	"sync"

	"github.com/dwk/fleet/appliance/libsql/sqlite"
)

// connPool keeps idle SQLite connections of one namespace for reuse.
type connPool struct {
	open    func() (*sqlite.Conn, error)
	maxIdle int

	mu     sync.Mutex
	idle   []*sqlite.Conn
	closed bool
}

// errPoolClosed is returned by get after close.
var errPoolClosed = errors.New("connection pool is closed")

// get returns an idle connection or opens a new one.
func (p *connPool) get() (*sqlite.Conn, error) {
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		return nil, errPoolClosed
	}
	if n := len(p.idle); n > 0 {
		c := p.idle[n-1]
		p.idle = p.idle[:n-1]
		p.mu.Unlock()
		return c, nil
	}
	p.mu.Unlock()
	return p.open()
}

// put returns c to the pool, or closes it when it is not reusable, the
// pool is full or closed. c must be in autocommit mode.
func (p *connPool) put(c *sqlite.Conn, reusable bool) {
	p.mu.Lock()
	if reusable && !p.closed && len(p.idle) < p.maxIdle {
		p.idle = append(p.idle, c)
		p.mu.Unlock()
		return
	}
	p.mu.Unlock()
	c.Close()
}

// close closes the idle connections; connections handed out are closed
// when they come back.
func (p *connPool) close() error {
	p.mu.Lock()
	idle := p.idle
	p.idle, p.closed = nil, true
	p.mu.Unlock()
	var errs []error
	for _, c := range idle {
		errs = append(errs, c.Close())
	}
	return errors.Join(errs...)
}
