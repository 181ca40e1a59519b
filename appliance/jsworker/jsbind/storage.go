package jsbind

import (
	"context"
	"errors"
	"time"

	"github.com/dop251/goja"

	"github.com/dwk/fleet/appliance/jsworker/jsrt"
	"github.com/dwk/fleet/appliance/worker"
)

// Storage is the DurableObjectStorage object over an object's storage.
// Its calls run on the loop: the storage is the object's own database,
// local to the replica that holds it. Call it on the loop.
func Storage(iso *jsrt.Isolate, s *worker.Storage) goja.Value {
	return construct(iso, "objectStorage", iso.Runtime().ToValue(&storageHandle{s: s}))
}

// storageHandle is an object's storage as JavaScript holds it; tx is the
// transaction a transaction() or transactionSync() callback runs in.
type storageHandle struct {
	s  *worker.Storage
	tx *worker.StorageTx
}

// contextT shortens the interface below.
type contextT = context.Context

// kv is what the KV calls run on: the transaction when one is open.
type kvStore interface {
	Get(ctx contextT, key string) ([]byte, error)
	Put(ctx contextT, key string, value []byte) error
	Delete(ctx contextT, key string) (bool, error)
	List(ctx contextT, opts *worker.StorageListOptions) ([]worker.StorageEntry, error)
	GetMany(ctx contextT, keys []string) (map[string][]byte, error)
	PutMany(ctx contextT, entries map[string][]byte) error
	DeleteMany(ctx contextT, keys []string) (int, error)
}

func (h *storageHandle) kv() kvStore {
	if h.tx != nil {
		return h.tx
	}
	return h.s
}

func installStorage(iso *jsrt.Isolate, b *goja.Object) {
	rt := iso.Runtime()
	handle := func(v goja.Value) *storageHandle {
		h, ok := v.Export().(*storageHandle)
		if !ok {
			panic(rt.NewTypeError("not a Durable Object storage"))
		}
		return h
	}
	ctx := func() contextT { return iso.Current().Context() }
	fail := func(err error) {
		if errors.Is(err, worker.ErrStorageKey) || errors.Is(err, worker.ErrStorageValueTooLarge) || errors.Is(err, worker.ErrStorageTooManyKeys) {
			iso.Throw(jsrt.Errorf("RangeError", "%v", err))
		}
		iso.Throw(err)
	}
	// stGet(h, key) → bytes | null
	b.Set("stGet", func(c goja.FunctionCall) goja.Value {
		v, err := handle(c.Argument(0)).kv().Get(ctx(), c.Argument(1).String())
		if errors.Is(err, worker.ErrNotFound) {
			return goja.Null()
		}
		if err != nil {
			fail(err)
		}
		return rt.ToValue(string(v))
	})
	// stGetMany(h, keys) → [[key, text], ...] in the order asked, present keys only
	b.Set("stGetMany", func(c goja.FunctionCall) goja.Value {
		var keys []string
		rt.ExportTo(c.Argument(1), &keys)
		m, err := handle(c.Argument(0)).kv().GetMany(ctx(), keys)
		if err != nil {
			fail(err)
		}
		out := make([]any, 0, len(m))
		for _, k := range keys {
			if v, ok := m[k]; ok {
				out = append(out, rt.NewArray(k, string(v)))
			}
		}
		return rt.NewArray(out...)
	})
	b.Set("stPut", func(c goja.FunctionCall) goja.Value {
		if err := handle(c.Argument(0)).kv().Put(ctx(), c.Argument(1).String(), []byte(c.Argument(2).String())); err != nil {
			fail(err)
		}
		return goja.Undefined()
	})
	// stPutMany(h, [[key, text], ...])
	b.Set("stPutMany", func(c goja.FunctionCall) goja.Value {
		var pairs [][2]string
		rt.ExportTo(c.Argument(1), &pairs)
		m := make(map[string][]byte, len(pairs))
		for _, p := range pairs {
			m[p[0]] = []byte(p[1])
		}
		if err := handle(c.Argument(0)).kv().PutMany(ctx(), m); err != nil {
			fail(err)
		}
		return goja.Undefined()
	})
	b.Set("stDelete", func(c goja.FunctionCall) goja.Value {
		ok, err := handle(c.Argument(0)).kv().Delete(ctx(), c.Argument(1).String())
		if err != nil {
			fail(err)
		}
		return rt.ToValue(ok)
	})
	b.Set("stDeleteMany", func(c goja.FunctionCall) goja.Value {
		var keys []string
		rt.ExportTo(c.Argument(1), &keys)
		n, err := handle(c.Argument(0)).kv().DeleteMany(ctx(), keys)
		if err != nil {
			fail(err)
		}
		return rt.ToValue(n)
	})
	// stList(h, prefix, start, startAfter, end, reverse, limit) → [[key, text], ...]
	b.Set("stList", func(c goja.FunctionCall) goja.Value {
		opts := &worker.StorageListOptions{
			Prefix: c.Argument(1).String(), Start: c.Argument(2).String(), StartAfter: c.Argument(3).String(),
			End: c.Argument(4).String(), Reverse: c.Argument(5).ToBoolean(), Limit: int(c.Argument(6).ToInteger()),
		}
		es, err := handle(c.Argument(0)).kv().List(ctx(), opts)
		if err != nil {
			fail(err)
		}
		out := make([]any, len(es))
		for k, e := range es {
			out[k] = rt.NewArray(e.Key, string(e.Value))
		}
		return rt.NewArray(out...)
	})
	b.Set("stDeleteAll", func(c goja.FunctionCall) goja.Value {
		if err := handle(c.Argument(0)).s.DeleteAll(ctx()); err != nil {
			fail(err)
		}
		return goja.Undefined()
	})
	// stExec(h, query, ...args) → [columns, rows, rowsRead, rowsWritten]
	b.Set("stExec", func(c goja.FunctionCall) goja.Value {
		h := handle(c.Argument(0))
		args, err := sqlArgs(iso, c.Arguments[2:])
		if err != nil {
			iso.Throw(err)
		}
		var cur *worker.SQLCursor
		if h.tx != nil {
			cur, err = h.tx.Exec(ctx(), c.Argument(1).String(), args...)
		} else {
			cur, err = h.s.Exec(ctx(), c.Argument(1).String(), args...)
		}
		if err != nil {
			iso.Throw(jsrt.Errorf("Error", "%v", err))
		}
		return rt.NewArray(cur.Columns(), sqlRows(iso, cur.Raw()), cur.RowsRead(), cur.RowsWritten())
	})
	b.Set("stSize", func(c goja.FunctionCall) goja.Value {
		n, err := handle(c.Argument(0)).s.DatabaseSize(ctx())
		if err != nil {
			fail(err)
		}
		return rt.ToValue(n)
	})
	// stTransactionSync(h, fn): fn runs inside one transaction.
	b.Set("stTransactionSync", func(c goja.FunctionCall) goja.Value {
		h := handle(c.Argument(0))
		fn, ok := goja.AssertFunction(c.Argument(1))
		if !ok {
			panic(rt.NewTypeError("transactionSync needs a function"))
		}
		if h.tx != nil {
			v, err := fn(goja.Undefined())
			if err != nil {
				panic(err)
			}
			return v
		}
		var out goja.Value
		var jsErr error
		err := h.s.Transaction(ctx(), func(tx *worker.StorageTx) error {
			h.tx = tx
			defer func() { h.tx = nil }()
			out, jsErr = fn(goja.Undefined())
			return jsErr
		})
		if jsErr != nil {
			panic(jsErr)
		}
		if err != nil {
			fail(err)
		}
		return out
	})
	b.Set("stGetAlarm", func(c goja.FunctionCall) goja.Value {
		t, err := handle(c.Argument(0)).s.GetAlarm(ctx())
		if err != nil {
			fail(err)
		}
		if t.IsZero() {
			return goja.Null()
		}
		return rt.ToValue(t.UnixMilli())
	})
	b.Set("stSetAlarm", func(c goja.FunctionCall) goja.Value {
		ms := c.Argument(1).ToFloat()
		if err := handle(c.Argument(0)).s.SetAlarm(ctx(), time.UnixMilli(int64(ms))); err != nil {
			fail(err)
		}
		return goja.Undefined()
	})
	b.Set("stDeleteAlarm", func(c goja.FunctionCall) goja.Value {
		if err := handle(c.Argument(0)).s.DeleteAlarm(ctx()); err != nil {
			fail(err)
		}
		return goja.Undefined()
	})
}
