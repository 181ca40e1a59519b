package kvlocal

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/dwk/fleet/appliance/bindings/kv"
	"github.com/dwk/fleet/appliance/worker"
)

// List returns the live keys starting with opts.Prefix in byte order, at most
// opts.Limit (0: 1000) per page. The cursor of an incomplete page continues
// strictly after its last key, so keys put or deleted between pages are seen
// or missed according to where they sort. opts may be nil.
func (s *Store) List(ctx context.Context, opts *worker.KVListOptions) (*worker.KVListResult, error) {
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

	var where strings.Builder
	args := []any{s.nowMilli()}
	where.WriteString(`(expires_at IS NULL OR expires_at > ?)`)
	if after != "" && after >= prefix {
		where.WriteString(` AND key > ?`)
		args = append(args, []byte(after))
	} else if prefix != "" {
		where.WriteString(` AND key >= ?`)
		args = append(args, []byte(prefix))
	}
	if end, ok := kv.PrefixEnd(prefix); ok {
		where.WriteString(` AND key < ?`)
		args = append(args, end)
	}
	args = append(args, limit+1)

	rows, err := s.db.QueryContext(ctx,
		`SELECT key, metadata, expires_at FROM kv WHERE `+where.String()+` ORDER BY key LIMIT ?`, args...)
	if err != nil {
		return nil, fmt.Errorf("kv list %q: %w", prefix, err)
	}
	defer rows.Close()
	res := &worker.KVListResult{Keys: []worker.KVKey{}}
	for rows.Next() {
		var (
			key, meta []byte
			expires   *int64
		)
		if err := rows.Scan(&key, &meta, &expires); err != nil {
			return nil, fmt.Errorf("kv list %q: %w", prefix, err)
		}
		k := worker.KVKey{Name: string(key)}
		if meta != nil {
			k.Metadata = json.RawMessage(meta)
		}
		if expires != nil {
			k.Expiration = time.UnixMilli(*expires).UTC()
		}
		res.Keys = append(res.Keys, k)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("kv list %q: %w", prefix, err)
	}
	if len(res.Keys) > limit {
		res.Keys = res.Keys[:limit]
		res.Cursor = kv.EncodeCursor(res.Keys[limit-1].Name)
	} else {
		res.ListComplete = true
	}
	return res, nil
}
