package coord

import (
	"bytes"
	"context"
	"encoding/base64"
	"fmt"
	"strings"

	"github.com/dwk/fleet/appliance/fleet/coord/tuple"
	"github.com/dwk/fleet/appliance/libsql/hrana"
)

// List limits.
const (
	DefaultListLimit = 100
	MaxListLimit     = 1000
)

// Selector chooses the keys a List returns: the intersection of the keys
// that strictly extend Prefix (the prefix key itself excluded, as in Deno
// KV), are at or after Start, and are before End. Nil fields do not
// constrain; the zero Selector selects every key.
type Selector struct {
	Prefix tuple.Key
	Start  tuple.Key
	End    tuple.Key
}

// ListOptions tune a List.
type ListOptions struct {
	// Limit is the most entries returned. Default (0): DefaultListLimit;
	// at most MaxListLimit.
	Limit int
	// Reverse lists in descending key order.
	Reverse bool
	// Cursor continues a previous List with the same selector and
	// direction; "" starts at the beginning.
	Cursor string
	// MaxValueBytes, when positive, returns only the first MaxValueBytes
	// bytes of each byte value — for listings that need a value's header,
	// not its body.
	MaxValueBytes int
}

// ListPage is one page of a List.
type ListPage struct {
	// Entries are in key order (descending when Reverse).
	Entries []Entry
	// Cursor continues the listing; "" when no entries follow.
	Cursor string
}

// List returns the live entries the selector chooses, in key order, one
// page per call, in one round trip. Keys written or deleted between pages
// are seen or missed according to where they sort.
func (s *Store) List(ctx context.Context, sel Selector, o ListOptions) (ListPage, error) {
	ctx, cancel, err := s.begin(ctx)
	if err != nil {
		return ListPage{}, err
	}
	defer cancel()
	limit := o.Limit
	if limit == 0 {
		limit = DefaultListLimit
	}
	if limit < 0 || limit > MaxListLimit {
		return ListPage{}, fmt.Errorf("list: limit %d: %w", o.Limit, ErrInvalidLimit)
	}
	lo, hi, err := sel.bounds()
	if err != nil {
		return ListPage{}, fmt.Errorf("list: %w", err)
	}
	if o.Cursor != "" {
		last, err := decodeCursor(o.Cursor, o.Reverse)
		if err != nil {
			return ListPage{}, fmt.Errorf("list: %w", err)
		}
		if (lo != nil && bytes.Compare(last, lo) < 0) || (hi != nil && bytes.Compare(last, hi) >= 0) {
			return ListPage{}, fmt.Errorf("list: %w: outside the selector's range", ErrInvalidCursor)
		}
		if o.Reverse {
			hi = last
		} else {
			lo = tuple.Successor(last)
		}
	}

	var q strings.Builder
	args := make([]hrana.Value, 0, 4)
	value := `value`
	if o.MaxValueBytes > 0 {
		value = `CASE WHEN typeof(value) = 'blob' THEN substr(value, 1, ?) ELSE value END`
		args = append(args, hrana.Integer(int64(o.MaxValueBytes)))
	}
	q.WriteString(`SELECT key, ` + value + `, versionstamp, expires_at FROM coord_kv WHERE ` + live)
	if lo != nil {
		q.WriteString(` AND key >= ?`)
		args = append(args, hrana.Blob(lo))
	}
	if hi != nil {
		q.WriteString(` AND key < ?`)
		args = append(args, hrana.Blob(hi))
	}
	if o.Reverse {
		q.WriteString(` ORDER BY key DESC LIMIT ?`)
	} else {
		q.WriteString(` ORDER BY key LIMIT ?`)
	}
	args = append(args, hrana.Integer(int64(limit+1)))
	res, err := s.c.Execute(ctx, hrana.NewStmt(q.String(), args...))
	if err != nil {
		return ListPage{}, fmt.Errorf("list %+v: %w", sel, err)
	}
	page := ListPage{Entries: make([]Entry, 0, min(len(res.Rows), limit))}
	for i, row := range res.Rows {
		if i == limit {
			page.Cursor = encodeCursor(res.Rows[limit-1][0].Blob, o.Reverse)
			break
		}
		e, err := scanEntry(row)
		if err != nil {
			return ListPage{}, fmt.Errorf("list: %w", err)
		}
		page.Entries = append(page.Entries, e)
	}
	return page, nil
}

// bounds returns the selector's byte range [lo, hi); nil means unbounded.
func (sel Selector) bounds() (lo, hi []byte, err error) {
	if sel.Prefix != nil {
		if lo, hi, err = tuple.PrefixRange(sel.Prefix); err != nil {
			return nil, nil, fmt.Errorf("prefix: %w: %w", ErrInvalidKey, err)
		}
	}
	if sel.Start != nil {
		start, err := tuple.Encode(sel.Start)
		if err != nil {
			return nil, nil, fmt.Errorf("start: %w: %w", ErrInvalidKey, err)
		}
		if lo == nil || bytes.Compare(start, lo) > 0 {
			lo = start
		}
	}
	if sel.End != nil {
		end, err := tuple.Encode(sel.End)
		if err != nil {
			return nil, nil, fmt.Errorf("end: %w: %w", ErrInvalidKey, err)
		}
		if hi == nil || bytes.Compare(end, hi) < 0 {
			hi = end
		}
	}
	return lo, hi, nil
}

// Cursors are base64url of: version byte, direction byte, the last key
// returned (encoded).
const cursorVersion = 1

func encodeCursor(last []byte, reverse bool) string {
	b := make([]byte, 0, 2+len(last))
	dir := byte(0)
	if reverse {
		dir = 1
	}
	b = append(b, cursorVersion, dir)
	b = append(b, last...)
	return base64.RawURLEncoding.EncodeToString(b)
}

func decodeCursor(c string, reverse bool) ([]byte, error) {
	b, err := base64.RawURLEncoding.DecodeString(c)
	if err != nil || len(b) < 3 || b[0] != cursorVersion || b[1] > 1 {
		return nil, fmt.Errorf("%w %q", ErrInvalidCursor, c)
	}
	if (b[1] == 1) != reverse {
		return nil, fmt.Errorf("%w: issued for the other direction", ErrInvalidCursor)
	}
	if _, err := tuple.Decode(b[2:]); err != nil {
		return nil, fmt.Errorf("%w %q: %w", ErrInvalidCursor, c, err)
	}
	return b[2:], nil
}
