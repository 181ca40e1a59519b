package libsql

import (
	"container/list"
	"errors"
	"sync"

	"github.com/dwk/fleet/appliance/libsql/sqlite"
)

// connPool keeps idle SQLite connections of one namespace for reuse. The
// idle connections of all namespaces share one budget (idleLRU): past it
// the least recently used are closed, so a server with many namespaces
// holds a bounded number of files open.
type connPool struct {
	open    func() (*sqlite.Conn, error)
	maxIdle int
	lru     *idleLRU

	mu     sync.Mutex
	idle   []*idleConn // oldest first
	closed bool
}

// idleConn is an idle connection of pool.
type idleConn struct {
	pool *connPool
	c    *sqlite.Conn
	el   *list.Element // in the LRU; nil once out of it (guarded by idleLRU.mu)
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
		ic := p.idle[n-1]
		p.idle = p.idle[:n-1]
		p.mu.Unlock()
		p.lru.remove(ic)
		return ic.c, nil
	}
	p.mu.Unlock()
	return p.open()
}

// warm opens a connection ahead of the first request, unless one is
// idle or the pool is closed.
func (p *connPool) warm() {
	p.mu.Lock()
	skip := p.closed || len(p.idle) > 0
	p.mu.Unlock()
	if skip {
		return
	}
	if c, err := p.open(); err == nil {
		p.put(c, true)
	}
}

// put returns c to the pool, or closes it when it is not reusable, the
// pool is full or closed. c must be in autocommit mode.
func (p *connPool) put(c *sqlite.Conn, reusable bool) {
	p.mu.Lock()
	if reusable && !p.closed && len(p.idle) < p.maxIdle {
		ic := &idleConn{pool: p, c: c}
		p.idle = append(p.idle, ic)
		p.mu.Unlock()
		p.lru.add(ic)
		return
	}
	p.mu.Unlock()
	c.Close()
}

// take removes ic from the pool's idle connections; it reports false when
// ic was handed out (or the pool closed) meanwhile.
func (p *connPool) take(ic *idleConn) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	for i, x := range p.idle {
		if x == ic {
			p.idle = append(p.idle[:i], p.idle[i+1:]...)
			return true
		}
	}
	return false
}

// close closes the idle connections; connections handed out are closed
// when they come back.
func (p *connPool) close() error {
	p.mu.Lock()
	idle := p.idle
	p.idle, p.closed = nil, true
	p.mu.Unlock()
	var errs []error
	for _, ic := range idle {
		p.lru.remove(ic)
		errs = append(errs, ic.c.Close())
	}
	return errors.Join(errs...)
}

// idleLRU orders the idle connections of every pool by when they were put
// back, and closes the oldest beyond max. A nil *idleLRU bounds nothing.
type idleLRU struct {
	max int

	mu sync.Mutex
	ll list.List // of *idleConn, most recent at the front
}

func newIdleLRU(max int) *idleLRU { return &idleLRU{max: max} }

// add records ic as the most recent idle connection and closes the
// least recent ones beyond the budget.
func (l *idleLRU) add(ic *idleConn) {
	if l == nil {
		return
	}
	var evict []*idleConn
	l.mu.Lock()
	ic.el = l.ll.PushFront(ic)
	for l.ll.Len() > l.max {
		old := l.ll.Remove(l.ll.Back()).(*idleConn)
		old.el = nil
		evict = append(evict, old)
	}
	l.mu.Unlock()
	for _, old := range evict {
		if old.pool.take(old) {
			// Closing the last connection of a database checkpoints its
			// WAL (with fsyncs): not on the request's time.
			go old.c.Close()
		}
	}
}

// remove forgets ic (handed out, or closed with its pool).
func (l *idleLRU) remove(ic *idleConn) {
	if l == nil {
		return
	}
	l.mu.Lock()
	if ic.el != nil {
		l.ll.Remove(ic.el)
		ic.el = nil
	}
	l.mu.Unlock()
}

// len is the number of idle connections.
func (l *idleLRU) len() int {
	if l == nil {
		return 0
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.ll.Len()
}
