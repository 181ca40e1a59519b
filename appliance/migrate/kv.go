package migrate

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strconv"
	"time"

	"github.com/dwk/fleet/appliance/worker"
)

// kvKind copies a KV namespace key by key, with each key's metadata and
// expiration. A key's digest covers its value, metadata and expiration
// (to the second, Cloudflare's precision).
type kvKind struct {
	src, dst worker.KVNamespace
	// keys are the source's listed keys, by name, read by entries.
	keys map[string]worker.KVKey
}

func (k *kvKind) entries(ctx context.Context, from bool) (map[string]entry, error) {
	ns := k.dst
	if from {
		ns = k.src
	}
	listed := map[string]worker.KVKey{}
	var names []string
	opts := &worker.KVListOptions{}
	for {
		res, err := ns.List(ctx, opts)
		if err != nil {
			return nil, fmt.Errorf("list: %w", err)
		}
		for _, key := range res.Keys {
			listed[key.Name] = key
			names = append(names, key.Name)
		}
		if res.ListComplete || res.Cursor == "" {
			break
		}
		opts = &worker.KVListOptions{Cursor: res.Cursor}
	}
	out := make(map[string]entry, len(names))
	for i := 0; i < len(names); i += worker.KVMaxGetMany {
		batch := names[i:min(i+worker.KVMaxGetMany, len(names))]
		got, err := ns.GetMany(ctx, batch)
		if err != nil {
			return nil, fmt.Errorf("read values: %w", err)
		}
		for _, name := range batch {
			e, ok := got[name]
			if !ok {
				continue // expired since it was listed
			}
			key := listed[name]
			h := sha256.New()
			h.Write(e.Value)
			fmt.Fprintf(h, "\x00%s\x00%s", e.Metadata, expiry(key.Expiration))
			out[name] = entry{digest: hex.EncodeToString(h.Sum(nil)), size: int64(len(e.Value))}
		}
	}
	if from {
		k.keys = listed
	}
	return out, nil
}

// expiry is an expiration in Unix seconds, "" for none.
func expiry(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return strconv.FormatInt(t.Unix(), 10)
}

func (k *kvKind) copy(ctx context.Context, name string, _ bool) error {
	v, md, err := k.src.GetWithMetadata(ctx, name)
	if err != nil {
		return err
	}
	opts := &worker.KVPutOptions{Metadata: md}
	if exp := k.keys[name].Expiration; !exp.IsZero() {
		opts.Expiration = exp.Truncate(time.Second)
	}
	return k.dst.Put(ctx, name, v, opts)
}
