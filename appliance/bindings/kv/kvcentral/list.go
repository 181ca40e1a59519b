package kvcentral

import (
	"context"
	"fmt"

	"github.com/dwk/fleet/appliance/bindings/kv"
	"github.com/dwk/fleet/appliance/fleet/coord"
	"github.com/dwk/fleet/appliance/fleet/coord/tuple"
	"github.com/dwk/fleet/appliance/worker"
)

// List returns the live keys starting with opts.Prefix in byte order, at
// most opts.Limit (0: 1000) per page, in one round trip. The cursor of an
// incomplete page continues strictly after its last key. opts may be nil.
//
// Tuple encoding keeps the byte order of string parts, so the KV range
// [prefix, PrefixEnd(prefix)) is the coordination range from
// ("kv", ns, prefix) to ("kv", ns, PrefixEnd(prefix)).
func (n *Namespace) List(ctx context.Context, opts *worker.KVListOptions) (*worker.KVListResult, error) {
	limit, err := kv.ListLimit(opts)
	if err != nil {
		return nil, fmt.Errorf("kv list: %w", err)
	}
	var prefix, cursor string
	if opts != nil {
		prefix, cursor = opts.Prefix, opts.Cursor
	}
	after, err := kv.DecodeCursor(cursor)
	if err != nil {
		return nil, fmt.Errorf("kv list: %w", err)
	}
	sel := coord.Selector{Prefix: n.prefix, Start: n.coordKey(prefix)}
	if after != "" && after >= prefix {
		// The smallest string after `after`.
		sel.Start = n.coordKey(after + "\x00")
	}
	if end, ok := kv.PrefixEnd(prefix); ok {
		sel.End = n.coordKey(string(end))
	}
	page, err := n.store.List(ctx, sel, coord.ListOptions{Limit: limit, MaxValueBytes: maxHeader})
	if err != nil {
		return nil, fmt.Errorf("kv %s list %q: %w", n.name, prefix, err)
	}
	res := &worker.KVListResult{Keys: make([]worker.KVKey, 0, len(page.Entries))}
	for _, e := range page.Entries {
		name, err := keyName(e.Key)
		if err != nil {
			return nil, fmt.Errorf("kv %s list %q: %w", n.name, prefix, err)
		}
		r, err := decodeRecord(e.Value, true)
		if err != nil {
			return nil, fmt.Errorf("kv %s list %q: key %q: %w", n.name, prefix, name, err)
		}
		res.Keys = append(res.Keys, worker.KVKey{Name: name, Expiration: r.expires, Metadata: r.metadata})
	}
	if page.Cursor != "" && len(res.Keys) > 0 {
		res.Cursor = kv.EncodeCursor(res.Keys[len(res.Keys)-1].Name)
	} else {
		res.ListComplete = true
	}
	return res, nil
}

// keyName extracts the KV key from a coordination key ("kv", ns, key).
func keyName(k tuple.Key) (string, error) {
	if len(k) != 3 {
		return "", fmt.Errorf("%w: coordination key %v is not (\"kv\", namespace, key)", errRecord, k)
	}
	name, ok := k[2].(string)
	if !ok {
		return "", fmt.Errorf("%w: coordination key %v has a non-string KV key", errRecord, k)
	}
	return name, nil
}
