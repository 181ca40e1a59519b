package kv

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/dwk/fleet/appliance/worker"
)

// ValidateKey reports worker.ErrKVKeyInvalid unless key is 1 to 512 bytes and
// neither "." nor "..".
func ValidateKey(key string) error {
	if len(key) == 0 || len(key) > MaxKeyLen || key == "." || key == ".." {
		return fmt.Errorf("key of %d bytes: %w", len(key), worker.ErrKVKeyInvalid)
	}
	return nil
}

// ValidateKeys checks the keys of a bulk get: at most
// worker.KVMaxGetMany, each valid.
func ValidateKeys(keys []string) error {
	if len(keys) > worker.KVMaxGetMany {
		return fmt.Errorf("%d keys: %w", len(keys), worker.ErrKVTooManyKeys)
	}
	for _, k := range keys {
		if err := ValidateKey(k); err != nil {
			return err
		}
	}
	return nil
}

// Put is a validated put, ready for a backend to store.
type Put struct {
	Key   string
	Value []byte
	// Metadata is nil when none was given.
	Metadata json.RawMessage
	// Expires is zero when the key does not expire; otherwise it is after
	// the now passed to ValidatePut, truncated to the millisecond.
	Expires time.Time
}

// ValidatePut checks a put against the KV limits and resolves its expiry
// relative to now. opts may be nil. The returned Put aliases value and
// opts.Metadata; the backend must not keep them past the call.
func ValidatePut(key string, value []byte, opts *worker.KVPutOptions, now time.Time) (Put, error) {
	if err := ValidateKey(key); err != nil {
		return Put{}, err
	}
	if len(value) > MaxValueLen {
		return Put{}, fmt.Errorf("value of %d bytes: %w", len(value), worker.ErrKVValueTooLarge)
	}
	p := Put{Key: key, Value: value}
	if opts == nil {
		return p, nil
	}
	if len(opts.Metadata) > 0 {
		if len(opts.Metadata) > MaxMetadataLen || !json.Valid(opts.Metadata) {
			return Put{}, fmt.Errorf("metadata of %d bytes: %w", len(opts.Metadata), worker.ErrKVMetadataInvalid)
		}
		p.Metadata = opts.Metadata
	}
	exp, err := resolveExpiry(opts, now)
	if err != nil {
		return Put{}, err
	}
	p.Expires = exp
	return p, nil
}

func resolveExpiry(opts *worker.KVPutOptions, now time.Time) (time.Time, error) {
	hasAbs, hasTTL := !opts.Expiration.IsZero(), opts.ExpirationTTL != 0
	switch {
	case hasAbs && hasTTL:
		return time.Time{}, fmt.Errorf("both Expiration and ExpirationTTL set: %w", worker.ErrKVExpiration)
	case hasTTL && opts.ExpirationTTL < 0:
		return time.Time{}, fmt.Errorf("ExpirationTTL %s: %w", opts.ExpirationTTL, worker.ErrKVExpiration)
	case hasTTL:
		return time.UnixMilli(now.Add(opts.ExpirationTTL).UnixMilli()).UTC(), nil
	case hasAbs && !opts.Expiration.After(now):
		return time.Time{}, fmt.Errorf("Expiration %s is not after %s: %w",
			opts.Expiration.UTC().Format(time.RFC3339Nano), now.UTC().Format(time.RFC3339Nano), worker.ErrKVExpiration)
	case hasAbs:
		return time.UnixMilli(opts.Expiration.UnixMilli()).UTC(), nil
	}
	return time.Time{}, nil
}

// ListLimit returns the page size of a list: opts.Limit, or MaxListLimit when
// it is 0 or opts is nil. Outside 0..MaxListLimit it reports ErrListLimit.
func ListLimit(opts *worker.KVListOptions) (int, error) {
	if opts == nil || opts.Limit == 0 {
		return MaxListLimit, nil
	}
	if opts.Limit < 0 || opts.Limit > MaxListLimit {
		return 0, fmt.Errorf("limit %d: %w", opts.Limit, ErrListLimit)
	}
	return opts.Limit, nil
}
