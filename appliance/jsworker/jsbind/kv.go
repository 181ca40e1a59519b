package jsbind

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"github.com/dop251/goja"

	"github.com/dwk/fleet/appliance/jsworker/jsrt"
	"github.com/dwk/fleet/appliance/worker"
)

// KV is the KVNamespace object of a KV binding. Call it on the loop.
func KV(iso *jsrt.Isolate, kv worker.KVNamespace) goja.Value {
	return construct(iso, "kvNamespace", iso.Runtime().ToValue(kv))
}

func installKV(iso *jsrt.Isolate, b *goja.Object) {
	rt := iso.Runtime()
	ns := func(c goja.FunctionCall) worker.KVNamespace {
		kv, ok := c.Argument(0).Export().(worker.KVNamespace)
		if !ok {
			panic(rt.NewTypeError("not a KV namespace"))
		}
		return kv
	}
	// kvGet(ns, key, withMetadata) → null | [bytes, metadata JSON or null]
	b.Set("kvGet", func(c goja.FunctionCall) goja.Value {
		kv, key, meta := ns(c), c.Argument(1).String(), c.Argument(2).ToBoolean()
		return call(iso, func(ctx context.Context) (jsrt.Settle, error) {
			var val []byte
			var md json.RawMessage
			var err error
			if meta {
				val, md, err = kv.GetWithMetadata(ctx, key)
			} else {
				val, err = kv.Get(ctx, key)
			}
			if errors.Is(err, worker.ErrNotFound) {
				return func(rt *goja.Runtime) (goja.Value, error) { return goja.Null(), nil }, nil
			}
			if err != nil {
				return nil, err
			}
			return func(rt *goja.Runtime) (goja.Value, error) {
				return rt.NewArray(iso.NewUint8Array(val), jsonOrNull(md)), nil
			}, nil
		})
	})
	// kvGetMany(ns, keys) → [[key, bytes, metadata JSON or null], ...]
	b.Set("kvGetMany", func(c goja.FunctionCall) goja.Value {
		kv := ns(c)
		var keys []string
		rt.ExportTo(c.Argument(1), &keys)
		return call(iso, func(ctx context.Context) (jsrt.Settle, error) {
			m, err := kv.GetMany(ctx, keys)
			if err != nil {
				return nil, err
			}
			return func(rt *goja.Runtime) (goja.Value, error) {
				out := make([]any, 0, len(m))
				for _, k := range keys {
					if e, ok := m[k]; ok {
						out = append(out, rt.NewArray(k, iso.NewUint8Array(e.Value), jsonOrNull(e.Metadata)))
					}
				}
				return rt.NewArray(out...), nil
			}, nil
		})
	})
	// kvPut(ns, key, value, expiration seconds, ttl seconds, metadata JSON)
	b.Set("kvPut", func(c goja.FunctionCall) goja.Value {
		kv, key := ns(c), c.Argument(1).String()
		val, ok := bytesArg(iso, c.Argument(2))
		if !ok {
			panic(rt.NewTypeError("KV put() accepts only strings, ArrayBuffers, ArrayBufferViews, and ReadableStreams as values."))
		}
		opts := &worker.KVPutOptions{}
		if v := c.Argument(3); !absent(v) {
			opts.Expiration = time.Unix(v.ToInteger(), 0)
		}
		if v := c.Argument(4); !absent(v) {
			opts.ExpirationTTL = time.Duration(v.ToFloat() * float64(time.Second))
		}
		if v := c.Argument(5); !absent(v) {
			opts.Metadata = json.RawMessage(v.String())
		}
		return call(iso, func(ctx context.Context) (jsrt.Settle, error) {
			return nil, kv.Put(ctx, key, val, opts)
		})
	})
	b.Set("kvDelete", func(c goja.FunctionCall) goja.Value {
		kv, key := ns(c), c.Argument(1).String()
		return call(iso, func(ctx context.Context) (jsrt.Settle, error) {
			return nil, kv.Delete(ctx, key)
		})
	})
	// kvList(ns, prefix, limit, cursor) → JSON {keys, list_complete, cursor}
	b.Set("kvList", func(c goja.FunctionCall) goja.Value {
		kv := ns(c)
		opts := &worker.KVListOptions{Prefix: c.Argument(1).String(), Limit: int(c.Argument(2).ToInteger()), Cursor: c.Argument(3).String()}
		return call(iso, func(ctx context.Context) (jsrt.Settle, error) {
			res, err := kv.List(ctx, opts)
			if err != nil {
				return nil, err
			}
			type key struct {
				Name       string          `json:"name"`
				Expiration int64           `json:"expiration,omitempty"`
				Metadata   json.RawMessage `json:"metadata,omitempty"`
			}
			out := struct {
				Keys         []key  `json:"keys"`
				ListComplete bool   `json:"list_complete"`
				Cursor       string `json:"cursor,omitempty"`
			}{Keys: make([]key, len(res.Keys)), ListComplete: res.ListComplete, Cursor: res.Cursor}
			for k, e := range res.Keys {
				out.Keys[k] = key{Name: e.Name, Metadata: e.Metadata}
				if !e.Expiration.IsZero() {
					out.Keys[k].Expiration = e.Expiration.Unix()
				}
			}
			text, err := json.Marshal(out)
			if err != nil {
				return nil, err
			}
			return func(rt *goja.Runtime) (goja.Value, error) { return rt.ToValue(string(text)), nil }, nil
		})
	})
}

// jsonOrNull is md as a string of JSON, or null.
func jsonOrNull(md json.RawMessage) any {
	if len(md) == 0 {
		return nil
	}
	return string(md)
}
