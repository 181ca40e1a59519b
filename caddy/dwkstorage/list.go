package dwkstorage

import (
	"context"
	"fmt"
	"io/fs"

	"github.com/dwk/fleet/appliance/fleet/coord"
)

// List returns the keys under dir, in key order, as FileStorage does:
// with recursive, every file and directory below dir; without, the files
// and directories directly in it. Keys carry dir as their prefix. It
// fails with an error wrapping fs.ErrNotExist when dir is neither a
// directory nor a file (a file has no entries). It reads every key below
// dir, coord.MaxListLimit per round trip, without their values.
func (k *KV) List(ctx context.Context, dir string, recursive bool) ([]string, error) {
	base := split(dir)
	st, err := k.store(ctx)
	if err != nil {
		return nil, fmt.Errorf("dwk storage: list %q: %w", dir, err)
	}
	var (
		out  []string
		seen = map[string]bool{}
		sel  = coord.Selector{Prefix: k.keys.data(base)}
		opts = coord.ListOptions{Limit: coord.MaxListLimit, MaxValueBytes: 1}
	)
	add := func(parts []string) {
		if s := join(parts); !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	for {
		page, err := st.List(ctx, sel, opts)
		if err != nil {
			return nil, fmt.Errorf("dwk storage: list %q: %w", dir, err)
		}
		for _, e := range page.Entries {
			parts := k.keys.parts(e.Key)
			if len(parts) <= len(base) {
				continue // not a key this storage wrote
			}
			if !recursive {
				add(parts[:len(base)+1])
				continue
			}
			// Directories first, as a walk meets them.
			for n := len(base) + 1; n <= len(parts); n++ {
				add(parts[:n])
			}
		}
		if page.Cursor == "" {
			break
		}
		opts.Cursor = page.Cursor
	}
	if len(out) > 0 {
		return out, nil
	}
	if len(base) > 0 {
		e, err := st.Get(ctx, k.keys.data(base))
		if err != nil {
			return nil, fmt.Errorf("dwk storage: list %q: %w", dir, err)
		}
		if e.Exists() {
			return nil, nil
		}
	}
	return nil, fmt.Errorf("dwk storage: list %q: %w", dir, fs.ErrNotExist)
}
