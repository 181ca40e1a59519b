package worker

import (
	"context"
	"fmt"
	"strings"
)

// StorageEntry is one key and value of the KV API.
type StorageEntry struct {
	Key   string
	Value []byte
}

// StorageListOptions select what List returns. Keys are compared as bytes.
type StorageListOptions struct {
	// Prefix keeps only keys that start with it.
	Prefix string
	// Start is the first key included; End the first key excluded. Empty
	// means unbounded.
	Start, End string
	// StartAfter is a key the listing starts after (excluded), to continue
	// from the last key of a previous page; it cannot be combined with
	// Start.
	StartAfter string
	// Reverse lists in descending key order.
	Reverse bool
	// Limit caps the number of entries; 0 means no limit.
	Limit int
}

// The KV API lives in the reserved table _dwk_kv of the object's database,
// created on first use; each KV call is one batch with the CREATE so it is
// one unit for the backend.
const kvSchema = "CREATE TABLE IF NOT EXISTS _dwk_kv (key TEXT PRIMARY KEY, value BLOB NOT NULL) WITHOUT ROWID"

type batcher func(ctx context.Context, stmts []D1Query) ([]D1Result, error)

// Get returns the value stored under key, or ErrNotFound.
func (s *Storage) Get(ctx context.Context, key string) ([]byte, error) {
	return kvGet(ctx, s.batch, key)
}

// Put stores value under key, replacing any previous value.
func (s *Storage) Put(ctx context.Context, key string, value []byte) error {
	return kvPut(ctx, s.batch, key, value)
}

// Delete removes key and reports whether it existed.
func (s *Storage) Delete(ctx context.Context, key string) (bool, error) {
	return kvDelete(ctx, s.batch, key)
}

// List returns entries in key order as selected by opts (nil: all).
func (s *Storage) List(ctx context.Context, opts *StorageListOptions) ([]StorageEntry, error) {
	return kvList(ctx, s.batch, opts)
}

// Get returns the value stored under key, or ErrNotFound; see Storage.Get.
func (tx *StorageTx) Get(ctx context.Context, key string) ([]byte, error) {
	return kvGet(ctx, tx.batch, key)
}

// Put stores value under key inside the transaction.
func (tx *StorageTx) Put(ctx context.Context, key string, value []byte) error {
	return kvPut(ctx, tx.batch, key, value)
}

// Delete removes key inside the transaction and reports whether it existed.
func (tx *StorageTx) Delete(ctx context.Context, key string) (bool, error) {
	return kvDelete(ctx, tx.batch, key)
}

// List returns entries as selected by opts; see Storage.List.
func (tx *StorageTx) List(ctx context.Context, opts *StorageListOptions) ([]StorageEntry, error) {
	return kvList(ctx, tx.batch, opts)
}

func checkKey(key string) error {
	if len(key) == 0 || len(key) > MaxStorageKeySize {
		return fmt.Errorf("%w: got %d bytes", ErrStorageKey, len(key))
	}
	return nil
}

func kvGet(ctx context.Context, b batcher, key string) ([]byte, error) {
	if err := checkKey(key); err != nil {
		return nil, err
	}
	rs, err := b(ctx, []D1Query{{SQL: kvSchema}, {SQL: "SELECT value FROM _dwk_kv WHERE key = ?", Args: []any{key}}})
	if err != nil {
		return nil, fmt.Errorf("storage get %q: %w", key, err)
	}
	if len(rs[1].Rows) == 0 {
		return nil, fmt.Errorf("storage get %q: %w", key, ErrNotFound)
	}
	return asBytes(rs[1].Rows[0][0]), nil
}

func checkValue(key string, value []byte) error {
	if len(value) > MaxStorageValueSize {
		return fmt.Errorf("storage put %q: value is %d bytes: %w", key, len(value), ErrStorageValueTooLarge)
	}
	return nil
}

func kvPut(ctx context.Context, b batcher, key string, value []byte) error {
	if err := checkKey(key); err != nil {
		return err
	}
	if err := checkValue(key, value); err != nil {
		return err
	}
	if value == nil {
		value = []byte{}
	}
	_, err := b(ctx, []D1Query{{SQL: kvSchema}, {
		SQL:  "INSERT INTO _dwk_kv (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
		Args: []any{key, value},
	}})
	if err != nil {
		return fmt.Errorf("storage put %q: %w", key, err)
	}
	return nil
}

func kvDelete(ctx context.Context, b batcher, key string) (bool, error) {
	if err := checkKey(key); err != nil {
		return false, err
	}
	rs, err := b(ctx, []D1Query{{SQL: kvSchema}, {SQL: "DELETE FROM _dwk_kv WHERE key = ?", Args: []any{key}}})
	if err != nil {
		return false, fmt.Errorf("storage delete %q: %w", key, err)
	}
	return rs[1].Meta.Changes > 0, nil
}

func kvList(ctx context.Context, b batcher, opts *StorageListOptions) ([]StorageEntry, error) {
	if opts == nil {
		opts = &StorageListOptions{}
	}
	if opts.StartAfter != "" && opts.Start != "" {
		return nil, ErrStorageListOptions
	}
	var where []string
	var args []any
	if opts.Prefix != "" {
		where = append(where, "key >= ?")
		args = append(args, opts.Prefix)
		if end, ok := prefixEnd(opts.Prefix); ok {
			where = append(where, "key < ?")
			args = append(args, end)
		}
	}
	if opts.Start != "" {
		where = append(where, "key >= ?")
		args = append(args, opts.Start)
	}
	if opts.StartAfter != "" {
		where = append(where, "key > ?")
		args = append(args, opts.StartAfter)
	}
	if opts.End != "" {
		where = append(where, "key < ?")
		args = append(args, opts.End)
	}
	q := "SELECT key, value FROM _dwk_kv"
	if len(where) > 0 {
		q += " WHERE " + strings.Join(where, " AND ")
	}
	if opts.Reverse {
		q += " ORDER BY key DESC"
	} else {
		q += " ORDER BY key"
	}
	if opts.Limit > 0 {
		q += " LIMIT ?"
		args = append(args, int64(opts.Limit))
	}
	rs, err := b(ctx, []D1Query{{SQL: kvSchema}, {SQL: q, Args: args}})
	if err != nil {
		return nil, fmt.Errorf("storage list: %w", err)
	}
	out := make([]StorageEntry, len(rs[1].Rows))
	for i, r := range rs[1].Rows {
		k, _ := r[0].(string)
		out[i] = StorageEntry{Key: k, Value: asBytes(r[1])}
	}
	return out, nil
}

// prefixEnd is the smallest string greater than every string with prefix p,
// or false if there is none (p is all 0xff bytes).
func prefixEnd(p string) (string, bool) {
	b := []byte(p)
	for i := len(b) - 1; i >= 0; i-- {
		if b[i] < 0xff {
			b[i]++
			return string(b[:i+1]), true
		}
	}
	return "", false
}

func asBytes(v any) []byte {
	switch x := v.(type) {
	case []byte:
		return x
	case string:
		return []byte(x)
	default:
		return nil
	}
}
