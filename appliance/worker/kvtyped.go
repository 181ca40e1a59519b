package worker

import (
	"context"
	"encoding/json"
	"fmt"
)

// Typed reads over a KVNamespace: Cloudflare's get(key, "text") and
// get(key, "json"). The "arrayBuffer" form is KVNamespace.Get itself.

// KVGetText returns the value of key as a string, or ErrNotFound.
func KVGetText(ctx context.Context, ns KVNamespace, key string) (string, error) {
	v, err := ns.Get(ctx, key)
	if err != nil {
		return "", err
	}
	return string(v), nil
}

// KVGetJSON decodes the JSON value of key into a T, or returns ErrNotFound.
// A value that is not JSON for T fails with an error naming the key.
func KVGetJSON[T any](ctx context.Context, ns KVNamespace, key string) (T, error) {
	var out T
	v, err := ns.Get(ctx, key)
	if err != nil {
		return out, err
	}
	if err := json.Unmarshal(v, &out); err != nil {
		return out, fmt.Errorf("kv get %q as JSON: %w", key, err)
	}
	return out, nil
}

// KVGetManyJSON is the bulk form of KVGetJSON: up to KVMaxGetMany keys in
// one call, missing keys absent from the map.
func KVGetManyJSON[T any](ctx context.Context, ns KVNamespace, keys []string) (map[string]T, error) {
	es, err := ns.GetMany(ctx, keys)
	if err != nil {
		return nil, err
	}
	out := make(map[string]T, len(es))
	for k, e := range es {
		var v T
		if err := json.Unmarshal(e.Value, &v); err != nil {
			return nil, fmt.Errorf("kv get %q as JSON: %w", k, err)
		}
		out[k] = v
	}
	return out, nil
}

// KVPutJSON stores v encoded as JSON under key; the counterpart of
// KVGetJSON.
func KVPutJSON(ctx context.Context, ns KVNamespace, key string, v any, opts *KVPutOptions) error {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("kv put %q as JSON: %w", key, err)
	}
	return ns.Put(ctx, key, b, opts)
}
