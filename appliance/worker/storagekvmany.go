package worker

import (
	"context"
	"fmt"
	"sort"
	"strings"
)

// GetMany returns the values of up to MaxStorageKeysPerCall keys, read
// together; keys that do not exist are absent from the map.
func (s *Storage) GetMany(ctx context.Context, keys []string) (map[string][]byte, error) {
	return kvGetMany(ctx, s.batch, keys)
}

// PutMany stores up to MaxStorageKeysPerCall entries atomically: all take
// effect or none does.
func (s *Storage) PutMany(ctx context.Context, entries map[string][]byte) error {
	return kvPutMany(ctx, s.batch, entries)
}

// DeleteMany removes up to MaxStorageKeysPerCall keys atomically and
// returns how many existed.
func (s *Storage) DeleteMany(ctx context.Context, keys []string) (int, error) {
	return kvDeleteMany(ctx, s.batch, keys)
}

// GetMany reads up to MaxStorageKeysPerCall keys inside the transaction;
// see Storage.GetMany.
func (tx *StorageTx) GetMany(ctx context.Context, keys []string) (map[string][]byte, error) {
	return kvGetMany(ctx, tx.batch, keys)
}

// PutMany stores up to MaxStorageKeysPerCall entries inside the
// transaction.
func (tx *StorageTx) PutMany(ctx context.Context, entries map[string][]byte) error {
	return kvPutMany(ctx, tx.batch, entries)
}

// DeleteMany removes up to MaxStorageKeysPerCall keys inside the
// transaction and returns how many existed.
func (tx *StorageTx) DeleteMany(ctx context.Context, keys []string) (int, error) {
	return kvDeleteMany(ctx, tx.batch, keys)
}

// checkKeys applies the per-call key count and each key's length.
func checkKeys(op string, keys []string) error {
	if len(keys) > MaxStorageKeysPerCall {
		return fmt.Errorf("storage %s: %d keys: %w", op, len(keys), ErrStorageTooManyKeys)
	}
	for _, k := range keys {
		if err := checkKey(k); err != nil {
			return fmt.Errorf("storage %s: %w", op, err)
		}
	}
	return nil
}

// placeholders is "?, ?, …" with n marks.
func placeholders(n int) string {
	return strings.TrimSuffix(strings.Repeat("?, ", n), ", ")
}

func kvGetMany(ctx context.Context, b batcher, keys []string) (map[string][]byte, error) {
	if err := checkKeys("get many", keys); err != nil {
		return nil, err
	}
	out := make(map[string][]byte, len(keys))
	if len(keys) == 0 {
		return out, nil
	}
	args := make([]any, len(keys))
	for i, k := range keys {
		args[i] = k
	}
	rs, err := b(ctx, []D1Query{{SQL: kvSchema}, {SQL: "SELECT key, value FROM _dwk_kv WHERE key IN (" + placeholders(len(keys)) + ")", Args: args}})
	if err != nil {
		return nil, fmt.Errorf("storage get many: %w", err)
	}
	for _, r := range rs[1].Rows {
		k, _ := r[0].(string)
		out[k] = asBytes(r[1])
	}
	return out, nil
}

func kvPutMany(ctx context.Context, b batcher, entries map[string][]byte) error {
	keys := make([]string, 0, len(entries))
	for k := range entries {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	if err := checkKeys("put many", keys); err != nil {
		return err
	}
	if len(keys) == 0 {
		return nil
	}
	args := make([]any, 0, 2*len(keys))
	for _, k := range keys {
		v := entries[k]
		if err := checkValue(k, v); err != nil {
			return err
		}
		if v == nil {
			v = []byte{}
		}
		args = append(args, k, v)
	}
	values := strings.TrimSuffix(strings.Repeat("(?, ?), ", len(keys)), ", ")
	_, err := b(ctx, []D1Query{{SQL: kvSchema}, {
		SQL:  "INSERT INTO _dwk_kv (key, value) VALUES " + values + " ON CONFLICT (key) DO UPDATE SET value = excluded.value",
		Args: args,
	}})
	if err != nil {
		return fmt.Errorf("storage put many: %w", err)
	}
	return nil
}

func kvDeleteMany(ctx context.Context, b batcher, keys []string) (int, error) {
	if err := checkKeys("delete many", keys); err != nil {
		return 0, err
	}
	if len(keys) == 0 {
		return 0, nil
	}
	args := make([]any, len(keys))
	for i, k := range keys {
		args[i] = k
	}
	rs, err := b(ctx, []D1Query{{SQL: kvSchema}, {SQL: "DELETE FROM _dwk_kv WHERE key IN (" + placeholders(len(keys)) + ")", Args: args}})
	if err != nil {
		return 0, fmt.Errorf("storage delete many: %w", err)
	}
	return int(rs[1].Meta.Changes), nil
}
