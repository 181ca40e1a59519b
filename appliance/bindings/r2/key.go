package r2

import (
	"fmt"
	"unicode/utf8"

	"github.com/dwk/fleet/appliance/worker"
)

// Limits of the R2 API that backends enforce before touching storage.
const (
	// MaxKeyBytes is the longest key, in bytes of UTF-8.
	MaxKeyBytes = 1024
	// MaxDeleteKeys is how many keys one Delete may name.
	MaxDeleteKeys = 1000
	// MaxListLimit is the largest page List returns; it is also the default.
	MaxListLimit = 1000
	// MinPartSize is the smallest size of a multipart part other than the
	// last, as in S3 (EntityTooSmall).
	MinPartSize = 5 << 20
	// MaxPartNumber is the highest multipart part number.
	MaxPartNumber = 10000
)

// ValidateKey reports whether key is 1 to MaxKeyBytes bytes of valid UTF-8.
// The error wraps worker.ErrR2KeyInvalid.
func ValidateKey(key string) error {
	switch {
	case key == "":
		return fmt.Errorf("empty key: %w", worker.ErrR2KeyInvalid)
	case len(key) > MaxKeyBytes:
		return fmt.Errorf("key of %d bytes: %w", len(key), worker.ErrR2KeyInvalid)
	case !utf8.ValidString(key):
		return fmt.Errorf("key %q is not UTF-8: %w", key, worker.ErrR2KeyInvalid)
	}
	return nil
}

// ListLimit turns R2ListOptions.Limit into a page size: 0 means MaxListLimit
// and larger values are capped to it, as S3 caps max-keys. A negative limit
// is an error.
func ListLimit(limit int) (int, error) {
	switch {
	case limit < 0:
		return 0, fmt.Errorf("list limit %d is negative", limit)
	case limit == 0 || limit > MaxListLimit:
		return MaxListLimit, nil
	}
	return limit, nil
}
