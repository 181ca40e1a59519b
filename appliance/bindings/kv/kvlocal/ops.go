package kvlocal

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/dwk/fleet/appliance/bindings/kv"
	"github.com/dwk/fleet/appliance/worker"
)

// Get returns the value of key, or worker.ErrNotFound if it is missing or
// expired.
func (s *Store) Get(ctx context.Context, key string) ([]byte, error) {
	v, _, err := s.get(ctx, key, false)
	return v, err
}

// GetWithMetadata returns the value of key and its metadata (nil if none was
// stored), or worker.ErrNotFound.
func (s *Store) GetWithMetadata(ctx context.Context, key string) ([]byte, json.RawMessage, error) {
	return s.get(ctx, key, true)
}

func (s *Store) get(ctx context.Context, key string, withMeta bool) ([]byte, json.RawMessage, error) {
	if err := kv.ValidateKey(key); err != nil {
		return nil, nil, fmt.Errorf("kv get: %w", err)
	}
	var value, meta []byte
	q := `SELECT value, NULL FROM kv WHERE key = ? AND (expires_at IS NULL OR expires_at > ?)`
	if withMeta {
		q = `SELECT value, metadata FROM kv WHERE key = ? AND (expires_at IS NULL OR expires_at > ?)`
	}
	err := s.db.QueryRowContext(ctx, q, []byte(key), s.nowMilli()).Scan(&value, &meta)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil, fmt.Errorf("kv get %q: %w", key, worker.ErrNotFound)
	}
	if err != nil {
		return nil, nil, fmt.Errorf("kv get %q: %w", key, err)
	}
	if value == nil {
		value = []byte{}
	}
	if meta == nil {
		return value, nil, nil
	}
	return value, json.RawMessage(meta), nil
}

// GetMany returns the live entries of up to worker.KVMaxGetMany keys, read
// in one query.
func (s *Store) GetMany(ctx context.Context, keys []string) (map[string]worker.KVEntry, error) {
	if err := kv.ValidateKeys(keys); err != nil {
		return nil, fmt.Errorf("kv get many: %w", err)
	}
	out := make(map[string]worker.KVEntry, len(keys))
	if len(keys) == 0 {
		return out, nil
	}
	args := make([]any, 0, len(keys)+1)
	args = append(args, s.nowMilli())
	for _, k := range keys {
		args = append(args, []byte(k))
	}
	rows, err := s.db.QueryContext(ctx, `SELECT key, value, metadata FROM kv
		WHERE (expires_at IS NULL OR expires_at > ?) AND key IN (`+strings.TrimSuffix(strings.Repeat("?, ", len(keys)), ", ")+`)`, args...)
	if err != nil {
		return nil, fmt.Errorf("kv get many: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var key, value, meta []byte
		if err := rows.Scan(&key, &value, &meta); err != nil {
			return nil, fmt.Errorf("kv get many: %w", err)
		}
		e := worker.KVEntry{Value: value}
		if e.Value == nil {
			e.Value = []byte{}
		}
		if meta != nil {
			e.Metadata = json.RawMessage(meta)
		}
		out[string(key)] = e
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("kv get many: %w", err)
	}
	return out, nil
}

// Put stores value under key, replacing any previous value, metadata and
// expiry. opts may be nil.
func (s *Store) Put(ctx context.Context, key string, value []byte, opts *worker.KVPutOptions) error {
	p, err := kv.ValidatePut(key, value, opts, s.now())
	if err != nil {
		return fmt.Errorf("kv put: %w", err)
	}
	var meta, expires any
	if p.Metadata != nil {
		meta = []byte(p.Metadata)
	}
	if !p.Expires.IsZero() {
		expires = p.Expires.UnixMilli()
	}
	if p.Value == nil {
		p.Value = []byte{}
	}
	_, err = s.db.ExecContext(ctx, `
		INSERT INTO kv (key, value, metadata, expires_at) VALUES (?, ?, ?, ?)
		ON CONFLICT (key) DO UPDATE SET
			value = excluded.value, metadata = excluded.metadata, expires_at = excluded.expires_at`,
		[]byte(key), p.Value, meta, expires)
	if err != nil {
		return fmt.Errorf("kv put %q: %w", key, err)
	}
	return nil
}

// Delete removes key. Deleting a missing key is not an error.
func (s *Store) Delete(ctx context.Context, key string) error {
	if err := kv.ValidateKey(key); err != nil {
		return fmt.Errorf("kv delete: %w", err)
	}
	if _, err := s.db.ExecContext(ctx, `DELETE FROM kv WHERE key = ?`, []byte(key)); err != nil {
		return fmt.Errorf("kv delete %q: %w", key, err)
	}
	return nil
}
