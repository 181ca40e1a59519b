package d1local

import (
	"context"
	"errors"

	"github.com/dwk/fleet/appliance/bindings/d1"
)

// pool is a fixed set of connections, all opened up front. A connection is
// used by one call at a time: get hands it out, put takes it back.
type pool struct {
	idle chan *conn
	size int
	done chan struct{} // closed by close
}

// newPool opens n connections to path.
func newPool(ctx context.Context, path string, n int, readOnly bool) (*pool, error) {
	p := &pool{idle: make(chan *conn, n), done: make(chan struct{})}
	for range n {
		c, err := openConn(ctx, path, readOnly)
		if err != nil {
			p.close()
			return nil, err
		}
		p.size++
		p.idle <- c
	}
	return p, nil
}

// get waits for an idle connection, ctx's end, or the pool's closing.
func (p *pool) get(ctx context.Context) (*conn, error) {
	select {
	case <-p.done:
		return nil, ErrClosed
	case <-ctx.Done():
		return nil, ctx.Err()
	default:
	}
	select {
	case c := <-p.idle:
		return c, nil
	case <-p.done:
		return nil, ErrClosed
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// put returns a connection that get handed out.
func (p *pool) put(c *conn) { p.idle <- c }

// close stops handing out connections, waits until every connection is
// back, and closes them all.
func (p *pool) close() error {
	close(p.done)
	var errs []error
	for range p.size {
		errs = append(errs, (<-p.idle).close())
	}
	return errors.Join(errs...)
}

// init creates the table of the database's commit position (see
// d1.BookmarkSchema) on one of the pool's connections.
func (p *pool) init(ctx context.Context) error {
	c, err := p.get(ctx)
	if err != nil {
		return err
	}
	defer p.put(c)
	defer c.interruptOn(ctx)()
	return c.c.Exec(d1.BookmarkSchema)
}
