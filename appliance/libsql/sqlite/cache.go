package sqlite

// stmtCacheSize is how many idle statements a connection keeps compiled.
// Small: a namespace pools several connections, and a server holds many
// namespaces.
const stmtCacheSize = 16

// stmtCache holds a connection's idle cached statements, least recently
// used first. A statement taken from it is in use until Finalize puts it
// back, so two uses of one text never share a statement.
type stmtCache struct {
	idle []*Stmt
}

// Cached returns an idle statement compiled earlier from exactly sql, or
// nil. Its bindings are clear and it has not been stepped.
func (c *Conn) Cached(sql string) *Stmt {
	for i := len(c.cache.idle) - 1; i >= 0; i-- {
		if s := c.cache.idle[i]; s.sql == sql {
			c.cache.idle = append(c.cache.idle[:i], c.cache.idle[i+1:]...)
			return s
		}
	}
	return nil
}

// Keep marks s, compiled from sql (one whole statement), for reuse:
// Finalize resets it and keeps it for Cached instead of destroying it.
func (s *Stmt) Keep(sql string) {
	s.sql, s.keep = sql, true
}

// release resets a kept statement and puts it in the cache, finalizing
// the least recently used one when the cache is full. It returns the
// error of the statement's last evaluation, as Finalize does.
func (s *Stmt) release() error {
	c := s.c
	err := s.Reset()
	if cerr := s.ClearBindings(); err == nil {
		err = cerr
	}
	if c.db == 0 {
		s.destroy()
		return err
	}
	c.cache.idle = append(c.cache.idle, s)
	if len(c.cache.idle) > stmtCacheSize {
		old := c.cache.idle[0]
		c.cache.idle = c.cache.idle[1:]
		old.destroy()
	}
	return err
}

// dropCache finalizes every idle cached statement.
func (c *Conn) dropCache() {
	for _, s := range c.cache.idle {
		s.destroy()
	}
	c.cache.idle = nil
}
