package d1local

import (
	"container/list"

	"github.com/dwk/fleet/appliance/libsql/sqlite"
)

// stmtCache keeps a connection's most recently used prepared statements, so
// that the SQL an application runs again and again is parsed once. It is
// bounded because applications may also build SQL text on the fly.
// A stmtCache belongs to one connection and is not safe for concurrent use.
type stmtCache struct {
	max   int
	order *list.List               // of *cached, most recently used first
	bySQL map[string]*list.Element // SQL text → element of order
}

type cached struct {
	sql  string
	stmt *sqlite.Stmt
}

func newStmtCache(max int) *stmtCache {
	return &stmtCache{max: max, order: list.New(), bySQL: make(map[string]*list.Element)}
}

// get returns the statement prepared for sql, or nil.
func (c *stmtCache) get(sql string) *sqlite.Stmt {
	e, ok := c.bySQL[sql]
	if !ok {
		return nil
	}
	c.order.MoveToFront(e)
	return e.Value.(*cached).stmt
}

// put adds stmt, prepared for sql, finalizing the least recently used
// statement if the cache is full. sql must not be in the cache.
func (c *stmtCache) put(sql string, stmt *sqlite.Stmt) {
	c.bySQL[sql] = c.order.PushFront(&cached{sql: sql, stmt: stmt})
	if c.order.Len() > c.max {
		old := c.order.Remove(c.order.Back()).(*cached)
		delete(c.bySQL, old.sql)
		old.stmt.Finalize() // its error repeats a failure already reported

	}
}

// len is the number of cached statements.
func (c *stmtCache) len() int { return c.order.Len() }

// clear finalizes every cached statement.
func (c *stmtCache) clear() error {
	var first error
	for e := c.order.Front(); e != nil; e = e.Next() {
		if err := e.Value.(*cached).stmt.Finalize(); err != nil && first == nil {
			first = err
		}
	}
	c.order.Init()
	clear(c.bySQL)
	return first
}
