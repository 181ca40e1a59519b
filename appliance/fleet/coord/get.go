package coord

import (
	"context"
	"fmt"
	"strings"

	"github.com/dwk/fleet/appliance/fleet/coord/tuple"
	"github.com/dwk/fleet/appliance/libsql/hrana"
)

// Get returns the entry of key; a missing or expired key yields an Entry
// with Key set, nil Value and a zero Versionstamp, not an error. One round
// trip.
func (s *Store) Get(ctx context.Context, key tuple.Key) (Entry, error) {
	ctx, cancel, err := s.begin(ctx)
	if err != nil {
		return Entry{}, err
	}
	defer cancel()
	k, err := encodeKey(key)
	if err != nil {
		return Entry{}, fmt.Errorf("get: %w", err)
	}
	res, err := s.c.Execute(ctx, hrana.NewStmt(
		`SELECT `+selectEntry+` FROM coord_kv WHERE key = ? AND `+live, hrana.Blob(k)))
	if err != nil {
		return Entry{}, fmt.Errorf("get %v: %w", key, err)
	}
	if len(res.Rows) == 0 {
		return Entry{Key: key}, nil
	}
	e, err := scanEntry(res.Rows[0])
	if err != nil {
		return Entry{}, fmt.Errorf("get %v: %w", key, err)
	}
	e.Key = key
	return e, nil
}

// GetMany returns the entries of keys, in the order given, with absent
// keys as in Get; all are read from one snapshot in one round trip. At
// most MaxGetMany keys.
func (s *Store) GetMany(ctx context.Context, keys []tuple.Key) ([]Entry, error) {
	ctx, cancel, err := s.begin(ctx)
	if err != nil {
		return nil, err
	}
	defer cancel()
	return s.getMany(ctx, keys)
}

func (s *Store) getMany(ctx context.Context, keys []tuple.Key) ([]Entry, error) {
	if len(keys) > MaxGetMany {
		return nil, fmt.Errorf("get many: %d keys: %w (limit %d)", len(keys), ErrTooManyOps, MaxGetMany)
	}
	if len(keys) == 0 {
		return []Entry{}, nil
	}
	q, err := newManyRead(keys)
	if err != nil {
		return nil, err
	}
	res, err := s.c.Execute(ctx, q.stmt)
	if err != nil {
		return nil, fmt.Errorf("get many (%d keys): %w", len(keys), err)
	}
	return q.entries(res.Rows)
}

// manyRead is the statement that reads several keys, and how its rows
// map back to them.
type manyRead struct {
	keys  []tuple.Key
	stmt  hrana.Stmt
	index map[string][]int // encoded key → positions in keys
}

// newManyRead builds the read of keys (at least one).
func newManyRead(keys []tuple.Key) (*manyRead, error) {
	args := make([]hrana.Value, len(keys))
	q := &manyRead{keys: keys, index: make(map[string][]int, len(keys))}
	for i, key := range keys {
		k, err := encodeKey(key)
		if err != nil {
			return nil, fmt.Errorf("get many: key %d: %w", i, err)
		}
		args[i] = hrana.Blob(k)
		q.index[string(k)] = append(q.index[string(k)], i)
	}
	placeholders := strings.Repeat("?, ", len(keys)-1) + "?"
	q.stmt = hrana.NewStmt(`SELECT `+selectEntry+` FROM coord_kv WHERE key IN (`+placeholders+`) AND `+live, args...)
	return q, nil
}

// entries maps the read's rows to the keys' entries, absent keys as in
// Get.
func (q *manyRead) entries(rows [][]hrana.Value) ([]Entry, error) {
	out := make([]Entry, len(q.keys))
	for i, key := range q.keys {
		out[i] = Entry{Key: key}
	}
	for _, row := range rows {
		e, err := scanEntry(row)
		if err != nil {
			return nil, fmt.Errorf("get many: %w", err)
		}
		for _, i := range q.index[string(row[0].Blob)] {
			e.Key = q.keys[i]
			out[i] = e
		}
	}
	return out, nil
}
