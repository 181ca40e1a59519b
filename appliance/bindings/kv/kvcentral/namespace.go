package kvcentral

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/dwk/fleet/appliance/bindings/kv"
	"github.com/dwk/fleet/appliance/fleet/coord"
	"github.com/dwk/fleet/appliance/fleet/coord/tuple"
	"github.com/dwk/fleet/appliance/libsql/hrana"
	"github.com/dwk/fleet/appliance/libsql/hranaclient"
	"github.com/dwk/fleet/appliance/worker"
)

// Options tune a Namespace. The zero value is the default.
type Options struct {
	// Now is the clock that resolves an absolute Expiration into a TTL and
	// dates the Expiration List reports. Default: time.Now.
	Now func() time.Time
}

// Namespace is one Workers KV namespace in the coordination KV. It is safe
// for concurrent use, owns no goroutines (the coord Store sweeps expired
// keys) and needs no closing; the Store must outlive it.
type Namespace struct {
	store  *coord.Store
	name   string
	prefix tuple.Key
	now    func() time.Time
}

var _ worker.KVNamespace = (*Namespace)(nil)

// New returns the KV namespace called name (the binding's store name) on
// store. It does no I/O.
func New(store *coord.Store, name string, o Options) (*Namespace, error) {
	if store == nil {
		return nil, errors.New("kvcentral: nil coordination store")
	}
	if name == "" {
		return nil, errors.New("kvcentral: namespace name is empty")
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	return &Namespace{store: store, name: name, prefix: tuple.Key{"kv", name}, now: o.Now}, nil
}

// coordKey is the coordination key of a KV key.
func (n *Namespace) coordKey(key string) tuple.Key { return tuple.Key{"kv", n.name, key} }

// Get returns the value of key, or worker.ErrNotFound if it is missing or
// expired. One round trip.
func (n *Namespace) Get(ctx context.Context, key string) ([]byte, error) {
	r, err := n.get(ctx, key)
	return r.value, err
}

// GetWithMetadata returns the value of key and its metadata (nil if none
// was stored), or worker.ErrNotFound. One round trip.
func (n *Namespace) GetWithMetadata(ctx context.Context, key string) ([]byte, json.RawMessage, error) {
	r, err := n.get(ctx, key)
	return r.value, r.metadata, err
}

func (n *Namespace) get(ctx context.Context, key string) (record, error) {
	if err := kv.ValidateKey(key); err != nil {
		return record{}, fmt.Errorf("kv get: %w", err)
	}
	e, err := n.store.Get(ctx, n.coordKey(key))
	if err != nil {
		return record{}, fmt.Errorf("kv %s get %q: %w", n.name, key, err)
	}
	if !e.Exists() {
		return record{}, fmt.Errorf("kv %s get %q: %w", n.name, key, worker.ErrNotFound)
	}
	r, err := decodeRecord(e.Value, false)
	if err != nil {
		return record{}, fmt.Errorf("kv %s get %q: %w", n.name, key, err)
	}
	return r, nil
}

// GetMany returns the live entries of up to worker.KVMaxGetMany keys, read
// from one snapshot in one round trip.
func (n *Namespace) GetMany(ctx context.Context, keys []string) (map[string]worker.KVEntry, error) {
	if err := kv.ValidateKeys(keys); err != nil {
		return nil, fmt.Errorf("kv get many: %w", err)
	}
	out := make(map[string]worker.KVEntry, len(keys))
	if len(keys) == 0 {
		return out, nil
	}
	ck := make([]tuple.Key, len(keys))
	for i, k := range keys {
		ck[i] = n.coordKey(k)
	}
	es, err := n.store.GetMany(ctx, ck)
	if err != nil {
		return nil, fmt.Errorf("kv %s get many: %w", n.name, err)
	}
	for i, e := range es {
		if !e.Exists() {
			continue
		}
		r, err := decodeRecord(e.Value, false)
		if err != nil {
			return nil, fmt.Errorf("kv %s get many %q: %w", n.name, keys[i], err)
		}
		out[keys[i]] = worker.KVEntry{Value: r.value, Metadata: r.metadata}
	}
	return out, nil
}

// Put stores value under key, replacing any previous value, metadata and
// expiry. opts may be nil. One round trip.
func (n *Namespace) Put(ctx context.Context, key string, value []byte, opts *worker.KVPutOptions) error {
	now := n.now()
	p, err := kv.ValidatePut(key, value, opts, now)
	if err != nil {
		return fmt.Errorf("kv put: %w", err)
	}
	var expireIn time.Duration
	switch {
	case opts != nil && opts.ExpirationTTL > 0:
		expireIn = opts.ExpirationTTL
	case !p.Expires.IsZero():
		expireIn = max(p.Expires.Sub(now), time.Millisecond)
	}
	_, err = n.store.Atomic().Set(n.coordKey(key), encodeRecord(p), expireIn).Commit(ctx)
	if err != nil {
		if tooLarge(err) {
			return fmt.Errorf("kv %s put %q: value of %d bytes exceeds the libSQL server's request limit: %w: %w",
				n.name, key, len(value), worker.ErrKVValueTooLarge, err)
		}
		return fmt.Errorf("kv %s put %q: %w", n.name, key, err)
	}
	return nil
}

// tooLarge recognises the server refusing a request for its size.
func tooLarge(err error) bool {
	var he *hranaclient.Error
	return errors.As(err, &he) && (he.Status == http.StatusRequestEntityTooLarge || he.Code == hrana.CodeBodyTooLarge)
}

// Delete removes key. Deleting a missing key is not an error. One round
// trip.
func (n *Namespace) Delete(ctx context.Context, key string) error {
	if err := kv.ValidateKey(key); err != nil {
		return fmt.Errorf("kv delete: %w", err)
	}
	if _, err := n.store.Atomic().Delete(n.coordKey(key)).Commit(ctx); err != nil {
		return fmt.Errorf("kv %s delete %q: %w", n.name, key, err)
	}
	return nil
}
