package worker

import "fmt"

// SQLCursor holds the result of one Exec: column names, rows and counts.
// Rows are read with Next and Row, or taken at once with All, Raw or One;
// each row is returned once. Values are nil, int64, float64, string or
// []byte.
type SQLCursor struct {
	columns     []string
	rows        [][]any
	pos         int // index of the next row Next returns
	cur         []any
	rowsRead    int64
	rowsWritten int64
}

func newCursor(r D1Result) *SQLCursor {
	return &SQLCursor{columns: r.Columns, rows: r.Rows, rowsRead: r.Meta.RowsRead, rowsWritten: r.Meta.RowsWritten}
}

// Columns are the result's column names, in order.
func (c *SQLCursor) Columns() []string { return c.columns }

// RowsRead is the number of rows the statement read, where the backend
// reports it, else the number of rows it returned.
func (c *SQLCursor) RowsRead() int64 { return c.rowsRead }

// RowsWritten is the number of rows the statement inserted, updated or
// deleted.
func (c *SQLCursor) RowsWritten() int64 { return c.rowsWritten }

// Next advances to the next row and reports whether there is one.
func (c *SQLCursor) Next() bool {
	if c.pos >= len(c.rows) {
		c.cur = nil
		return false
	}
	c.cur = c.rows[c.pos]
	c.pos++
	return true
}

// Row is the current row's values in column order (nil before the first
// Next and after the last).
func (c *SQLCursor) Row() []any { return c.cur }

// Raw returns the remaining rows as value slices.
func (c *SQLCursor) Raw() [][]any {
	out := c.rows[c.pos:]
	c.pos = len(c.rows)
	c.cur = nil
	return out
}

// All returns the remaining rows as column → value maps.
func (c *SQLCursor) All() []map[string]any {
	raw := c.Raw()
	out := make([]map[string]any, len(raw))
	for i, r := range raw {
		out[i] = c.rowMap(r)
	}
	return out
}

// One returns the only remaining row, or ErrNotOneRow if there are none or
// more than one.
func (c *SQLCursor) One() (map[string]any, error) {
	if n := len(c.rows) - c.pos; n != 1 {
		return nil, fmt.Errorf("%w: got %d", ErrNotOneRow, n)
	}
	return c.All()[0], nil
}

func (c *SQLCursor) rowMap(r []any) map[string]any {
	m := make(map[string]any, len(c.columns))
	for i, col := range c.columns {
		m[col] = r[i]
	}
	return m
}
