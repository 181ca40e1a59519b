package jsbind

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/dop251/goja"

	"github.com/dwk/fleet/appliance/bindings/d1"
	"github.com/dwk/fleet/appliance/jsworker/jsrt"
	"github.com/dwk/fleet/appliance/worker"
)

// D1 is the D1Database object of a D1 binding. Call it on the loop.
func D1(iso *jsrt.Isolate, db *worker.D1) goja.Value {
	return construct(iso, "d1Database", iso.Runtime().ToValue(db))
}

// d1Target is where a statement runs: the database itself, or one of its
// sessions (withSession).
type d1Target interface {
	Prepare(sql string) worker.D1Statement
	Batch(ctx context.Context, stmts ...worker.D1Statement) ([]worker.D1Result, error)
}

var (
	_ d1Target = (*worker.D1)(nil)
	_ d1Target = (*worker.D1Session)(nil)
)

// d1Params are a statement's bound values, converted once by bind().
type d1Params struct{ args []any }

// servedBy is meta.served_by: which backend answered.
const servedBy = "dwk.d1"

func installD1(iso *jsrt.Isolate, b *goja.Object) {
	rt := iso.Runtime()
	target := func(v goja.Value) d1Target {
		t, ok := v.Export().(d1Target)
		if !ok {
			panic(rt.NewTypeError("not a D1 database or session"))
		}
		return t
	}
	// d1Bind(...values) → the converted values; throws for a value D1 refuses
	b.Set("d1Bind", func(c goja.FunctionCall) goja.Value {
		p := &d1Params{args: make([]any, len(c.Arguments))}
		for k, a := range c.Arguments {
			v, err := d1Arg(iso, a)
			if err != nil {
				iso.Throw(err)
			}
			p.args[k] = v
		}
		return rt.ToValue(p)
	})
	// d1Run(target, [sql, ...], [params or null, ...]) → [[columns, rows, meta], ...]
	// in one transaction; a failure rejects with the engine's error text.
	b.Set("d1Run", func(c goja.FunctionCall) goja.Value {
		t := target(c.Argument(0))
		var sqls []string
		if err := rt.ExportTo(c.Argument(1), &sqls); err != nil {
			panic(rt.NewTypeError("d1Run needs the statements' SQL"))
		}
		params := c.Argument(2).ToObject(rt)
		stmts := make([]worker.D1Statement, len(sqls))
		for k, sql := range sqls {
			stmts[k] = t.Prepare(sql)
			if p, ok := params.Get(strconv.Itoa(k)).Export().(*d1Params); ok {
				stmts[k] = stmts[k].Bind(p.args...)
			}
		}
		return call(iso, func(ctx context.Context) (jsrt.Settle, error) {
			rs, err := t.Batch(ctx, stmts...)
			if err != nil {
				return nil, errors.New(d1Message(err))
			}
			return func(rt *goja.Runtime) (goja.Value, error) {
				out := make([]any, len(rs))
				for k, r := range rs {
					cols := r.Columns
					if cols == nil {
						cols = []string{}
					}
					out[k] = rt.NewArray(cols, rowsOf(iso, r.Rows, d1Value), d1Meta(rt, sqls[k], r.Meta))
				}
				return rt.NewArray(out...), nil
			}, nil
		})
	})
	// d1Exec(db, sql) → [count, duration ms]; a failure rejects with the
	// failing statement's position, text and error.
	b.Set("d1Exec", func(c goja.FunctionCall) goja.Value {
		db, ok := c.Argument(0).Export().(*worker.D1)
		if !ok {
			panic(rt.NewTypeError("not a D1 database"))
		}
		sql := c.Argument(1).String()
		return call(iso, func(ctx context.Context) (jsrt.Settle, error) {
			res, err := db.Exec(ctx, sql)
			if err != nil {
				var de *worker.D1Error
				if errors.As(err, &de) {
					return nil, fmt.Errorf("Error in line %d: %s: %s", de.Index+1, strings.TrimSpace(de.SQL), d1Message(de))
				}
				return nil, err
			}
			return func(rt *goja.Runtime) (goja.Value, error) {
				return rt.NewArray(res.Count, millis(res.Duration)), nil
			}, nil
		})
	})
	// d1Session(db, constraintOrBookmark) → the session
	b.Set("d1Session", func(c goja.FunctionCall) goja.Value {
		db, ok := c.Argument(0).Export().(*worker.D1)
		if !ok {
			panic(rt.NewTypeError("not a D1 database"))
		}
		return rt.ToValue(db.WithSession(c.Argument(1).String()))
	})
	// d1Bookmark(session) → the bookmark, or null before the first query
	b.Set("d1Bookmark", func(c goja.FunctionCall) goja.Value {
		s, ok := c.Argument(0).Export().(*worker.D1Session)
		if !ok {
			panic(rt.NewTypeError("not a D1 session"))
		}
		if bm := s.Bookmark(); bm != "" {
			return rt.ToValue(bm)
		}
		return goja.Null()
	})
}

// d1Message is the text of a failed statement: the engine's error,
// without the position of the statement in its batch.
func d1Message(err error) string {
	var de *worker.D1Error
	if errors.As(err, &de) && de.Err != nil {
		return de.Err.Error()
	}
	return err.Error()
}

// d1Meta is a result's meta object, as Cloudflare shapes it. dwk has one
// copy of each database, so every query is served by the primary.
func d1Meta(rt *goja.Runtime, sql string, m worker.D1Meta) goja.Value {
	o := rt.NewObject()
	dur := millis(m.Duration)
	o.Set("served_by", servedBy)
	o.Set("served_by_primary", true)
	timings := rt.NewObject()
	timings.Set("sql_duration_ms", dur)
	o.Set("timings", timings)
	o.Set("duration", dur)
	o.Set("changes", m.Changes)
	o.Set("last_row_id", m.LastRowID)
	o.Set("changed_db", m.Changes > 0 || m.RowsWritten > 0 || changesSchema(sql))
	o.Set("size_after", m.SizeAfter)
	o.Set("rows_read", m.RowsRead)
	o.Set("rows_written", m.RowsWritten)
	o.Set("total_attempts", 1)
	return o
}

// changesSchema reports whether sql is a statement that changes the
// database without changing rows (CREATE, DROP, ALTER).
func changesSchema(sql string) bool {
	switch d1.FirstKeyword(sql) {
	case "CREATE", "DROP", "ALTER":
		return true
	}
	return false
}

// millis is d in milliseconds, with fractions.
func millis(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
