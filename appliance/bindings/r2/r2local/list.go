package r2local

import (
	"context"
	"encoding/base64"
	"fmt"
	"strings"

	"github.com/dwk/fleet/appliance/bindings/r2"
	"github.com/dwk/fleet/appliance/worker"
)

// afterPrefix sorts after every key that starts with its prefix: keys are
// UTF-8, which never contains the byte 0xff.
const afterPrefix = "\xff"

// List implements worker.R2Bucket with S3 ListObjectsV2 semantics: keys in
// byte order after StartAfter and the cursor, a delimited prefix counting
// against Limit like an object, and Truncated only when more follow. Listed
// objects carry all their metadata. The cursor is opaque; it is the position
// after the last entry of the page.
func (b *Bucket) List(ctx context.Context, opts *worker.R2ListOptions) (*worker.R2Objects, error) {
	if opts == nil {
		opts = &worker.R2ListOptions{}
	}
	limit, err := r2.ListLimit(opts.Limit)
	if err != nil {
		return nil, fmt.Errorf("r2local list: %w", err)
	}
	after := opts.StartAfter
	if opts.Cursor != "" {
		c, err := decodeCursor(opts.Cursor)
		if err != nil {
			return nil, fmt.Errorf("r2local list: %w", err)
		}
		after = max(after, c)
	}
	page := &worker.R2Objects{}
	n := 0
	for {
		// At most limit-n more entries fit; one beyond them shows truncation.
		objs, err := b.scan(ctx, opts.Prefix, after, limit-n+1)
		if err != nil {
			return nil, fmt.Errorf("r2local list: %w", err)
		}
		skipped := false
		for _, o := range objs {
			if n == limit {
				page.Truncated = true
				page.Cursor = encodeCursor(after)
				return page, nil
			}
			n++
			if cp, ok := commonPrefix(o.Key, opts.Prefix, opts.Delimiter); ok {
				page.DelimitedPrefixes = append(page.DelimitedPrefixes, cp)
				after = cp + afterPrefix
				skipped = true // the rest of objs may share cp; seek past it
				break
			}
			page.Objects = append(page.Objects, *o)
			after = o.Key
		}
		if !skipped {
			return page, nil // every entry is in the page, or truncation returned above
		}
	}
}

// scan returns up to max objects with prefix whose keys sort after after.
func (b *Bucket) scan(ctx context.Context, prefix, after string, max int) ([]*worker.R2Object, error) {
	var (
		where []string
		args  []any
	)
	if after != "" {
		where, args = append(where, "key > ?"), append(args, []byte(after))
	}
	if prefix != "" {
		where = append(where, "key >= ?", "key < ?")
		args = append(args, []byte(prefix), []byte(prefix+afterPrefix))
	}
	q := `SELECT ` + objectCols + ` FROM objects`
	if len(where) > 0 {
		q += ` WHERE ` + strings.Join(where, " AND ")
	}
	q += ` ORDER BY key LIMIT ?`
	rows, err := b.db.QueryContext(ctx, q, append(args, max)...)
	if err != nil {
		return nil, fmt.Errorf("read index: %w", err)
	}
	defer rows.Close()
	var objs []*worker.R2Object
	for rows.Next() {
		o, err := scanObject(rows)
		if err != nil {
			return nil, fmt.Errorf("read index: %w", err)
		}
		objs = append(objs, o)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("read index: %w", err)
	}
	return objs, nil
}

// commonPrefix returns the delimited prefix key rolls up into: the prefix
// plus the rest of the key up to and including the first delimiter.
func commonPrefix(key, prefix, delim string) (string, bool) {
	if delim == "" {
		return "", false
	}
	i := strings.Index(key[len(prefix):], delim)
	if i < 0 {
		return "", false
	}
	return key[:len(prefix)+i+len(delim)], true
}

func encodeCursor(after string) string {
	return base64.RawURLEncoding.EncodeToString([]byte(after))
}

func decodeCursor(c string) (string, error) {
	b, err := base64.RawURLEncoding.DecodeString(c)
	if err != nil {
		return "", fmt.Errorf("invalid cursor %q: %w", c, err)
	}
	return string(b), nil
}
