package kv

import (
	"encoding/base64"
	"fmt"
)

// cursorVersion leads every cursor so its format can change without old
// cursors being misread.
const cursorVersion = 1

// EncodeCursor returns the opaque cursor that continues a listing after
// lastKey, the last key of the page just returned.
func EncodeCursor(lastKey string) string {
	b := make([]byte, 0, 1+len(lastKey))
	b = append(b, cursorVersion)
	b = append(b, lastKey...)
	return base64.RawURLEncoding.EncodeToString(b)
}

// DecodeCursor returns the key a listing continues after: only keys strictly
// greater follow. An empty cursor starts at the beginning and returns "".
// A cursor EncodeCursor did not produce yields ErrCursorInvalid.
func DecodeCursor(cursor string) (after string, err error) {
	if cursor == "" {
		return "", nil
	}
	b, err := base64.RawURLEncoding.DecodeString(cursor)
	if err != nil || len(b) < 2 || b[0] != cursorVersion || len(b)-1 > MaxKeyLen {
		return "", fmt.Errorf("cursor %q: %w", cursor, ErrCursorInvalid)
	}
	return string(b[1:]), nil
}

// PrefixEnd returns the smallest byte string greater than every string that
// starts with prefix, for range scans `key >= prefix AND key < end`. ok is
// false when no such bound exists (empty prefix or all 0xFF bytes): the scan
// is then unbounded above.
func PrefixEnd(prefix string) (end []byte, ok bool) {
	b := []byte(prefix)
	for i := len(b) - 1; i >= 0; i-- {
		if b[i] < 0xFF {
			b[i]++
			return b[:i+1], true
		}
	}
	return nil, false
}
