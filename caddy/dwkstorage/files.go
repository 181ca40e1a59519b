package dwkstorage

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"time"

	"github.com/caddyserver/certmagic"

	"github.com/dwk/fleet/appliance/fleet/coord"
	"github.com/dwk/fleet/appliance/fleet/coord/tuple"
)

// Store seals value and writes it at key, replacing any value there. One
// round trip.
func (k *KV) Store(ctx context.Context, key string, value []byte) error {
	if len(value) > MaxValueSize {
		return fmt.Errorf("dwk storage: store %q: %w: %d bytes, limit %d", key, ErrValueTooLarge, len(value), MaxValueSize)
	}
	ck, enc, err := k.fileKey(key)
	if err != nil {
		return fmt.Errorf("dwk storage: store %q: %w", key, err)
	}
	st, err := k.store(ctx)
	if err != nil {
		return fmt.Errorf("dwk storage: store %q: %w", key, err)
	}
	sealed := k.seal.seal(enc, value, time.Now())
	if _, err := st.Atomic().Set(ck, sealed, 0).Commit(ctx); err != nil {
		return fmt.Errorf("dwk storage: store %q: %w", key, err)
	}
	return nil
}

// Load returns the value at key; an error wrapping fs.ErrNotExist when
// there is none, or when it was sealed under another secret (then also
// ErrWrongSecret, and a warning is logged), so that certmagic obtains it
// again instead of failing; ErrCorrupt when it does not open otherwise.
// One round trip.
func (k *KV) Load(ctx context.Context, key string) ([]byte, error) {
	ck, enc, err := k.fileKey(key)
	if err != nil {
		return nil, fmt.Errorf("dwk storage: load %q: %w", key, err)
	}
	e, err := k.get(ctx, ck)
	if err != nil {
		return nil, fmt.Errorf("dwk storage: load %q: %w", key, err)
	}
	if !e.Exists() {
		return nil, fmt.Errorf("dwk storage: load %q: %w", key, fs.ErrNotExist)
	}
	v, _, err := k.seal.open(enc, e.Value)
	if err != nil {
		return nil, k.unreadable("load", key, err)
	}
	return v, nil
}

// Exists reports whether key is a file or a directory; false also when
// the store could not be read.
func (k *KV) Exists(ctx context.Context, key string) bool {
	_, err := k.Stat(ctx, key)
	return err == nil
}

// Stat describes key: a file with its size and modification time, or a
// directory (a key other keys extend); an error wrapping fs.ErrNotExist
// when it is neither, or a file sealed under another secret (as Load).
// One round trip for a file, two otherwise.
func (k *KV) Stat(ctx context.Context, key string) (certmagic.KeyInfo, error) {
	parts := split(key)
	info := certmagic.KeyInfo{Key: join(parts)}
	if len(parts) > 0 {
		e, err := k.get(ctx, k.keys.data(parts))
		if err != nil {
			return certmagic.KeyInfo{}, fmt.Errorf("dwk storage: stat %q: %w", key, err)
		}
		if e.Exists() {
			mod, err := k.seal.header(e.Value)
			if err != nil {
				return certmagic.KeyInfo{}, k.unreadable("stat", key, err)
			}
			info.IsTerminal, info.Modified, info.Size = true, mod, sealedSize(len(e.Value))
			return info, nil
		}
	}
	st, err := k.store(ctx)
	if err != nil {
		return certmagic.KeyInfo{}, fmt.Errorf("dwk storage: stat %q: %w", key, err)
	}
	page, err := st.List(ctx, coord.Selector{Prefix: k.keys.data(parts)}, coord.ListOptions{Limit: 1, MaxValueBytes: 1})
	if err != nil {
		return certmagic.KeyInfo{}, fmt.Errorf("dwk storage: stat %q: %w", key, err)
	}
	if len(page.Entries) == 0 {
		return certmagic.KeyInfo{}, fmt.Errorf("dwk storage: stat %q: %w", key, fs.ErrNotExist)
	}
	return info, nil
}

// Delete removes key and, if it is a directory, every key under it. A
// missing key is not an error. The file is deleted in one round trip, a
// directory in pages of up to coord.MaxMutations keys.
func (k *KV) Delete(ctx context.Context, key string) error {
	ck, _, err := k.fileKey(key)
	if err != nil {
		return fmt.Errorf("dwk storage: delete %q: %w", key, err)
	}
	st, err := k.store(ctx)
	if err != nil {
		return fmt.Errorf("dwk storage: delete %q: %w", key, err)
	}
	if _, err := st.Atomic().Delete(ck).Commit(ctx); err != nil {
		return fmt.Errorf("dwk storage: delete %q: %w", key, err)
	}
	for {
		// Always the first page: the previous one is gone.
		page, err := st.List(ctx, coord.Selector{Prefix: ck}, coord.ListOptions{Limit: coord.MaxMutations, MaxValueBytes: 1})
		if err != nil {
			return fmt.Errorf("dwk storage: delete %q: list: %w", key, err)
		}
		if len(page.Entries) == 0 {
			return nil
		}
		a := st.Atomic()
		for _, e := range page.Entries {
			a.Delete(e.Key)
		}
		if _, err := a.Commit(ctx); err != nil {
			return fmt.Errorf("dwk storage: delete %q: %d keys under it: %w", key, len(page.Entries), err)
		}
	}
}

// unreadable is the error of op on key whose value does not open with
// err. A value sealed under another secret (the fleet secret changed) is
// reported as missing as well, with a warning, so that certmagic replaces
// it instead of failing to start; a corrupt value stays an error.
func (k *KV) unreadable(op, key string, err error) error {
	if errors.Is(err, ErrWrongSecret) {
		k.log.Warn("dwk storage: value sealed with a different secret; treating it as missing, so it is obtained again",
			"key", key, "op", op)
		return fmt.Errorf("dwk storage: %s %q: %w: %w", op, key, fs.ErrNotExist, err)
	}
	return fmt.Errorf("dwk storage: %s %q: %w", op, key, err)
}

// fileKey returns the coordination key of a file and its encoding, which
// the sealed value is bound to.
func (k *KV) fileKey(key string) (tuple.Key, []byte, error) {
	parts := split(key)
	if len(parts) == 0 {
		return nil, nil, fmt.Errorf("%w: empty key", ErrInvalidKey)
	}
	ck := k.keys.data(parts)
	enc, err := tuple.Encode(ck)
	if err != nil {
		return nil, nil, fmt.Errorf("%w: %w", ErrInvalidKey, err)
	}
	if len(enc) > coord.MaxKeySize {
		return nil, nil, fmt.Errorf("%w: %d bytes encoded, limit %d", ErrInvalidKey, len(enc), coord.MaxKeySize)
	}
	return ck, enc, nil
}

func (k *KV) get(ctx context.Context, ck tuple.Key) (coord.Entry, error) {
	st, err := k.store(ctx)
	if err != nil {
		return coord.Entry{}, err
	}
	return st.Get(ctx, ck)
}
